import SyncVariants
import Testing

/// The isolation family's variants as the tests see them, by CSV id.
enum IsolationVariant: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case serialSync = "serial-sync"
    case serialAsyncWrite = "serial-async-write"
    case concurrentBarrierAsync = "concurrent-barrier-async"
    case concurrentBarrierSync = "concurrent-barrier-sync"
    case nslock
    case mutex
    case rwlock
    case actor

    var testDescription: String { rawValue }

    /// The variants built on a dispatch queue, which accept a `QueueBlockProbe`.
    static let queueBased: [IsolationVariant] = [.serialSync, .serialAsyncWrite, .concurrentBarrierAsync,
                                                 .concurrentBarrierSync]

    /// Whether `write` returns before the write is applied.
    var writesAsynchronously: Bool { self == .serialAsyncWrite || self == .concurrentBarrierAsync }

    /// Whether reads may run beside each other (a concurrent queue).
    var readsConcurrently: Bool { self == .concurrentBarrierAsync || self == .concurrentBarrierSync }

    /// A store of this variant holding `models`; the actor behind a blocking bridge so that the same checks
    /// drive it from threads.
    func makeStore(preloading models: [IdentityModel]) -> any IsolatedStore {
        switch self {
        case .nslock: NSLockStore(preloading: models)
        case .mutex: MutexStore(preloading: models)
        case .rwlock: RWLockStore(preloading: models)
        case .actor: ActorStoreBridge(ActorStore(preloading: models))
        default: makeProbedStore(preloading: models, probe: nil)
        }
    }

    /// A queue-based store with a probe in its blocks. Traps for the other variants.
    func makeProbedStore(preloading models: [IdentityModel], probe: (any QueueBlockProbe)?) -> any IsolatedStore {
        switch self {
        case .serialSync: SerialSyncStore(preloading: models, probe: probe)
        case .serialAsyncWrite: SerialAsyncWriteStore(preloading: models, probe: probe)
        case .concurrentBarrierAsync: ConcurrentBarrierAsyncStore(preloading: models, probe: probe)
        case .concurrentBarrierSync: ConcurrentBarrierSyncStore(preloading: models, probe: probe)
        default: preconditionFailure("\(rawValue) is not built on a dispatch queue")
        }
    }
}
