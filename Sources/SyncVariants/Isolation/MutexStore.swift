import Synchronization

/// `mutex`: the dictionary inside a `Synchronization.Mutex` (a futex-based lock on Linux), which owns it, so the
/// compiler rather than a comment says what guards it.
///
/// In Swift 6.3.1 on Linux the lock word holds the owner's thread id: a thread takes a free lock with one
/// compare-and-swap, retries a held one in user space for about a thousand spin-wait hints, and then waits in
/// `futex(FUTEX_LOCK_PI)`, the priority-inheritance futex, whose unlock hands the lock to the first waiter in the
/// kernel (as `pthread-mutex-pi` does without the spin; swiftlang/swift#88440). Later toolchains may change this.
///
/// Thread-safe. A write has been applied when `write` returns.
@usableFromInline
package final class MutexStore: ExclusiveLockStore, Sendable {
    @usableFromInline let entries: Mutex<[String: IdentityModel]>

    /// A store holding `models`.
    @usableFromInline
    package init(preloading models: [IdentityModel] = []) {
        entries = Mutex(Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    @usableFromInline
    package func read(_ id: String) -> IdentityModel? {
        entries.withLock { $0[id] }
    }

    @usableFromInline
    package func write(_ model: IdentityModel) {
        entries.withLock { $0[model.id] = model }
    }

    /// Runs `body` with the mutex held, without touching the dictionary.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try entries.withLock { _ in try body() }
    }
}
