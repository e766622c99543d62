import Synchronization
import SyncVariants

/// RACY NEGATIVE CONTROL, never benchmarked: a copy-on-write store that takes its lock to copy the dictionary
/// and again to publish its changed copy, but not across the two, as people write when they keep the lock "short".
/// Every single access is locked, so it never crashes; but two writers that copy before either publishes lose one
/// write.
///
/// Unlike `RacyStore`, it is broken only when writers meet: at one thread it is a correct store. Whether a race
/// shows depends on when the writers meet, as it does in code people write; the lost-write check's power against it
/// is measured, not promised (`StressCatalog.lostWritesPower`).
package final class CopyOutsideLockStore: LockStore {
    private let entries: Mutex<[String: IdentityModel]>

    package init(preloading models: [IdentityModel]) {
        entries = Mutex(Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    package func read(_ id: String) -> IdentityModel? {
        entries.withLock { $0[id] }
    }

    package func write(_ model: IdentityModel) {
        var copy = entries.withLock { $0 }
        copy[model.id] = model
        entries.withLock { $0 = copy }
    }
}
