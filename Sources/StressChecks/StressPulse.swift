import Synchronization

/// Operations completed by stress-check threads anywhere in this process: each check beats once per operation it
/// completes (a write, a raced token, a round trip, a task). `bench stress`'s watchdog reads it to tell a slow check,
/// whose threads still advance, from a stuck one, whose threads do not: whole iterations say nothing of that when
/// one iteration of a correct FIFO lock at 16 threads on 2 CPUs takes longer than the watchdog.
package enum StressPulse {
    private static let beats = Atomic<Int>(0)

    /// One operation completed. Thread-safe, wait-free.
    package static func beat() {
        beats.wrappingAdd(1, ordering: .relaxed)
    }

    /// Beats so far.
    package static var count: Int { beats.load(ordering: .relaxed) }
}
