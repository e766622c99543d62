#if canImport(Glibc)
import Glibc
#endif

/// How many OS threads this process has right now: the entries of `/proc/self/task`, one per kernel thread
/// (the main thread, thread teams, libdispatch's workers, the signal thread). A count that grows across samples
/// shows threads left behind by a case; one far above a case's team shows a pool at work behind it.
///
/// Reads a directory of procfs; costs a few microseconds, so it is taken outside the timed region.
public enum OSThreadCount {
    /// The current count, or nil where `/proc/self/task` cannot be read (not Linux, no procfs).
    public static func current() -> Int? {
        #if os(Linux)
        guard let directory = opendir("/proc/self/task") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            // Every entry but `.` and `..` is a thread id.
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in name[0] == UInt8(ascii: ".") }
            if !isDot { count += 1 }
        }
        return count
        #else
        return nil
        #endif
    }
}
