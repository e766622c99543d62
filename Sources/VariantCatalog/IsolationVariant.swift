import SyncVariants

/// The isolation family's catalog: every mechanism `isolation/…` puts around the same identity map, and the stress
/// tests check.
public enum IsolationVariant: String, VariantCatalog {
    case serialSync = "serial-sync"
    case serialAsyncWrite = "serial-async-write"
    case concurrentBarrierAsync = "concurrent-barrier-async"
    case concurrentBarrierSync = "concurrent-barrier-sync"
    case nslock
    case mutex
    case rwlock
    case actor

    /// The isolation suite's benchmarks.
    public enum Benchmark: String, CaseIterable, Hashable, Sendable {
        /// Every thread runs the same mix of reads and writes.
        case mixed
        /// One thread writes while the others read.
        case roles
    }

    public static let suite = "isolation"
    public static let summaryHeading = "reads and writes"

    /// Hands the variant's type to `visitor`, by its shape: the one place an id meets its type.
    @inlinable
    public func accept<Visitor: IsolationVariantVisitor>(_ visitor: Visitor) -> Visitor.Output {
        switch self {
        case .serialSync: visitor.queueStore(SerialSyncStore.self)
        case .serialAsyncWrite: visitor.queueStore(SerialAsyncWriteStore.self)
        case .concurrentBarrierAsync: visitor.queueStore(ConcurrentBarrierAsyncStore.self)
        case .concurrentBarrierSync: visitor.queueStore(ConcurrentBarrierSyncStore.self)
        case .nslock: visitor.lockStore(NSLockStore.self)
        case .mutex: visitor.lockStore(MutexStore.self)
        case .rwlock: visitor.lockStore(RWLockStore.self)
        case .actor: visitor.actor(ActorStore.self)
        }
    }

    public var summary: String {
        switch self {
        case .serialSync: "reads and writes: `sync` on one serial queue"
        case .serialAsyncWrite: "reads: `sync` on a serial queue; writes: `async` on it"
        case .concurrentBarrierAsync: "reads: `sync` on a concurrent queue; writes: `async(flags: .barrier)` (the seeds)"
        case .concurrentBarrierSync: "reads: `sync` on a concurrent queue; writes: `sync(flags: .barrier)`"
        case .nslock: "reads and writes: `NSLock`"
        case .mutex: "reads and writes: `Synchronization.Mutex`"
        case .rwlock: "reads: `pthread_rwlock_rdlock`; writes: `pthread_rwlock_wrlock`"
        case .actor: "reads and writes: awaited actor methods, called from tasks"
        }
    }

    public var typeName: String? { accept(Traits()).typeName }

    /// Every variant guards the same store behind the same API, so every benchmark measures every variant.
    public var benchmarks: [Benchmark] { Benchmark.allCases }

    /// Whether the store is built on a dispatch queue, so that a `QueueBlockProbe` can watch its blocks.
    public var isQueueBased: Bool { accept(Traits()).isQueueBased }

    /// Whether `write` may return before the write is applied (an `AsynchronousWriteStore`).
    public var writesAsynchronously: Bool { accept(Traits()).writesAsynchronously }

    /// Whether reads may run beside each other inside the store's queue (false for the stores without a queue).
    public var readsConcurrently: Bool { accept(Traits()).readsConcurrently }
}

/// What the isolation suite and the stress checks do with each shape of store. `IsolationVariant.accept(_:)` calls
/// exactly one method, with the concrete type; every shape joins every isolation benchmark.
public protocol IsolationVariantVisitor {
    associatedtype Output

    /// A store on a dispatch queue, which a test probe can watch.
    func queueStore<Store: QueueStore>(_ type: Store.Type) -> Output
    /// A store behind a lock.
    func lockStore<Store: LockStore>(_ type: Store.Type) -> Output
    /// The actor: its methods are awaited, so it is driven from tasks rather than called from threads.
    func actor(_ type: ActorStore.Type) -> Output
}

/// The facts each shape and type carries.
private struct Traits: IsolationVariantVisitor {
    struct Output {
        var typeName: String
        var isQueueBased = false
        var writesAsynchronously = false
        var readsConcurrently = false
    }

    func queueStore<Store: QueueStore>(_ type: Store.Type) -> Output {
        Output(typeName: String(describing: type), isQueueBased: true,
               writesAsynchronously: type is any AsynchronousWriteStore.Type, readsConcurrently: type.readsConcurrently)
    }

    func lockStore<Store: LockStore>(_ type: Store.Type) -> Output {
        Output(typeName: String(describing: type), writesAsynchronously: type is any AsynchronousWriteStore.Type)
    }

    func actor(_ type: ActorStore.Type) -> Output {
        Output(typeName: String(describing: type))
    }
}
