// The inline helpers live in the header so that Swift can inline them; this file holds what Swift cannot call:
// prctl (variadic), memfd_create, the CPU_* macros of sched_setaffinity, and the callgrind client requests
// (C macros).
#define _GNU_SOURCE
#include "BenchSupport.h"
#include <errno.h>
#include <sys/mman.h>
#include <sched.h>
#include <sys/prctl.h>

int bench_die_with_parent(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0, 0, 0) == 0 ? 0 : errno;
}

int bench_pin_current_thread(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : errno;
}

int bench_anonymous_file(const char *name) {
    return memfd_create(name, 0);
}

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_HAS_CALLGRIND 1
#else
#define BENCH_HAS_CALLGRIND 0
#endif

int bench_callgrind_compiled_in(void) {
    return BENCH_HAS_CALLGRIND;
}

int bench_running_on_valgrind(void) {
#if BENCH_HAS_CALLGRIND
    return RUNNING_ON_VALGRIND ? 1 : 0;
#else
    return 0;
#endif
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
