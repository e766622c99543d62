import BenchPlatform

/// Where threads' time went during a sample, summed over the threads: on a CPU, waiting on a run queue for one,
/// and how often they were switched in. What is left of `threads` × the sample's wall time is time they were
/// blocked (asleep in a lock, a futex, a queue); the analysis derives it, in one place.
///
/// Unlike the process's user and system split (`ResourceUsage`, sampled at each scheduler tick), these are
/// counted by the kernel at each switch, per thread: exact to the nanosecond up to a thread's current wait for a
/// CPU (`ThreadScheduleReader`).
package struct ThreadSchedule: Sendable, Equatable {
    /// How many threads the figures sum.
    package var threads: Int
    /// Nanoseconds on a CPU.
    package var runningNanoseconds: UInt64
    /// Nanoseconds runnable but waiting on a run queue for a CPU (more runnable threads than CPUs, here or in
    /// another process).
    package var runQueueNanoseconds: UInt64
    /// Times switched in: after each sleep, and after each preemption.
    package var switchesIn: UInt64

    package init(threads: Int, runningNanoseconds: UInt64, runQueueNanoseconds: UInt64, switchesIn: UInt64) {
        self.threads = threads
        self.runningNanoseconds = runningNanoseconds
        self.runQueueNanoseconds = runQueueNanoseconds
        self.switchesIn = switchesIn
    }

    /// One thread's figures as read.
    init(_ reading: ThreadScheduleReading) {
        self.init(threads: 1, runningNanoseconds: reading.runningNanoseconds,
                  runQueueNanoseconds: reading.runQueueNanoseconds, switchesIn: reading.switchesIn)
    }

    /// What one thread did between `earlier` and `self`, two readings of it.
    func since(_ earlier: ThreadSchedule) -> ThreadSchedule {
        ThreadSchedule(threads: threads, runningNanoseconds: runningNanoseconds &- earlier.runningNanoseconds,
                       runQueueNanoseconds: runQueueNanoseconds &- earlier.runQueueNanoseconds,
                       switchesIn: switchesIn &- earlier.switchesIn)
    }

    /// The figures of several threads, summed; nil for none.
    static func sum(_ schedules: [ThreadSchedule]) -> ThreadSchedule? {
        guard !schedules.isEmpty else { return nil }
        return ThreadSchedule(threads: schedules.reduce(0) { $0 + $1.threads },
                              runningNanoseconds: schedules.reduce(0) { $0 + $1.runningNanoseconds },
                              runQueueNanoseconds: schedules.reduce(0) { $0 + $1.runQueueNanoseconds },
                              switchesIn: schedules.reduce(0) { $0 + $1.switchesIn })
    }
}

/// Reads every thread of a team at once, as a sample opens and as it closes: one reading per thread, in thread
/// order. Not thread-safe: the coordinator reads.
final class TeamScheduleReader {
    private let readers: [ThreadScheduleReader]?

    /// A reader of the threads with `identities`, or one that reads nothing when any of them cannot be read (a
    /// sample then records no split rather than a part of one).
    init(_ identities: [ThreadIdentity?]) {
        let readers = identities.compactMap { $0.flatMap(ThreadScheduleReader.init) }
        self.readers = readers.count == identities.count ? readers : nil
    }

    /// Each thread's figures now, in thread order; nil when they cannot all be read.
    func read() -> [ThreadSchedule]? {
        guard let readers else { return nil }
        var readings: [ThreadSchedule] = []
        readings.reserveCapacity(readers.count)
        for reader in readers {
            guard let reading = reader.read() else { return nil }
            readings.append(ThreadSchedule(reading))
        }
        return readings
    }

    /// What each thread did between the readings `start` and `end` (nil when either is).
    static func difference(_ start: [ThreadSchedule]?, _ end: [ThreadSchedule]?) -> [ThreadSchedule]? {
        guard let start, let end, start.count == end.count else { return nil }
        return zip(end, start).map { $0.since($1) }
    }
}
