import CSyncSupport

/// A `pthread_mutex_t` of one of glibc's kinds: the lock inside the `pthread-mutex*` stores, which differ only in
/// how their mutex waits (each store's documentation says how).
///
/// The mutex lives at a stable heap address, as pthread requires; it is never moved or copied, and is destroyed
/// with this object. Thread-safe: `withLock` runs its body while no other `withLock` of the same mutex runs its own.
@usableFromInline
package final class PthreadMutex: ExclusiveLock, @unchecked Sendable {
    /// How a thread that finds the mutex held waits.
    @usableFromInline
    package enum Kind: Sendable {
        /// Default attributes (`PTHREAD_MUTEX_NORMAL`): sleeps in `futex(FUTEX_WAIT)` at once.
        case normal
        /// `PTHREAD_PRIO_INHERIT`: waits in the kernel's queue (`FUTEX_LOCK_PI`), which hands the lock over.
        case priorityInheritance
        /// `PTHREAD_MUTEX_ADAPTIVE_NP`: spins a bounded while in user space, then sleeps.
        case adaptive
    }

    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A mutex of `kind`; traps when pthread refuses the attributes (a libc without them).
    @usableFromInline
    package init(_ kind: Kind) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        switch kind {
        case .normal:
            break
        case .priorityInheritance:
            let status = pthread_mutexattr_setprotocol(&attributes, Int32(PTHREAD_PRIO_INHERIT))
            precondition(status == 0, "pthread_mutexattr_setprotocol(PTHREAD_PRIO_INHERIT) failed: \(status)")
        case .adaptive:
            let status = pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
            precondition(status == 0, "pthread_mutexattr_settype(PTHREAD_MUTEX_ADAPTIVE_NP) failed: \(status)")
        }
        let status = pthread_mutex_init(mutex, &attributes)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
