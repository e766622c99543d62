/// `set-tracker`: the seed's tracker with a `Set<String>` instead of an array: the same lock (a recursive
/// mutex standing in for `objc_sync_enter`, see `RecursiveMutex`), the same `contains` then insert, the block
/// run while the lock is held.
///
/// A hit costs one hash of the token (Swift's seeded SipHash over all its bytes) and, on a match, one string
/// comparison, whatever the number of tokens registered. Thread-safety and nesting are as for
/// `ArrayTrackerOnce`.
@usableFromInline
package final class SetTrackerOnce: OnceTable, @unchecked Sendable {
    @usableFromInline let lock = RecursiveMutex()
    /// Guarded by `lock`.
    @usableFromInline var tracker: Set<String> = []

    @usableFromInline
    package init() {}

    @usableFromInline
    package static func makeTable(tokens: Int) -> SetTrackerOnce {
        SetTrackerOnce()
    }

    @inlinable
    package func once(token: String, block: () -> Void) {
        lock.withLock {
            if tracker.contains(token) { return }
            tracker.insert(token)
            block()
        }
    }
}
