import DispatchBench

actor MyActorStore: ActorIsolatedStore {
    private var entries: [String: IdentityModel]

    init(preloading models: [IdentityModel]) {
        entries = Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    func read(_ id: String) -> IdentityModel? { entries[id] }

    func write(_ model: IdentityModel) { entries[model.id] = model }
}

DispatchBench.main([
    .actorStore("my-actor", MyActorStore.self),
])
