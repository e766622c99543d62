import Synchronization

/// `os-lock`: the `Set<String>` tracker guarded by the platform's lowest-level lock instead of a recursive
/// mutex: Swift's `Synchronization.Mutex`, which on Darwin wraps `os_unfair_lock` and on Linux is a lock on a
/// futex word (no pthread layer). Same `contains` then insert as `SetTrackerOnce`, so the two differ only in
/// the lock.
///
/// Thread-safe: the set is only reached inside the mutex and the block runs inside it, so no caller returns
/// before the block has. The mutex is not recursive: a block that calls `once` on the same tracker (for any
/// token) deadlocks, or traps where the platform detects it. Blocks of different tokens never run at the same
/// time.
@usableFromInline
package final class OSLockOnce: OnceTable, Sendable {
    @usableFromInline let tracker = Mutex<Set<String>>([])

    @usableFromInline
    package init() {}

    @usableFromInline
    package static func makeTable(tokens: Int) -> OSLockOnce {
        OSLockOnce()
    }

    @inlinable
    package func once(token: String, block: () -> Void) {
        tracker.withLock { registered in
            if registered.contains(token) { return }
            registered.insert(token)
            block()
        }
    }
}
