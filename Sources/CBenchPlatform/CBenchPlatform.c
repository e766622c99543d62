// What Swift cannot call: prctl (variadic), memfd_create (declared only with _GNU_SOURCE), the CPU_* macros of
// sched_setaffinity, and gettid through syscall (variadic); and a thread's schedstat, a thread's stat and /proc/stat
// read and parsed without an allocation, as a sample's edges need. The calls are Linux's; elsewhere each reports
// ENOSYS, which BenchPlatform turns into a line. The parsers of procfs text come first: pure, and on every platform.
#define _GNU_SOURCE
#include "CBenchPlatform.h"
#include <errno.h>
#include <limits.h>
#include <string.h>

/// Reads the decimal digits at `*cursor` (before `end`) into `*value` and moves the cursor past them: 1 when there
/// was at least one digit and the number fits, else 0 (the cursor then stands where the number went wrong).
static int read_decimal(const char **cursor, const char *end, unsigned long long *value) {
    const char *p = *cursor;
    unsigned long long number = 0;
    while (p < end && *p >= '0' && *p <= '9') {
        unsigned digit = (unsigned)(*p - '0');
        if (number > (ULLONG_MAX - digit) / 10) return 0;
        number = number * 10 + digit;
        p++;
    }
    if (p == *cursor) return 0;
    *cursor = p;
    *value = number;
    return 1;
}

int platform_cpu_steal_parse(const char *text, size_t length, unsigned long long *ticks, int capacity, int *cpus) {
    for (int index = 0; index < capacity; index++) ticks[index] = PLATFORM_NO_STEAL;
    const char *end = text + length;
    int lines = 0;
    long long highest = -1;
    for (const char *line = text; line < end;) {
        const char *line_end = memchr(line, '\n', (size_t)(end - line));
        if (line_end == NULL) line_end = end;
        // "cpuN user nice system idle iowait irq softirq steal guest guest_nice"; the aggregate line is "cpu  ...".
        const char *p = line + 3;
        unsigned long long cpu;
        if (line_end - line > 3 && memcmp(line, "cpu", 3) == 0 && read_decimal(&p, line_end, &cpu) && cpu <= INT_MAX
            && p < line_end && *p == ' ') {
            lines++;
            if ((long long)cpu > highest) highest = (long long)cpu;
            unsigned long long value = 0;
            int values = 0;
            while (values < 8) {
                while (p < line_end && *p == ' ') p++;
                if (!read_decimal(&p, line_end, &value)) break;
                values++;
            }
            if (values == 8 && (long long)cpu < capacity && value != PLATFORM_NO_STEAL) ticks[cpu] = value;
        }
        line = line_end + 1;
    }
    *cpus = (int)(highest + 1);
    return lines;
}

int platform_thread_processor_parse(const char *text, size_t length) {
    const char *end = text + length, *p = NULL;
    for (const char *at = text; at < end; at++) {
        if (*at == ')') p = at + 1;
    }
    if (p == NULL) return -1;
    // The field after ")" is the third (the state); `processor` is the 39th.
    for (int field = 3; field <= 39; field++) {
        while (p < end && *p == ' ') p++;
        if (p == end || *p == '\n') return -1;
        const char *start = p;
        while (p < end && *p != ' ' && *p != '\n') p++;
        if (field == 39) {
            unsigned long long cpu;
            const char *digits = start;
            if (p == end || !read_decimal(&digits, p, &cpu) || digits != p || cpu > INT_MAX) return -1;
            return (int)cpu;
        }
    }
    return -1;
}

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

int platform_cpu_steal_open(void) {
    return open("/proc/stat", O_RDONLY | O_CLOEXEC);
}

int platform_cpu_steal_read(int fd, char *buffer, size_t size, unsigned long long *ticks, int capacity, int *cpus) {
    // procfs regenerates the whole file on every read from offset 0; one that fills the buffer may have been cut.
    ssize_t length = pread(fd, buffer, size, 0);
    if (length < 0) return errno;
    if ((size_t)length == size) return ENOBUFS;
    return platform_cpu_steal_parse(buffer, (size_t)length, ticks, capacity, cpus) > 0 ? 0 : ENODATA;
}

int platform_thread_stat_open(int thread_id) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", thread_id);
    return open(path, O_RDONLY | O_CLOEXEC);
}

int platform_thread_processor_read(int fd, int *cpu) {
    // About 300 bytes; 52 numbers of at most 20 digits and a 16-byte name stay within 1,200.
    char text[2048];
    ssize_t length = pread(fd, text, sizeof text, 0);
    if (length < 0) return errno;
    int processor = platform_thread_processor_parse(text, (size_t)length);
    if (processor < 0) return ENODATA;
    *cpu = processor;
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

int platform_cpu_steal_open(void) {
    errno = ENOSYS;
    return -1;
}

int platform_cpu_steal_read(int fd, char *buffer, size_t size, unsigned long long *ticks, int capacity, int *cpus) {
    (void)fd;
    (void)buffer;
    (void)size;
    (void)ticks;
    (void)capacity;
    (void)cpus;
    return ENOSYS;
}

int platform_thread_stat_open(int thread_id) {
    (void)thread_id;
    errno = ENOSYS;
    return -1;
}

int platform_thread_processor_read(int fd, int *cpu) {
    (void)fd;
    (void)cpu;
    return ENOSYS;
}
#endif
