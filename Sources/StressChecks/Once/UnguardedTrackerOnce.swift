import Synchronization
import SyncVariants

/// RACY NEGATIVE CONTROL, never benchmarked: the seed's `DispatchQueue.once(token:)` with its lock taken out, as
/// people copy it: `if tracker.contains(token) { return }`, then `tracker.append(token)`, then the block. Each
/// single access is locked (so the test process stays memory-safe), but nothing holds the lock from the check to
/// the set: two callers that check before either sets both run the block, and a caller that checks after the set
/// returns while the block is still running.
///
/// Unlike `UnsyncedTrackerOnce`, nothing here waits for a partner: whether a race shows depends on when the
/// callers meet, as it does in code people write. The race check's power against it is measured, not promised
/// (`StressCatalog.onceRacePower`).
package final class UnguardedTrackerOnce: OnceTable, Sendable {
    private let registered = Mutex<Set<String>>([])

    package static func makeTable(tokens: Int) -> UnguardedTrackerOnce {
        UnguardedTrackerOnce()
    }

    package func once(token: String, block: () -> Void) {
        if registered.withLock({ $0.contains(token) }) { return }
        registered.withLock { _ = $0.insert(token) }
        block()
    }
}
