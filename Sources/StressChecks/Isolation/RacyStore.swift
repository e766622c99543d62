import Synchronization
import SyncVariants
#if canImport(Glibc)
import Glibc
#endif

/// NEGATIVE CONTROL, never benchmarked: a store whose writes are not isolated, which the lost-write, torn-read
/// and read-your-writes checks must catch.
///
/// A truly unsynchronized `Dictionary` written from two threads corrupts memory and crashes the test process
/// instead of failing a check, so this store keeps each single access to the map memory-safe (behind a mutex)
/// and breaks isolation the way racy code does: a write copies the map, changes its copy field by field and
/// publishes it in two steps, with a yield between them to widen the race. Concurrent writers therefore publish
/// stale copies over each other's writes (lost writes, and a writer's own write undone before it reads it back),
/// and readers see the half-written model between the two steps (a torn read).
package final class RacyStore: IsolatedStore {
    private let published: Mutex<[String: IdentityModel]>

    package init(preloading models: [IdentityModel]) {
        published = Mutex(Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    package func read(_ id: String) -> IdentityModel? {
        published.withLock { $0[id] }
    }

    package func write(_ model: IdentityModel) {
        var copy = published.withLock { $0 }
        var halfWritten = copy[model.id] ?? IdentityModel(id: model.id, value: 0)
        halfWritten.value = model.value
        copy[model.id] = halfWritten
        published.withLock { $0 = copy }
        sched_yield()
        copy[model.id] = model
        published.withLock { $0 = copy }
    }
}
