import DispatchBench
import Synchronization

/// `mutex-outside`: the built-in `mutex` store's code, compiled in this package: the dictionary inside a
/// `Synchronization.Mutex`, which owns it. The factories are `@inlinable`, so it should measure as `mutex` does;
/// a gap between the two would be the door's cost, not the lock's.
///
/// Its lock can be taken on its own (`ExclusiveLockStore`), so it also joins `isolation/counter` and the
/// mutual-exclusion check, as `mutex` does.
final class MutexDictionary: ExclusiveLockStore, Sendable {
    let entries: Mutex<[String: IdentityModel]>

    init(preloading models: [IdentityModel]) {
        entries = Mutex(Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    func read(_ id: String) -> IdentityModel? {
        entries.withLock { $0[id] }
    }

    func write(_ model: IdentityModel) {
        entries.withLock { $0[model.id] = model }
    }

    /// Runs `body` with the mutex held, without touching the dictionary.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try entries.withLock { _ in try body() }
    }
}
