#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H

#include <stdint.h>

/// Compiler barriers in the spirit of google/benchmark's DoNotOptimize and ClobberMemory.
/// Swift has no inline assembly; these header-only functions are inlined into Swift callers,
/// so they cost no instruction at run time, yet the optimizer must assume the value is used
/// (and, for the pointer form, that memory behind it is read and written).

/// Marks `value` as used: its computation cannot be deleted or sunk out of the loop.
static inline __attribute__((always_inline)) void bench_keep_u64(uint64_t value) {
    __asm__ volatile("" : : "r"(value) : "memory");
}

/// Marks the memory at `pointer` as read and possibly written.
static inline __attribute__((always_inline)) void bench_keep_pointer(const void *pointer) {
    __asm__ volatile("" : : "r"(pointer) : "memory");
}

/// Forces all pending writes to memory to be considered visible to unknown code.
static inline __attribute__((always_inline)) void bench_clobber_memory(void) {
    __asm__ volatile("" : : : "memory");
}

#endif
