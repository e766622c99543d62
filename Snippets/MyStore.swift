import DispatchBench
import Synchronization

final class MyStore: LockStore {
    private let entries: Mutex<[String: IdentityModel]>

    init(preloading models: [IdentityModel]) {
        entries = Mutex(Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    func read(_ id: String) -> IdentityModel? { entries.withLock { $0[id] } }

    func write(_ model: IdentityModel) { entries.withLock { $0[model.id] = model } }
}

DispatchBench.main([
    .lockStore("my-store", MyStore.self),
])
