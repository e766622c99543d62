#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H

#include <stdint.h>

/// Compiler barriers in the spirit of google/benchmark's DoNotOptimize.
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

/// One worker's published operation count, alone on its own 128 bytes (two cache lines, for the adjacent-line
/// prefetcher) so that a worker publishing after every batch never slows a neighbour.
typedef struct {
    int64_t value;
    char padding[120];
} bench_padded_counter;

/// Publishes `value` with a relaxed store: one plain `mov` on x86-64, visible to the coordinator soon after.
static inline __attribute__((always_inline)) void bench_counter_publish(bench_padded_counter *counter, int64_t value) {
    __atomic_store_n(&counter->value, value, __ATOMIC_RELAXED);
}

/// Reads a published count (relaxed): a snapshot, for the coordinator that opens and closes a measurement window.
static inline __attribute__((always_inline)) int64_t bench_counter_read(const bench_padded_counter *counter) {
    return __atomic_load_n(&counter->value, __ATOMIC_RELAXED);
}

/// Exactly sixteen `nop` instructions: a known amount of work for `bench count`'s instruction counter to find.
static inline __attribute__((always_inline)) void bench_nops16(void) {
    __asm__ volatile(".rept 16\n\tnop\n\t.endr");
}

/// `value` rotated `steps` times, each rotate needing the last one's result: a fixed amount of work (one cycle
/// a step) that no optimizer removes or shortens, for `harness/spin`. Feed each call the last call's result and
/// the calls make one chain, so the processor cannot overlap them either. Four rotates a loop iteration leave
/// the front end slack, so that the chain alone sets the time.
///
/// Portable C: the compiler emits one rotate instruction per step (`rol` on x86-64, `ror` on AArch64), and the
/// empty `asm` after each step hides the value from the optimizer, so that it can neither fold the steps into one
/// rotate nor compute the chain ahead.
static inline __attribute__((always_inline)) uint64_t bench_rotate_step(uint64_t value) {
    value = (value << 1) | (value >> 63);
    __asm__ volatile("" : "+r"(value));
    return value;
}

static inline __attribute__((always_inline)) uint64_t bench_spin(uint32_t steps, uint64_t value) {
    for (uint32_t block = steps / 4; block > 0; block--) {
        value = bench_rotate_step(bench_rotate_step(bench_rotate_step(bench_rotate_step(value))));
    }
    for (uint32_t step = steps % 4; step > 0; step--) {
        value = bench_rotate_step(value);
    }
    return value;
}

/// Callgrind client requests (valgrind/callgrind.h), for `bench count`. Outside valgrind each is a few
/// instructions that do nothing; compiled without the header, they do nothing at all.

/// 1 when this binary was compiled with valgrind's callgrind.h, else 0.
int bench_callgrind_compiled_in(void);
/// Switches instrumentation on, zeroes the counts and starts collecting on the calling thread.
void bench_callgrind_begin(void);
/// Stops collecting on the calling thread, dumps the counts under `name`, and switches instrumentation off.
void bench_callgrind_end(const char *name);
/// Starts instrumenting every thread and zeroes what was collected: for a run with collection on from the start
/// (`--collect-atstart=yes`), whose dump then holds everything every thread ran since.
void bench_callgrind_footprint_begin(void);
/// Dumps what every thread ran since `bench_callgrind_footprint_begin` under `name`, and stops instrumenting.
void bench_callgrind_footprint_end(const char *name);

#endif
