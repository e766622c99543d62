import DispatchBench
import Synchronization

/// Deliberately broken: a copy-on-write store that takes the lock to copy the dictionary and again to publish
/// its changed copy, but not across the two. Every single access is locked, so it never crashes; but two writers
/// that copy before either publishes lose one write, and a writer can have its own write undone before it reads
/// it back. `bench stress` reports both.
final class CopyPublishStore: LockStore {
    private let entries: Mutex<[String: IdentityModel]>

    init(preloading models: [IdentityModel]) {
        entries = Mutex(Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    func read(_ id: String) -> IdentityModel? {
        entries.withLock { $0[id] }
    }

    func write(_ model: IdentityModel) {
        var copy = entries.withLock { $0 }
        copy[model.id] = model
        entries.withLock { $0 = copy }
    }
}
