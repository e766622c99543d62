// What Swift cannot call: prctl (variadic), memfd_create (declared only with _GNU_SOURCE), the CPU_* macros of
// sched_setaffinity, and gettid through syscall (variadic); and a thread's schedstat read and parsed without an
// allocation, as a sample's edges need. All are Linux's; elsewhere each reports ENOSYS, which BenchPlatform turns
// into a line.
#define _GNU_SOURCE
#include "CBenchPlatform.h"
#include <errno.h>

#if defined(__linux__)
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

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

int platform_current_thread_identity(int *thread_id, clockid_t *cpu_clock) {
    *thread_id = (int)syscall(SYS_gettid);
    return pthread_getcpuclockid(pthread_self(), cpu_clock);
}

int platform_thread_schedule_open(int thread_id) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", thread_id);
    return open(path, O_RDONLY | O_CLOEXEC);
}

int platform_thread_schedule_read(int fd, clockid_t cpu_clock, struct platform_thread_schedule *out) {
    // procfs regenerates the line on every read from offset 0: "<running ns> <run-queue ns> <switches in>\n".
    char line[96];
    ssize_t length = pread(fd, line, sizeof line - 1, 0);
    if (length <= 0) return length < 0 ? errno : ENODATA;
    line[length] = 0;
    char *end = line;
    unsigned long long running = strtoull(end, &end, 10);
    unsigned long long runqueue = strtoull(end, &end, 10);
    unsigned long long switches = strtoull(end, &end, 10);
    // A thread that exists has run and been switched in at least once; zeros mean no statistics are kept.
    if (running == 0 && switches == 0) return ENODATA;
    struct timespec now;
    if (clock_gettime(cpu_clock, &now) != 0) return errno;
    out->running_ns = (unsigned long long)now.tv_sec * 1000000000ull + (unsigned long long)now.tv_nsec;
    out->runqueue_ns = runqueue;
    out->switches_in = switches;
    return 0;
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

int platform_current_thread_identity(int *thread_id, clockid_t *cpu_clock) {
    (void)thread_id;
    (void)cpu_clock;
    return ENOSYS;
}

int platform_thread_schedule_open(int thread_id) {
    (void)thread_id;
    errno = ENOSYS;
    return -1;
}

int platform_thread_schedule_read(int fd, clockid_t cpu_clock, struct platform_thread_schedule *out) {
    (void)fd;
    (void)cpu_clock;
    (void)out;
    return ENOSYS;
}
#endif
