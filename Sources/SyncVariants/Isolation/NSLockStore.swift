import Foundation

/// `nslock`: the dictionary behind a Foundation `NSLock` (a pthread mutex on Linux), for reads and writes alike.
///
/// Thread-safe; `entries` is touched only while `lock` is held. A write has been applied when `write` returns.
@usableFromInline
package final class NSLockStore: ExclusiveLockStore, @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    private var entries: [String: IdentityModel]

    /// A store holding `models`.
    @usableFromInline
    package init(preloading models: [IdentityModel] = []) {
        entries = Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    @usableFromInline
    package func read(_ id: String) -> IdentityModel? {
        lock.lock()
        defer { lock.unlock() }
        return entries[id]
    }

    @usableFromInline
    package func write(_ model: IdentityModel) {
        lock.lock()
        defer { lock.unlock() }
        entries[model.id] = model
    }

    /// Runs `body` with the lock held, without touching the dictionary.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
