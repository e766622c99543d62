#ifndef BENCH_PLATFORM_H
#define BENCH_PLATFORM_H

#include <time.h>

/// The C half of the platform seam: operating-system calls that Swift cannot make itself (a variadic function,
/// the CPU_* macros, a declaration glibc hides behind _GNU_SOURCE). Only BenchPlatform calls these; the rest of the
/// package asks BenchPlatform. Each call of the system is Linux-only: elsewhere it does nothing and reports ENOSYS.
/// The parsers of procfs text are pure functions, defined everywhere, so that tests can give them any text.

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

/// What `platform_cpu_steal_parse` writes for a CPU it has no steal figure for: no `cpuN` line (an offline CPU, a
/// gap in the numbering), or a line with fewer than eight values (a kernel older than 2.6.11).
#define PLATFORM_NO_STEAL (~0ull)
/// Opens `/proc/stat` for `platform_cpu_steal_read`: the descriptor, or -1 (errno). Closed by the caller.
int platform_cpu_steal_open(void);
/// Reads the whole of `/proc/stat` (`fd`) into `buffer` (`size` bytes) and parses it (`platform_cpu_steal_parse`)
/// into `ticks` (`capacity` entries) and `*cpus`. 0 on success, else errno: ENOBUFS when the file did not fit in
/// `buffer` (the caller grows it and reads again), ENODATA when the text holds no `cpuN` line. Allocates nothing.
int platform_cpu_steal_read(int fd, char *buffer, size_t size, unsigned long long *ticks, int capacity, int *cpus);
/// Parses the text of `/proc/stat` (`length` bytes, not necessarily terminated): for each `cpuN` line, the 8th value
/// after the name (`steal`, in USER_HZ ticks since boot) goes to `ticks[N]` when N < `capacity`; every other entry
/// of `ticks` gets PLATFORM_NO_STEAL. The aggregate `cpu` line and every line that is not a CPU's are skipped. Sets
/// `*cpus` to one more than the highest N of a `cpuN` line (0 when there is none), so that a caller can size
/// `ticks`. Returns how many `cpuN` lines it read. Pure (reads nothing but its arguments, allocates nothing), and
/// defined on every platform.
int platform_cpu_steal_parse(const char *text, size_t length, unsigned long long *ticks, int capacity, int *cpus);
/// Opens thread `thread_id`'s `/proc/self/task/<id>/stat` for `platform_thread_processor_read`: the descriptor, or
/// -1 (errno). Closed by the caller.
int platform_thread_stat_open(int thread_id);
/// Reads the CPU the thread last ran on from its stat file (`fd`) into `*cpu`. 0 on success, else errno (ENODATA
/// when the text has no `processor` field). Allocates nothing.
int platform_thread_processor_read(int fd, int *cpu);
/// The `processor` field (the 39th) of a `/proc/<pid>/task/<tid>/stat` line (`length` bytes, not necessarily
/// terminated): the CPU the thread last ran on, or -1 when the text has no such field. Fields are counted from the
/// last `)`, since the command name before it, in parentheses, may itself hold spaces and parentheses; a field that
/// the end of the text cuts off (no space or line end after it) is not read. Pure, and defined on every platform.
int platform_thread_processor_parse(const char *text, size_t length);

#endif
