import BenchCore
import BenchSuites

/// A pattern brought from outside DispatchBench, to be timed, counted and stress-checked beside the built-in
/// variants of the suite it joins, under an id of its own. Made by one of the factories below and passed to
/// `DispatchBench.main(_:)`.
///
/// The factories are `@inlinable`: the benchmarks they register are compiled in the caller's module for the
/// concrete type, so a brought-in variant is timed as tightly as a built-in one (no existential in a timed loop).
public struct Variant: Sendable {
    /// The CSV `variant` id, chosen by the package: lower-case letters, digits, `-`, `_` and `.`.
    public let id: String
    /// The suite it joins, as in the CSV `suite` column (`isolation`).
    public let suite: String
    /// The module that brought it, read from the call site's `#fileID`.
    public let module: String
    /// Adds the variant's benchmarks to a registry.
    @usableFromInline let addBenchmarks: @Sendable (inout BenchmarkRegistry) -> Void
    /// What the stress checks build to race it.
    @usableFromInline let subject: StressSubject

    @usableFromInline
    init(id: String, suite: String, fileID: String, subject: StressSubject,
         addBenchmarks: @escaping @Sendable (inout BenchmarkRegistry) -> Void) {
        self.id = id
        self.suite = suite
        self.module = String(fileID.prefix { $0 != "/" })
        self.subject = subject
        self.addBenchmarks = addBenchmarks
    }
}

/// The type a brought-in variant's stress checks are run on. Stress checks are not timed, so they may call it
/// through an existential.
@usableFromInline
enum StressSubject: Sendable {
    /// A store of the isolation suite, made holding the given models.
    case store(@Sendable (_ preloading: [IdentityModel]) -> any IsolatedStore)
    /// A lock: the store it guards, made holding the given models, and the bare lock.
    case lock(store: @Sendable (_ preloading: [IdentityModel]) -> any IsolatedStore,
              lock: @Sendable () -> any ExclusiveLock)
    /// A once table, raced on fresh tokens of fresh tables.
    case once(any OnceTable.Type)
    /// A fan-out waiter.
    case fanOut(@Sendable () -> any TaskWaiter)
    /// A throttle, made at a limit.
    case throttle(@Sendable (_ limit: Int) -> any TaskWaiter)
    /// A handoff pair.
    case handoff(@Sendable () -> any Handoff)
}

extension Variant {
    /// A store of your own guarding the isolation suite's dictionary (`[String: IdentityModel]`), under `id`: it
    /// joins `isolation/mixed` and `isolation/roles` with the built-in stores' read mixes, roles and thread
    /// counts, and `bench stress` runs the lost-write, torn-read and read-your-writes checks on it.
    @inlinable
    public static func lockStore<Store: LockStore>(_ id: String, _: Store.Type, fileID: String = #fileID) -> Variant {
        store(id, fileID: fileID) { Store(preloading: $0) }
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
        let store = Variant.store(id, fileID: fileID) { LockedStore(lock: make(), preloading: $0) }
        let subject = StressSubject.lock(store: { LockedStore(lock: make(), preloading: $0) }, lock: make)
        return Variant(id: id, suite: store.suite, fileID: fileID, subject: subject) { registry in
            store.addBenchmarks(&registry)
            registry.addMutexPairBenchmark(variant: id, make)
            registry.addCounterBenchmark(variant: id, make)
        }
    }

    /// A once of your own, a token in and a block run once (`OnceTable`), under `id`: it joins `once/hit`,
    /// `once/first` and `once/race` with the catalog's parameters and thread counts (`once/hit` sweeps the number
    /// of registered tokens when its tokens are strings), and `bench stress` races it for exactly-once and no
    /// early return.
    @inlinable
    public static func once<Table: OnceTable>(_ id: String, _: Table.Type, fileID: String = #fileID) -> Variant {
        Variant(id: id, suite: "once", fileID: fileID, subject: .once(Table.self)) { registry in
            registry.addOnceBenchmarks(variant: id, Table.self)
        }
    }

    /// A waiter of your own, that runs N tasks and returns when all have run (`TaskWaiter`), made by `make` for each
    /// case: it joins `wait/fan-out` with the catalog's task counts and work, and `bench stress` checks that every
    /// task ran exactly once before the wait returned, and, when it is a `TimedTaskWaiter`, that its timed wait
    /// tells the truth.
    @inlinable
    public static func fanOut<Waiter: TaskWaiter>(_ id: String, fileID: String = #fileID,
                                                  _ make: @escaping @Sendable () -> Waiter) -> Variant {
        Variant(id: id, suite: "wait", fileID: fileID, subject: .fanOut(make)) { registry in
            registry.addFanOutBenchmark(variant: id, make)
        }
    }

    /// A throttle of your own, a waiter that runs at most `limit` tasks at once, made by `make(limit)`: it joins
    /// `wait/throttle` at limits 1, 2, 4 and 8, and `bench stress` checks that it never exceeds its limit and runs
    /// every task once.
    @inlinable
    public static func throttle<Throttle: TaskWaiter>(_ id: String, fileID: String = #fileID,
                                                      _ make: @escaping @Sendable (_ limit: Int) -> Throttle)
        -> Variant {
        Variant(id: id, suite: "wait", fileID: fileID, subject: .throttle(make)) { registry in
            registry.addThrottleBenchmark(variant: id, make)
        }
    }

    /// A handoff of your own, a round trip between two threads (`Handoff`), made by `make` for each case: it joins
    /// `wait/handoff`, and `bench stress` checks that no wake-up is lost.
    @inlinable
    public static func handoff<Pair: Handoff>(_ id: String, fileID: String = #fileID,
                                              _ make: @escaping @Sendable () -> Pair) -> Variant {
        Variant(id: id, suite: "wait", fileID: fileID, subject: .handoff(make)) { registry in
            registry.addHandoffBenchmark(variant: id, make)
        }
    }

    /// The isolation suite's stores, each made by `make` holding the given models.
    @inlinable
    static func store<Store: IsolatedStore>(_ id: String, fileID: String,
                                            _ make: @escaping @Sendable ([IdentityModel]) -> Store) -> Variant {
        Variant(id: id, suite: "isolation", fileID: fileID, subject: .store(make)) { registry in
            registry.addIsolationBenchmarks(variant: id, make)
        }
    }
}
