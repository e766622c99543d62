import Atomics
import DispatchBench

/// A test-and-test-and-set spin lock on swift-atomics' `ManagedAtomic<Bool>`: a waiter reads the flag until it
/// looks free, then tries to take it with one compare-and-exchange. It never blocks in the kernel, so under
/// contention it spends CPU rather than context switches: a lock whose mechanism is known by construction.
///
/// Keeps `ExclusiveLock`'s promise: `withLock` runs its body only while holding the flag, which acquiring
/// ordering on the exchange and releasing ordering on the store make a critical section.
final class TTASLock: ExclusiveLock {
    private let held = ManagedAtomic(false)

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        while true {
            // Test: spin on a plain load, which keeps the cache line shared while the lock is held.
            while held.load(ordering: .relaxed) {}
            // Test-and-set: one exchange once it looks free.
            if held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { break }
        }
        defer { held.store(false, ordering: .releasing) }
        return try body()
    }
}
