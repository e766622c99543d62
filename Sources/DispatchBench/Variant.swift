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
    @inlinable
    public static func lock<Lock: ExclusiveLock>(_ id: String, fileID: String = #fileID,
                                                 _ make: @escaping @Sendable () -> Lock) -> Variant {
        store(id, fileID: fileID) { LockedStore(lock: make(), preloading: $0) }
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
