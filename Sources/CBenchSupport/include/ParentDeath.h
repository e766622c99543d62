#ifndef BENCH_PARENT_DEATH_H
#define BENCH_PARENT_DEATH_H

#include <signal.h>
#include <sys/prctl.h>

/// Asks the kernel to send SIGKILL to this process when the thread that started it ends (prctl's
/// PR_SET_PDEATHSIG; Swift cannot call the variadic prctl itself). 0 on success, -1 with errno set.
static inline int bench_die_with_parent(void) {
    return prctl(PR_SET_PDEATHSIG, SIGKILL);
}

#endif
