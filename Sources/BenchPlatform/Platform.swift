// THE PLATFORM SEAM. This module (with its C half, CBenchPlatform) is the one place where the harness calls the
// operating system: BenchCore, BenchResults, StressChecks and the command line import BenchPlatform, never Glibc
// or Darwin. A port to another system changes these files and no other.
//
// What lives here, one file per concern:
// - Platform+Time.swift: the monotonic clock, sleeping, yielding the processor (portable POSIX).
// - Platform+Threads.swift: the thread barrier, CPU pinning, the OS thread count.
// - Platform+Scheduler.swift: a thread's time on a CPU, on a run queue, and its switches in (schedstat).
// - Platform+Steal.swift: the CPU a thread last ran on, and the time the hypervisor stole from each CPU (/proc/stat).
// - Platform+Process.swift: the process's CPU usage, identity, environment, executable, signals, exec.
// - Platform+Spawn.swift: starting a child in its own process group, signalling it, waiting for it.
// - Platform+Files.swift: file descriptors (open, write, truncate, fsync, rename), anonymous files.
// - Platform+Symbols.swift: finding a C function at run time (jemalloc's `mallctl`).
// - Platform+Availability.swift: what only Linux offers, stated once, with the line that says so elsewhere.
//
// Linux-only: CPU pinning, the OS thread count (/proc), each thread's scheduler figures (/proc's schedstat), each
// thread's CPU and each CPU's steal time (/proc's stat files), anonymous files (memfd), binding a child to its
// parent (PR_SET_PDEATHSIG), the executable's path (/proc/self/exe), and the tools around them (valgrind, Debian's
// jemalloc). Elsewhere each reports that it is unavailable rather than guessing. Only Linux is built and tested;
// the other branches are kept to one `#if os(Linux)` per function, so that a port knows where to look.
//
// The synchronization patterns under test call pthread themselves (that is what they measure); they reach it
// through CSyncSupport, not through this module.
#if os(Linux)
import Glibc
#else
import Darwin
#endif

/// The operating system, as the harness sees it: small named calls, each promising what its doc comment says.
/// A namespace; the facets live in `Platform+*.swift`.
@usableFromInline package enum Platform {}

/// A failed system call's `errno`, with the system's own words for it.
package struct SystemError: Error, CustomStringConvertible, Sendable {
    /// The `errno` value.
    package let code: Int32

    package init(code: Int32) {
        self.code = code
    }

    /// The `errno` the last failed call on this thread left.
    package static var last: SystemError { SystemError(code: errno) }

    /// strerror's words, such as "No such file or directory".
    package var description: String { String(cString: strerror(code)) }

    /// The call was interrupted by a signal and may be retried (EINTR).
    package var isInterrupted: Bool { code == EINTR }
    /// The path already exists (EEXIST).
    package var isAlreadyExisting: Bool { code == EEXIST }
    /// The path is a directory (EISDIR).
    package var isDirectory: Bool { code == EISDIR }
}
