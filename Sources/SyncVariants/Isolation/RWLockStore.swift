import CSyncSupport

/// `rwlock`: the dictionary behind a `pthread_rwlock_t`: reads take the read lock (several at once), writes the
/// write lock (alone). The lock lives at a stable heap address, as pthread requires; it is never moved or
/// copied, and is destroyed with the store.
///
/// Thread-safe; `entries` is read only under the read or write lock and written only under the write lock.
/// A write has been applied when `write` returns. glibc's default rwlock prefers readers, so a steady stream of
/// readers can delay a writer. `withLock` takes the write lock: the lock alone, as exclusive as a mutex.
@usableFromInline
package final class RWLockStore: ExclusiveLockStore, @unchecked Sendable {
    @usableFromInline let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var entries: [String: IdentityModel]

    /// A store holding `models`.
    @usableFromInline
    package init(preloading models: [IdentityModel] = []) {
        entries = Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        let status = pthread_rwlock_init(lock, nil)
        precondition(status == 0, "pthread_rwlock_init failed: \(status)")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    @usableFromInline
    package func read(_ id: String) -> IdentityModel? {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return entries[id]
    }

    @usableFromInline
    package func write(_ model: IdentityModel) {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        entries[model.id] = model
    }

    /// Runs `body` with the write lock held, without touching the dictionary.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
