#ifndef BENCH_PLATFORM_H
#define BENCH_PLATFORM_H

#include <time.h>

/// The C half of the platform seam: operating-system calls that Swift cannot make itself (a variadic function,
/// the CPU_* macros, a declaration glibc hides behind _GNU_SOURCE). Only BenchPlatform calls these; the rest of the
/// package asks BenchPlatform. Each is Linux-only: elsewhere it does nothing and reports ENOSYS.

/// Asks the kernel to send `signal` to this process when its parent ends (prctl PR_SET_PDEATHSIG; strictly,
/// when the parent's thread that started it ends). 0 on success, else errno. Kept across execve.
int platform_die_with_parent(int signal);
/// An anonymous file in memory (memfd_create), not closed on exec, so that a child can read it through
/// /dev/fd/N: it disappears with the last process holding it, whatever ends them. The descriptor, or -1 (errno).
int platform_anonymous_file(const char *name);
/// Lets the calling thread run on `cpu` alone (sched_setaffinity of the thread). 0 on success, else errno: EINVAL
/// for a CPU this process may not use or that does not exist.
int platform_pin_current_thread(int cpu);

/// The calling thread's kernel id (gettid) and its CPU-time clock (pthread_getcpuclockid), for another thread to
/// read its scheduler figures by. 0 on success, else errno.
int platform_current_thread_identity(int *thread_id, clockid_t *cpu_clock);
/// One thread's scheduler figures so far: nanoseconds on a CPU, nanoseconds waiting on a run queue, and the number
/// of times it was switched in.
struct platform_thread_schedule {
    unsigned long long running_ns;
    unsigned long long runqueue_ns;
    unsigned long long switches_in;
};
/// Opens thread `thread_id`'s `/proc/self/task/<id>/schedstat` for `platform_thread_schedule_read`: the
/// descriptor, or -1 (errno). Closed by the caller.
int platform_thread_schedule_open(int thread_id);
/// Reads the thread's figures: the run-queue time and the switches in from its schedstat file (`fd`), which the
/// kernel brings up to date when the thread is switched in; the time on a CPU from `cpu_clock`, exact to the call
/// (schedstat's own first field is brought up to date only at a tick or a switch, up to 4 ms late). 0 on success,
/// else errno (ENODATA when the kernel keeps no scheduler statistics: it then writes zeros).
int platform_thread_schedule_read(int fd, clockid_t cpu_clock, struct platform_thread_schedule *out);

#endif
