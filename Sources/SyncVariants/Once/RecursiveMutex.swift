import CSyncSupport

/// A heap-allocated `pthread_mutex_t` of type `PTHREAD_MUTEX_RECURSIVE`: the Linux stand-in for
/// `objc_sync_enter`/`objc_sync_exit`, which the seed's tracker uses and which is a recursive mutex too.
///
/// Chosen over Foundation's `NSRecursiveLock` because on Linux that class is a wrapper around this very mutex
/// plus a class method call; using pthread directly shows what the lock costs and keeps Foundation out of the
/// variants. The mutex lives at a stable heap address (a pthread mutex must never move). Thread-safe; the
/// thread that locks must unlock, as many times as it locked.
@usableFromInline
final class RecursiveMutex: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` while holding the mutex (which the calling thread may already hold).
    @inlinable @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
