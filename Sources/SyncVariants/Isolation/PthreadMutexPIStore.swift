/// `pthread-mutex-pi`: the dictionary behind a `pthread_mutex_t` made with
/// `pthread_mutexattr_setprotocol(PTHREAD_PRIO_INHERIT)`: a lock handed from owner to waiter by the kernel, the
/// mechanism of a *convoy*, known by construction.
///
/// The lock word holds the owner's thread id. glibc takes a free lock with one compare-and-swap in user space; a
/// thread that finds it held calls `futex(FUTEX_LOCK_PI)` at once, without spinning in user space, and waits in
/// the kernel's queue of waiters (ordered by priority, then arrival); an unlock that finds waiters calls
/// `FUTEX_UNLOCK_PI`, and the kernel writes the first waiter's id into the word: the lock passes to a waiting
/// thread and stays held until that thread runs again. A thread that releases and retakes the lock at once queues
/// behind it (no barging). Under contention every operation is thus a system call and a context switch, paid one
/// after another: this is the kernel mechanism that Swift 6.3.1's `Synchronization.Mutex` uses on Linux when its
/// short spin fails (swiftlang/swift#88440), here without that spin.
///
/// Thread-safe; `entries` is touched only while the mutex is held. A write has been applied when `write` returns.
@usableFromInline
package final class PthreadMutexPIStore: ExclusiveLockStore, @unchecked Sendable {
    @usableFromInline let mutex = PthreadMutex(.priorityInheritance)
    private var entries: [String: IdentityModel]

    /// A store holding `models`.
    @usableFromInline
    package init(preloading models: [IdentityModel] = []) {
        entries = Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    @usableFromInline
    package func read(_ id: String) -> IdentityModel? {
        withLock { entries[id] }
    }

    @usableFromInline
    package func write(_ model: IdentityModel) {
        withLock { entries[model.id] = model }
    }

    /// Runs `body` with the mutex held.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try mutex.withLock(body)
    }
}
