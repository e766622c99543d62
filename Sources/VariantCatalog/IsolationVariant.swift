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
    case spinLock = "spin-lock"
    case pthreadMutex = "pthread-mutex"
    case pthreadMutexPI = "pthread-mutex-pi"
    case pthreadMutexAdaptive = "pthread-mutex-adaptive"
    case actor

    /// The isolation suite's benchmarks.
    public enum Benchmark: String, CaseIterable, Hashable, Sendable {
        /// Every thread runs the same mix of reads and writes.
        case mixed
        /// One thread writes while the others read.
        case roles
        /// Every thread increments one shared counter under one shared lock: the lock alone, contended.
        case counter
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
        case .nslock: visitor.exclusiveLockStore(NSLockStore.self)
        case .mutex: visitor.exclusiveLockStore(MutexStore.self)
        case .rwlock: visitor.exclusiveLockStore(RWLockStore.self)
        case .spinLock: visitor.exclusiveLockStore(SpinLockStore.self)
        case .pthreadMutex: visitor.exclusiveLockStore(PthreadMutexStore.self)
        case .pthreadMutexPI: visitor.exclusiveLockStore(PthreadMutexPIStore.self)
        case .pthreadMutexAdaptive: visitor.exclusiveLockStore(PthreadMutexAdaptiveStore.self)
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
        case .rwlock: "reads: `pthread_rwlock_rdlock`; writes and `counter`: `pthread_rwlock_wrlock`"
        case .spinLock: "reads and writes: a test-and-test-and-set spin on an `Atomic<Bool>`, no system call"
        case .pthreadMutex: "reads and writes: `pthread_mutex_t`, default attributes (sleeps on a futex at once)"
        case .pthreadMutexPI: "reads and writes: `pthread_mutex_t` with `PTHREAD_PRIO_INHERIT` (`FUTEX_LOCK_PI` handoff)"
        case .pthreadMutexAdaptive: "reads and writes: `pthread_mutex_t` of type `PTHREAD_MUTEX_ADAPTIVE_NP` (spins, then sleeps)"
        case .actor: "reads and writes: awaited actor methods, called from tasks"
        }
    }

    public var typeName: String? { accept(Traits()).typeName }

    /// Every variant guards the same store behind the same API, so `mixed` and `roles` measure every variant;
    /// `counter` measures the variants whose lock can be taken on its own (`ExclusiveLockStore`).
    public var benchmarks: [Benchmark] { accept(Traits()).benchmarks }

    /// Whether the store's lock can be taken on its own (`ExclusiveLockStore`), so that it joins `counter`.
    public var isExclusiveLock: Bool { benchmarks.contains(.counter) }

    /// Whether the store is built on a dispatch queue, so that a `QueueBlockProbe` can watch its blocks.
    public var isQueueBased: Bool { accept(Traits()).isQueueBased }

    /// Whether `write` may return before the write is applied (an `AsynchronousWriteStore`).
    public var writesAsynchronously: Bool { accept(Traits()).writesAsynchronously }

    /// Whether reads may run beside each other inside the store's queue (false for the stores without a queue).
    public var readsConcurrently: Bool { accept(Traits()).readsConcurrently }
}

/// What the isolation suite and the stress checks do with each shape of store. `IsolationVariant.accept(_:)` calls
/// exactly one method, with the concrete type; every shape joins `mixed` and `roles`, an exclusive lock `counter`
/// too.
public protocol IsolationVariantVisitor {
    associatedtype Output

    /// A store on a dispatch queue, which a test probe can watch.
    func queueStore<Store: QueueStore>(_ type: Store.Type) -> Output
    /// A store behind a lock.
    func lockStore<Store: LockStore>(_ type: Store.Type) -> Output
    /// A store behind a lock that can also be taken on its own: the store joins `mixed` and `roles`, the bare lock
    /// joins `counter`.
    func exclusiveLockStore<Store: ExclusiveLockStore>(_ type: Store.Type) -> Output
    /// The actor: its methods are awaited, so it is driven from tasks rather than called from threads.
    func actor(_ type: ActorStore.Type) -> Output
}

extension IsolationVariantVisitor {
    /// An exclusive lock's store is a lock store: a visitor that does nothing with the bare lock (a store factory, a
    /// question about the store) takes it as one.
    @inlinable
    public func exclusiveLockStore<Store: ExclusiveLockStore>(_ type: Store.Type) -> Output {
        lockStore(type)
    }
}

/// The facts each shape and type carries.
private struct Traits: IsolationVariantVisitor {
    struct Output {
        var typeName: String
        var isQueueBased = false
        var writesAsynchronously = false
        var readsConcurrently = false
        var benchmarks: [IsolationVariant.Benchmark] = [.mixed, .roles]
    }

    func queueStore<Store: QueueStore>(_ type: Store.Type) -> Output {
        Output(typeName: String(describing: type), isQueueBased: true,
               writesAsynchronously: type is any AsynchronousWriteStore.Type, readsConcurrently: type.readsConcurrently)
    }

    func lockStore<Store: LockStore>(_ type: Store.Type) -> Output {
        Output(typeName: String(describing: type), writesAsynchronously: type is any AsynchronousWriteStore.Type)
    }

    func exclusiveLockStore<Store: ExclusiveLockStore>(_ type: Store.Type) -> Output {
        var output = lockStore(type)
        output.benchmarks.append(.counter)
        return output
    }

    func actor(_ type: ActorStore.Type) -> Output {
        Output(typeName: String(describing: type))
    }
}
