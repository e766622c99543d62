import SyncVariants
import VariantCatalog

extension IsolationVariant {
    /// The queue-based variants, which accept a `QueueBlockProbe`.
    package static let queueBased = allCases.filter(\.isQueueBased)

    /// A store of this variant holding `models`; the actor behind a blocking bridge, so that the same checks
    /// drive every variant from threads.
    package func makeStore(preloading models: [IdentityModel]) -> any IsolatedStore {
        accept(StoreFactory(models: models))
    }

    /// How to make a store of this variant with a probe in its blocks; nil for the variants without a queue.
    package var probedStoreFactory: (@Sendable (_ models: [IdentityModel], _ probe: any QueueBlockProbe) -> any IsolatedStore)? {
        accept(ProbedStoreFactory())
    }

    /// How to make the variant's bare lock (a store of it, holding nothing), for the mutual-exclusion check; nil
    /// for the variants whose lock cannot be taken on its own.
    package var lockFactory: (@Sendable () -> any ExclusiveLock)? {
        accept(LockFactory())
    }
}

private struct StoreFactory: IsolationVariantVisitor {
    package let models: [IdentityModel]

    package func queueStore<Store: QueueStore>(_: Store.Type) -> any IsolatedStore { Store(preloading: models, probe: nil) }
    package func lockStore<Store: LockStore>(_: Store.Type) -> any IsolatedStore { Store(preloading: models) }
    package func actor(_: ActorStore.Type) -> any IsolatedStore { ActorStoreBridge(ActorStore(preloading: models)) }
}

private struct ProbedStoreFactory: IsolationVariantVisitor {
    package typealias Output = (@Sendable ([IdentityModel], any QueueBlockProbe) -> any IsolatedStore)?

    package func queueStore<Store: QueueStore>(_: Store.Type) -> Output { { Store(preloading: $0, probe: $1) } }
    package func lockStore<Store: LockStore>(_: Store.Type) -> Output { nil }
    package func actor(_: ActorStore.Type) -> Output { nil }
}

private struct LockFactory: IsolationVariantVisitor {
    package typealias Output = (@Sendable () -> any ExclusiveLock)?

    package func queueStore<Store: QueueStore>(_: Store.Type) -> Output { nil }
    package func lockStore<Store: LockStore>(_: Store.Type) -> Output { nil }
    package func exclusiveLockStore<Store: ExclusiveLockStore>(_: Store.Type) -> Output { { Store(preloading: []) } }
    package func actor(_: ActorStore.Type) -> Output { nil }
}
