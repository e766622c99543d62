import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked: a store whose writes are not applied whole, which the lost-write, torn-read
/// and read-your-writes checks must catch.
///
/// A truly unsynchronized `Dictionary` written from two threads corrupts memory and crashes the test process
/// instead of failing a check, so this store keeps each single access to the map memory-safe (behind a mutex)
/// and breaks the model instead, as a store that copies a model field by field and publishes before the copy is
/// done: a write publishes the new `value` and leaves the `check` it found.
///
/// Caught by each check in every run, at any speed and on any number of threads: the last model written to a
/// key is never the one the store holds (a lost write), a read of a key written since the preload finds
/// `value` and `check` disagreeing (a torn read), and a writer that reads its key straight back does not find
/// what it wrote (read your writes).
package final class RacyStore: LockStore {
    private let published: Mutex<[String: IdentityModel]>

    package init(preloading models: [IdentityModel]) {
        published = Mutex(Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    package func read(_ id: String) -> IdentityModel? {
        published.withLock { $0[id] }
    }

    package func write(_ model: IdentityModel) {
        published.withLock { map in
            var halfWritten = map[model.id] ?? IdentityModel(id: model.id, value: ~0)
            halfWritten.value = model.value
            map[model.id] = halfWritten
        }
    }
}
