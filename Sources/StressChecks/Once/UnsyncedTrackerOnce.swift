import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked: a tracker whose check and registration are not one atomic step.
/// `contains` and `insert` each take the lock (so the test process stays memory-safe), but nothing holds it
/// from the check to the registration, and the block runs outside it. Two callers can both see "not yet" and
/// both run the block, and a caller that arrives after the registration returns while the block is still
/// running.
///
/// The repeated run is caught in every race of two or more threads, at any speed: a caller that saw "not yet"
/// registers only once a second caller has seen "not yet" too (`ControlRendezvous`), so both run the block. The
/// early return still needs a caller to arrive while a block runs, which the race's many tokens make likely, not
/// certain; the repeated run alone proves the check's teeth.
package final class UnsyncedTrackerOnce: OnceTable, Sendable {
    private let registered = Mutex<Set<String>>([])
    /// How many callers saw each token unregistered.
    private let sawNotYet = Mutex<[String: Int]>([:])

    package static func makeTable(tokens: Int) -> UnsyncedTrackerOnce {
        UnsyncedTrackerOnce()
    }

    package func once(token: String, block: () -> Void) {
        if registered.withLock({ $0.contains(token) }) { return }
        sawNotYet.withLock { $0[token, default: 0] += 1 }
        ControlRendezvous.wait { sawNotYet.withLock { $0[token, default: 0] } >= 2 }
        registered.withLock { _ = $0.insert(token) }
        block()
    }
}
