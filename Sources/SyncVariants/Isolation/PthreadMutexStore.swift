/// `pthread-mutex`: the dictionary behind a plain `pthread_mutex_t` with default attributes
/// (`PTHREAD_MUTEX_NORMAL`): a lock that sleeps in the kernel when it is taken, and never spins, known by
/// construction.
///
/// glibc takes it with one compare-and-swap in user space; a thread that finds it held marks it contended and
/// sleeps in `futex(FUTEX_WAIT)` at once, and the holder's unlock wakes one sleeper (`FUTEX_WAKE`), which must then
/// race for the lock with any thread that arrives meanwhile (barging, not a queue). So a contended lock costs system
/// calls and context switches on both sides, and a thread that releases and retakes it at once usually wins.
///
/// Thread-safe; `entries` is touched only while the mutex is held. A write has been applied when `write` returns.
@usableFromInline
package final class PthreadMutexStore: ExclusiveLockStore, @unchecked Sendable {
    @usableFromInline let mutex = PthreadMutex(.normal)
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
