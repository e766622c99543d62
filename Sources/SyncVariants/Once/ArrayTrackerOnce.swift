/// `array-tracker`: the seed's `DispatchQueue.once(token:block:)`, a `[String]` of the tokens whose block has
/// run, searched with `contains` and extended with `append`, with the block run while the lock is held.
///
/// The seed locks with `objc_sync_enter(self)`, which does not exist on Linux; `RecursiveMutex` (a recursive
/// pthread mutex, which is what objc_sync is) stands in for it. Unlike the seed, the tracker is an instance
/// rather than a static, so that each use (and each benchmark case) starts from its own empty table; the
/// shape is otherwise the seed's, including its cost: a hit searches the array linearly, so it grows with the
/// number of tokens registered before the one looked up.
///
/// Thread-safe: every access to the array happens under the lock, and the block runs under it too, so no
/// caller returns before the block has. Because the lock is recursive, a block may call `once` for another
/// token; a block that calls `once` for its own token returns at once without waiting for itself, as in the
/// seed. Blocks of different tokens never run at the same time.
@usableFromInline
package final class ArrayTrackerOnce: OnceTable, @unchecked Sendable {
    @usableFromInline let lock = RecursiveMutex()
    /// Guarded by `lock`.
    @usableFromInline var tracker: [String] = []

    @usableFromInline
    package init() {}

    @usableFromInline
    package static func makeTable(tokens: Int) -> ArrayTrackerOnce {
        ArrayTrackerOnce()
    }

    @inlinable
    package func once(token: String, block: () -> Void) {
        lock.withLock {
            if tracker.contains(token) { return }
            tracker.append(token)
            block()
        }
    }
}
