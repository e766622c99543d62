import Synchronization

/// `mutex`: the dictionary inside a `Synchronization.Mutex` (a futex-based lock on Linux), which owns it, so the
/// compiler rather than a comment says what guards it.
///
/// Thread-safe. A write has been applied when `write` returns.
public final class MutexStore: LockStore, Sendable {
    private let entries: Mutex<[String: IdentityModel]>

    /// A store holding `models`.
    public init(preloading models: [IdentityModel] = []) {
        entries = Mutex(Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    public func read(_ id: String) -> IdentityModel? {
        entries.withLock { $0[id] }
    }

    public func write(_ model: IdentityModel) {
        entries.withLock { $0[model.id] = model }
    }
}
