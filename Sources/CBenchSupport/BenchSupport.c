// The inline helpers live in the header so that Swift can inline them; this file holds the callgrind client
// requests (C macros), which Swift cannot call. Operating-system calls live in CBenchPlatform, behind BenchPlatform.
#include "BenchSupport.h"

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

void bench_callgrind_footprint_begin(void) {
#if BENCH_HAS_CALLGRIND
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
#endif
}

void bench_callgrind_footprint_end(const char *name) {
#if BENCH_HAS_CALLGRIND
    CALLGRIND_DUMP_STATS_AT(name);
    CALLGRIND_STOP_INSTRUMENTATION;
#else
    (void)name;
#endif
}
