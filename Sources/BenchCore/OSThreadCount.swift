import BenchPlatform

/// How many OS threads this process has right now: the entries of `/proc/self/task`, one per kernel thread
/// (the main thread, thread teams, libdispatch's workers, the signal thread). A count that grows across samples
/// shows threads left behind by a case; one far above a case's team shows a pool at work behind it.
///
/// Reads a directory of procfs; costs a few microseconds, so it is taken outside the timed region.
package enum OSThreadCount {
    /// The current count, or nil where `/proc/self/task` cannot be read (not Linux, no procfs).
    package static func current() -> Int? {
        Platform.osThreadCount()
    }
}
