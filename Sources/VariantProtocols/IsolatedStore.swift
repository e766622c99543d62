/// An identity map (`[String: IdentityModel]`, the seed's `IdentityMap`) that many threads may read and write
/// at once. Every variant of the isolation family implements it around the same dictionary, so that only the
/// isolation mechanism differs.
///
/// Conforming types are thread-safe: no read ever observes a half-applied write, and no write is lost.
/// Whether a write has been applied when `write` returns depends on the variant: see `AsynchronousWriteStore`.
public protocol IsolatedStore: AnyObject, Sendable {
    /// The model stored under `id`, or nil.
    func read(_ id: String) -> IdentityModel?
    /// Inserts `model` under `model.id`, replacing any model stored there.
    func write(_ model: IdentityModel)
}

/// A store guarded by a lock: built from its preloaded models alone.
public protocol LockStore: IsolatedStore {
    /// A store holding `models`.
    init(preloading models: [IdentityModel])
}

/// A store behind a lock that can be taken on its own: `withLock` runs `body` under the very lock that `read` and
/// `write` take, as they take it, and touches nothing else. `isolation/counter` measures that lock bare, with one
/// shared counter in place of the dictionary; the store is the lock's one home, so the id names one type in both.
public protocol ExclusiveLockStore: LockStore, ExclusiveLock {}

/// A store whose `write` may return before the write is applied (it is enqueued on the store's queue).
///
/// Reads go through the same FIFO queue, so a read issued after `write` returned (by the writer, or by anyone it
/// told) is ordered behind the write and sees it; what the store does not promise is that the write has *run*:
/// anything outside the queue (a side effect, a log, another store) sees it later, and a read may have to wait
/// for every write queued ahead of it.
public protocol AsynchronousWriteStore: IsolatedStore {
    /// Blocks until every write enqueued before the call has been applied.
    func drainWrites()
}
