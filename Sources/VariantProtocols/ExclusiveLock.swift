/// A lock whose critical section is a closure. What DispatchBench's `Variant.lock(_:_:)` needs of a lock a package
/// brings.
///
/// Conforming types promise that `withLock` runs `body` while no other call of `withLock` on the same lock runs
/// its body, and returns `body`'s result, and that a lock is usable from any thread (`Sendable`). swift-nio's
/// `NIOLock` and Foundation's `NSLock` already have the member: conform them with an empty extension.
public protocol ExclusiveLock: Sendable {
    /// Runs `body` with the lock held, and returns its result.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result
}

/// The isolation suite's dictionary (`[String: IdentityModel]`) guarded by a lock you bring: what
/// `Variant.lock(_:_:)` measures, the same store the built-in `mutex` is with `Synchronization.Mutex`.
///
/// Thread-safe as far as `Lock` keeps its promise (a broken lock shows as lost writes and torn reads in `bench
/// stress`). A write has been applied when `write` returns. `@inlinable`, so that a timed loop in your module calls
/// your lock directly.
public final class LockedStore<Lock: ExclusiveLock>: IsolatedStore, @unchecked Sendable {
    @usableFromInline let lock: Lock
    @usableFromInline var entries: [String: IdentityModel]

    /// A store holding `models`, guarded by `lock`, which nothing else may use.
    @inlinable
    public init(lock: Lock, preloading models: [IdentityModel]) {
        self.lock = lock
        entries = Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    @inlinable
    public func read(_ id: String) -> IdentityModel? {
        lock.withLock { entries[id] }
    }

    @inlinable
    public func write(_ model: IdentityModel) {
        lock.withLock { entries[model.id] = model }
    }
}
