/// `pthread-mutex-adaptive`: the dictionary behind a `pthread_mutex_t` of glibc's type `PTHREAD_MUTEX_ADAPTIVE_NP`:
/// a lock that spins a little, then sleeps, known by construction (apple/swift-nio#2014 measured it against a plain
/// mutex in swift-nio's lock benchmark).
///
/// glibc takes a free lock with one compare-and-swap in user space. A thread that finds it held first retries in
/// user space, with the processor's spin-wait hint, for a bounded number of rounds (at most the
/// `glibc.mutex.spin_count` tunable, 100 by default, adapted per mutex to how long recent spins needed); only when
/// that fails does it sleep in `futex(FUTEX_WAIT)`, as `pthread-mutex` does at once, and an unlock wakes one
/// sleeper, which races for the lock (barging). A short critical section held by a running thread is thus usually
/// waited for by spinning, a long one or a preempted holder by sleeping.
///
/// Thread-safe; `entries` is touched only while the mutex is held. A write has been applied when `write` returns.
@usableFromInline
package final class PthreadMutexAdaptiveStore: ExclusiveLockStore, @unchecked Sendable {
    @usableFromInline let mutex = PthreadMutex(.adaptive)
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
