// What Swift cannot call: prctl (variadic), memfd_create (declared only with _GNU_SOURCE), and the CPU_* macros of
// sched_setaffinity. All three are Linux's; elsewhere each reports ENOSYS, which BenchPlatform turns into a line.
#define _GNU_SOURCE
#include "CBenchPlatform.h"
#include <errno.h>

#if defined(__linux__)
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>

int platform_die_with_parent(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0, 0, 0) == 0 ? 0 : errno;
}

int platform_anonymous_file(const char *name) {
    return memfd_create(name, 0);
}

int platform_pin_current_thread(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : errno;
}
#else
int platform_die_with_parent(int signal) {
    (void)signal;
    return ENOSYS;
}

int platform_anonymous_file(const char *name) {
    (void)name;
    errno = ENOSYS;
    return -1;
}

int platform_pin_current_thread(int cpu) {
    (void)cpu;
    return ENOSYS;
}
#endif
