#ifndef BENCH_PLATFORM_H
#define BENCH_PLATFORM_H

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

#endif
