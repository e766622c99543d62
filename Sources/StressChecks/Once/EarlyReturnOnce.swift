import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked: registration is correct (check and insert in one critical section, so
/// each block runs exactly once), but the block runs after the lock is released, so a caller that loses the
/// race returns before the block's effects exist. Only the no-early-return check can catch it.
package final class EarlyReturnOnce: OnceTable, Sendable {
    private let registered = Mutex<Set<String>>([])

    package static func makeTable(tokens: Int) -> EarlyReturnOnce {
        EarlyReturnOnce()
    }

    package func once(token: String, block: () -> Void) {
        guard registered.withLock({ $0.insert(token).inserted }) else { return }
        block()
    }
}
