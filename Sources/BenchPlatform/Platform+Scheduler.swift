import CBenchPlatform
#if os(Linux)
import Glibc
#else
import Darwin
#endif

/// How another thread finds one thread's scheduler figures: its kernel id and its CPU-time clock. Taken on the
/// thread itself (`Platform.currentThreadIdentity()`).
package struct ThreadIdentity: Sendable, Equatable {
    /// The kernel's id of the thread (gettid): its entry in `/proc/self/task`.
    package var threadID: Int32
    /// The thread's CPU-time clock (pthread_getcpuclockid).
    package var cpuClock: clockid_t

    package init(threadID: Int32, cpuClock: clockid_t) {
        self.threadID = threadID
        self.cpuClock = cpuClock
    }
}

/// One thread's scheduler figures so far, each a count since the thread started.
package struct ThreadScheduleReading: Sendable, Equatable {
    /// Nanoseconds the thread ran on a CPU.
    package var runningNanoseconds: UInt64
    /// Nanoseconds the thread was runnable but waited on a run queue for a CPU.
    package var runQueueNanoseconds: UInt64
    /// Times the thread was switched in (after a sleep or a preemption).
    package var switchesIn: UInt64
}

extension Platform {
    /// The calling thread's identity, for another thread to read its figures by; nil where there is none to
    /// read (not Linux: `PlatformFeature.schedulerStatistics`).
    package static func currentThreadIdentity() -> ThreadIdentity? {
        var threadID: Int32 = 0
        var clock = clockid_t()
        guard platform_current_thread_identity(&threadID, &clock) == 0 else { return nil }
        return ThreadIdentity(threadID: threadID, cpuClock: clock)
    }
}

/// Reads one thread's scheduler figures, from any thread of the process, as often as asked: the run-queue time
/// and switches in from the kernel's `/proc/self/task/<id>/schedstat` (opened once, read again from its start
/// each time), and the time on a CPU from the thread's CPU-time clock, which is exact to the call where
/// schedstat's own is brought up to date only at a tick or a switch (up to 4 ms late on a 250 Hz kernel).
///
/// A reading costs two system calls and no allocation (a few microseconds). The run-queue time of a thread that
/// is waiting for a CPU as it is read counts that wait only once the thread runs: a reading is exact up to the
/// thread's current wait. Not thread-safe: one reader per thread of use.
package final class ThreadScheduleReader {
    private let descriptor: Int32
    private let cpuClock: clockid_t

    /// A reader of `identity`'s thread; nil where its schedstat cannot be opened (not Linux, no procfs, a
    /// kernel without scheduler statistics, the thread gone) or reads no figures.
    package init?(_ identity: ThreadIdentity) {
        let descriptor = platform_thread_schedule_open(identity.threadID)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        cpuClock = identity.cpuClock
        // Returning nil runs deinit, which closes the descriptor (closing it here too closed it twice).
        guard read() != nil else { return nil }
    }

    deinit {
        close(descriptor)
    }

    /// The thread's figures now, or nil when they cannot be read (the thread has ended).
    package func read() -> ThreadScheduleReading? {
        var figures = platform_thread_schedule()
        guard platform_thread_schedule_read(descriptor, cpuClock, &figures) == 0 else { return nil }
        return ThreadScheduleReading(runningNanoseconds: figures.running_ns, runQueueNanoseconds: figures.runqueue_ns,
                                     switchesIn: figures.switches_in)
    }
}
