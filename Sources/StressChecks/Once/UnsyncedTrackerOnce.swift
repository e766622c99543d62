import Synchronization
import SyncVariants
#if canImport(Glibc)
import Glibc
#endif

/// NEGATIVE CONTROL, never benchmarked: a tracker whose check and registration are not one atomic step.
/// `contains` and `insert` each take the lock (so the test process stays memory-safe), but nothing holds it
/// from the check to the registration, and the block runs outside it. Two callers can both see "not yet" and
/// both run the block, and a caller that arrives after the registration returns while the block is still
/// running. The stress checks must catch both; a yield between check and registration widens the window.
package final class UnsyncedTrackerOnce: OnceTable, Sendable {
    private let registered = Mutex<Set<String>>([])

    package static func makeTable(tokens: Int) -> UnsyncedTrackerOnce {
        UnsyncedTrackerOnce()
    }

    package func once(token: String, block: () -> Void) {
        if registered.withLock({ $0.contains(token) }) { return }
        sched_yield()
        registered.withLock { _ = $0.insert(token) }
        block()
    }
}
