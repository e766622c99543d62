// The inline helpers live in the header so that Swift can inline them; this file holds what Swift cannot do
// itself: reserving stack (alloca) and the callgrind client requests (C macros). Operating-system calls live in CBenchPlatform, behind BenchPlatform.
#include "BenchSupport.h"

#include <alloca.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_HAS_CALLGRIND 1
#else
#define BENCH_HAS_CALLGRIND 0
#endif

int bench_callgrind_compiled_in(void) {
    return BENCH_HAS_CALLGRIND;
}

void bench_callgrind_begin(void) {
#if BENCH_HAS_CALLGRIND
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
#endif
}

void bench_callgrind_end(const char *name) {
#if BENCH_HAS_CALLGRIND
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT(name);
    CALLGRIND_STOP_INSTRUMENTATION;
#else
    (void)name;
#endif
}

void bench_call_with_stack_offset(size_t bytes, void (*body)(void *context), void *context) {
    // One byte more, so that a zero offset still has a gap to write; the write and the empty asm after the call
    // keep the compiler from dropping the gap or turning the call into a tail call that would release it.
    volatile char *gap = alloca(bytes + 1);
    gap[0] = 0;
    body(context);
    __asm__ volatile("" : : "r"(gap) : "memory");
}
