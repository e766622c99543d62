import BenchPlatform

/// The process's CPU time and context switches at one moment (`getrusage(RUSAGE_SELF)`), so that a sample can
/// say how much CPU it burned and how often threads were descheduled, not only how long it took.
package struct ResourceUsage: Sendable, Equatable {
    package var userNanoseconds: UInt64
    package var systemNanoseconds: UInt64
    /// Context switches because a thread blocked (waiting for a lock, a semaphore, I/O).
    package var voluntaryContextSwitches: Int
    /// Context switches because the scheduler preempted a thread (more runnable threads than cores).
    package var involuntaryContextSwitches: Int

    package init(userNanoseconds: UInt64 = 0, systemNanoseconds: UInt64 = 0,
                voluntaryContextSwitches: Int = 0, involuntaryContextSwitches: Int = 0) {
        self.userNanoseconds = userNanoseconds
        self.systemNanoseconds = systemNanoseconds
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
    }

    /// The whole process's usage so far.
    package static func current() -> ResourceUsage {
        let usage = Platform.processUsage()
        return ResourceUsage(
            userNanoseconds: usage.userNanoseconds,
            systemNanoseconds: usage.systemNanoseconds,
            voluntaryContextSwitches: usage.voluntaryContextSwitches,
            involuntaryContextSwitches: usage.involuntaryContextSwitches
        )
    }

    /// What was used between `earlier` and `self`.
    package func since(_ earlier: ResourceUsage) -> ResourceUsage {
        ResourceUsage(
            userNanoseconds: userNanoseconds &- earlier.userNanoseconds,
            systemNanoseconds: systemNanoseconds &- earlier.systemNanoseconds,
            voluntaryContextSwitches: voluntaryContextSwitches - earlier.voluntaryContextSwitches,
            involuntaryContextSwitches: involuntaryContextSwitches - earlier.involuntaryContextSwitches
        )
    }
}
