import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked: registration is correct (check and insert in one critical section, so
/// each block runs exactly once), but the block runs after the lock is released, so a caller that loses the
/// race returns before the block's effects exist. Only the no-early-return check can catch it.
///
/// The winner runs the block only once a losing caller of the same token has returned (`ControlRendezvous`), so
/// in a race of two or more threads every token has a caller that returned before the block began. That caller
/// reads the block's result the moment it returns, while the block's own first step yields the processor before
/// it writes, so the read comes first in all but a rare preemption; the race's many tokens make that certain in
/// practice. (Whether a read precedes a write on another thread cannot be forced from inside the variant.)
package final class EarlyReturnOnce: OnceTable, Sendable {
    private let registered = Mutex<Set<String>>([])
    /// How many losing callers of each token have returned.
    private let losersReturned = Mutex<[String: Int]>([:])

    package static func makeTable(tokens: Int) -> EarlyReturnOnce {
        EarlyReturnOnce()
    }

    package func once(token: String, block: () -> Void) {
        guard registered.withLock({ $0.insert(token).inserted }) else {
            losersReturned.withLock { $0[token, default: 0] += 1 }
            return
        }
        ControlRendezvous.wait { losersReturned.withLock { $0[token, default: 0] } > 0 }
        block()
    }
}
