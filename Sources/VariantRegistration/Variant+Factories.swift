import BenchCore
import BenchSuites
import StressChecks
import VariantCatalog
import VariantProtocols

// The factories a package calls to register a variant of its own, and DispatchBench calls to register its
// built-in ones (BuiltInVariants.swift): one per shape of variant a suite can measure.

extension Variant {
    /// A store of your own guarding the isolation suite's dictionary (`[String: IdentityModel]`), under `id`: it
    /// joins `isolation/mixed` and `isolation/roles` with the other stores' read mixes, roles and thread counts,
    /// and `bench stress` runs the lost-write, torn-read and read-your-writes checks on it.
    @inlinable
    public static func lockStore<Store: LockStore>(_ id: String, _: Store.Type, fileID: String = #fileID) -> Variant {
        Variant(id: id, suite: Suite.isolation, fileID: fileID, type: Store.self,
                subject: .store { Store(preloading: $0) }) { registry in
            registry.addIsolationBenchmarks(variant: id) { Store(preloading: $0) }
        }
    }

    /// A store of your own whose lock can also be taken on its own (`ExclusiveLockStore`), under `id`: it joins
    /// the suite as `lockStore(_:_:)` says, and its bare lock joins `isolation/counter` (every thread increments
    /// one counter under one shared lock) and the mutual-exclusion check.
    @inlinable
    public static func lockStore<ExclusiveStore: ExclusiveLockStore>(_ id: String, _: ExclusiveStore.Type,
                                                                     fileID: String = #fileID) -> Variant {
        let subject = StressSubject.lock(store: { ExclusiveStore(preloading: $0) },
                                         lock: { ExclusiveStore(preloading: []) })
        return Variant(id: id, suite: Suite.isolation, fileID: fileID, type: ExclusiveStore.self,
                       subject: subject) { registry in
            registry.addIsolationBenchmarks(variant: id) { ExclusiveStore(preloading: $0) }
            registry.addCounterBenchmark(variant: id) { ExclusiveStore(preloading: []) }
        }
    }

    /// A lock of your own, anything with a `withLock` critical section (`ExclusiveLock`), made by `make` for each
    /// store: it guards the isolation suite's dictionary as `Mutex` does for the built-in `mutex`
    /// (`LockedStore`), and joins the suite as `lockStore(_:_:)` says. No store to write:
    /// `.lock("nio-lock") { NIOLock() }`.
    ///
    /// It also joins the harness's lock floor, `harness/mutex-pair`: an empty critical section, each thread on a
    /// lock of its own, beside `pthread-mutex`; and `isolation/counter`: every thread increments one counter under
    /// one shared lock, swift-nio's lock benchmark, beside the built-in locks. `bench stress` checks the bare lock
    /// for mutual exclusion too.
    @inlinable
    public static func lock<Lock: ExclusiveLock>(_ id: String, fileID: String = #fileID,
                                                 _ make: @escaping @Sendable () -> Lock) -> Variant {
        let subject = StressSubject.lock(store: { LockedStore(lock: make(), preloading: $0) }, lock: make)
        return Variant(id: id, suite: Suite.isolation, fileID: fileID, type: Lock.self,
                       subject: subject) { registry in
            registry.addIsolationBenchmarks(variant: id) { LockedStore(lock: make(), preloading: $0) }
            registry.addMutexPairBenchmark(variant: id, make)
            registry.addCounterBenchmark(variant: id, make)
        }
    }

    /// An actor of your own keeping the isolation suite's dictionary (`ActorIsolatedStore`), under `id`: it joins
    /// `isolation/mixed` and `isolation/roles` as the built-in `actor` does, driven from tasks (each batch a
    /// harness thread is given runs as one task of awaited calls), and `bench stress` runs the store checks on it
    /// through awaited calls from threads of their own.
    @inlinable
    public static func actorStore<Store: ActorIsolatedStore>(_ id: String, _: Store.Type,
                                                             fileID: String = #fileID) -> Variant {
        Variant(id: id, suite: Suite.isolation, fileID: fileID, type: Store.self,
                subject: .actor(Store.self)) { $0.addActorStoreBenchmarks(variant: id, Store.self) }
    }

    /// A once of your own, a token in and a block run once (`OnceTable`), under `id`: it joins `once/hit`,
    /// `once/first` and `once/race` with the suite's parameters and thread counts (`once/hit` sweeps the number
    /// of registered tokens when its tokens are strings), and `bench stress` races it for exactly-once and no
    /// early return.
    @inlinable
    public static func once<Table: OnceTable>(_ id: String, _: Table.Type, fileID: String = #fileID) -> Variant {
        Variant(id: id, suite: Suite.once, fileID: fileID, type: Table.self,
                subject: .once(Table.self)) { $0.addOnceBenchmarks(variant: id, Table.self) }
    }

    /// A waiter of your own, that runs N tasks and returns when all have run (`TaskWaiter`), made by `make` for each
    /// case: it joins `wait/fan-out` with the suite's task counts and work, and `bench stress` checks that every
    /// task ran exactly once before the wait returned, and, when it is a `TimedTaskWaiter`, that its timed wait
    /// tells the truth.
    @inlinable
    public static func fanOut<Waiter: TaskWaiter>(_ id: String, fileID: String = #fileID,
                                                  _ make: @escaping @Sendable () -> Waiter) -> Variant {
        Variant(id: id, suite: Suite.fanOut, fileID: fileID, type: Waiter.self, subject: .fanOut(make)) {
            $0.addFanOutBenchmark(variant: id, make)
        }
    }

    /// A throttle of your own, a waiter that runs at most `limit` tasks at once, made by `make(limit)`: it joins
    /// `wait/throttle` at those of the limits 1, 2, 4 and 8 that it takes (`limits`; nil: every one), and `bench
    /// stress` checks that it never exceeds its limit and runs every task once.
    @inlinable
    public static func throttle<Throttle: TaskWaiter>(_ id: String, limits: Set<Int>? = nil, fileID: String = #fileID,
                                                      _ make: @escaping @Sendable (_ limit: Int) -> Throttle)
        -> Variant {
        let supports: @Sendable (Int) -> Bool = { limit in limit >= 1 && limits.map { $0.contains(limit) } ?? true }
        return Variant(id: id, suite: Suite.throttle, fileID: fileID, type: Throttle.self,
                       subject: .throttle(make, supports: supports)) {
            $0.addThrottleBenchmark(variant: id, supports: supports, make)
        }
    }

    /// A handoff of your own, a round trip between two threads (`Handoff`), made by `make` for each case: it joins
    /// `wait/handoff`, and `bench stress` checks that no wake-up is lost.
    @inlinable
    public static func handoff<Pair: Handoff>(_ id: String, fileID: String = #fileID,
                                              _ make: @escaping @Sendable () -> Pair) -> Variant {
        Variant(id: id, suite: Suite.handoff, fileID: fileID, type: Pair.self, subject: .handoff(make)) {
            $0.addHandoffBenchmark(variant: id, make)
        }
    }
}

extension Variant {
    /// The suite each factory's variants join, as the family's catalog names it. Read here, not in the factories'
    /// bodies: those are compiled in the caller's module, and the catalogs are not part of the library's surface.
    @usableFromInline
    enum Suite {
        @usableFromInline static let isolation = IsolationVariant.suite
        @usableFromInline static let once = OnceVariant.suite
        @usableFromInline static let fanOut = FanOutVariant.suite
        @usableFromInline static let throttle = ThrottleVariant.suite
        @usableFromInline static let handoff = HandoffVariant.suite
    }
}
