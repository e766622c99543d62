import SyncVariants
import VariantCatalog

extension IsolationVariant {
    /// The queue-based variants, which accept a `QueueBlockProbe`.
    static let queueBased = allCases.filter(\.isQueueBased)

    /// A store of this variant holding `models`; the actor behind a blocking bridge, so that the same checks
    /// drive every variant from threads.
    func makeStore(preloading models: [IdentityModel]) -> any IsolatedStore {
        accept(StoreFactory(models: models))
    }

    /// How to make a store of this variant with a probe in its blocks; nil for the variants without a queue.
    var probedStoreFactory: (@Sendable (_ models: [IdentityModel], _ probe: any QueueBlockProbe) -> any IsolatedStore)? {
        accept(ProbedStoreFactory())
    }
}

private struct StoreFactory: IsolationVariantVisitor {
    let models: [IdentityModel]

    func queueStore<Store: QueueStore>(_: Store.Type) -> any IsolatedStore { Store(preloading: models, probe: nil) }
    func lockStore<Store: LockStore>(_: Store.Type) -> any IsolatedStore { Store(preloading: models) }
    func actor(_: ActorStore.Type) -> any IsolatedStore { ActorStoreBridge(ActorStore(preloading: models)) }
}

private struct ProbedStoreFactory: IsolationVariantVisitor {
    typealias Output = (@Sendable ([IdentityModel], any QueueBlockProbe) -> any IsolatedStore)?

    func queueStore<Store: QueueStore>(_: Store.Type) -> Output { { Store(preloading: $0, probe: $1) } }
    func lockStore<Store: LockStore>(_: Store.Type) -> Output { nil }
    func actor(_: ActorStore.Type) -> Output { nil }
}
