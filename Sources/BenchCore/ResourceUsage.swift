#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's CPU time and context switches at one moment (`getrusage(RUSAGE_SELF)`), so that a sample can
/// say how much CPU it burned and how often threads were descheduled, not only how long it took.
public struct ResourceUsage: Sendable, Equatable {
    public var userNanoseconds: UInt64
    public var systemNanoseconds: UInt64
    /// Context switches because a thread blocked (waiting for a lock, a semaphore, I/O).
    public var voluntaryContextSwitches: Int
    /// Context switches because the scheduler preempted a thread (more runnable threads than cores).
    public var involuntaryContextSwitches: Int

    public init(userNanoseconds: UInt64 = 0, systemNanoseconds: UInt64 = 0,
                voluntaryContextSwitches: Int = 0, involuntaryContextSwitches: Int = 0) {
        self.userNanoseconds = userNanoseconds
        self.systemNanoseconds = systemNanoseconds
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
    }

    /// The whole process's usage so far.
    public static func current() -> ResourceUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return ResourceUsage(
            userNanoseconds: nanoseconds(usage.ru_utime),
            systemNanoseconds: nanoseconds(usage.ru_stime),
            voluntaryContextSwitches: usage.ru_nvcsw,
            involuntaryContextSwitches: usage.ru_nivcsw
        )
    }

    /// What was used between `earlier` and `self`.
    public func since(_ earlier: ResourceUsage) -> ResourceUsage {
        ResourceUsage(
            userNanoseconds: userNanoseconds &- earlier.userNanoseconds,
            systemNanoseconds: systemNanoseconds &- earlier.systemNanoseconds,
            voluntaryContextSwitches: voluntaryContextSwitches - earlier.voluntaryContextSwitches,
            involuntaryContextSwitches: involuntaryContextSwitches - earlier.involuntaryContextSwitches
        )
    }

    private static func nanoseconds(_ time: timeval) -> UInt64 {
        UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1_000
    }
}
