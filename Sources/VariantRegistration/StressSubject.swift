import StressChecks
import SyncVariants

/// What the stress checks build to race a variant, one case per shape a factory registers. Stress checks are not
/// timed, so they may call a variant through an existential. `Variant.stressCases` turns a subject into the
/// family's checks; the tests ask it for the variant's makers.
@usableFromInline
package enum StressSubject: Sendable {
    /// A store of the isolation suite, made holding the given models.
    case store(@Sendable (_ preloading: [IdentityModel]) -> any IsolatedStore)
    /// A store whose lock can also be taken bare (a lock brought with `Variant.lock`, or an `ExclusiveLockStore`):
    /// the store, made holding the given models, and the bare lock.
    case lock(store: @Sendable (_ preloading: [IdentityModel]) -> any IsolatedStore,
              lock: @Sendable () -> any ExclusiveLock)
    /// A built-in store on a dispatch queue, made holding the given models and watched by an optional test probe.
    case queueStore(@Sendable (_ preloading: [IdentityModel], _ probe: (any QueueBlockProbe)?) -> any IsolatedStore,
                    readsConcurrently: Bool, writesAsynchronously: Bool)
    /// A once, raced on fresh tokens (`threads`, `rounds`).
    case once(@Sendable (_ threads: Int, _ rounds: Int) -> OnceRaceReport)
    /// A fan-out waiter.
    case fanOut(@Sendable () -> any TaskWaiter)
    /// A throttle, made at a limit it takes.
    case throttle(@Sendable (_ limit: Int) -> any TaskWaiter, supports: @Sendable (_ limit: Int) -> Bool)
    /// A handoff pair.
    case handoff(@Sendable () -> any Handoff)
    /// A baseline of a suite, which makes no call of a pattern: nothing to check.
    case baseline
}

extension StressSubject {
    /// An actor store, driven by the store checks through awaited calls (`ActorStoreBridge`).
    @usableFromInline
    static func actor<Store: ActorIsolatedStore>(_: Store.Type) -> StressSubject {
        .store { ActorStoreBridge(Store(preloading: $0)) }
    }

    /// A once table, raced on fresh tokens of fresh tables.
    @usableFromInline
    static func once<Table: OnceTable>(_: Table.Type) -> StressSubject {
        .once { OnceRaceCheck.race(Table.self, threads: $0, rounds: $1) }
    }
}

extension Variant {
    /// The checks `bench stress` runs on this variant: its family's, under `suite/id/check` (`wait/fan-out/id/check`
    /// in the waiting suite), each carrying the variant's module.
    package var stressCases: [StressCase] {
        familyChecks.map { check in
            var check = check
            check.origin = module
            return check
        }
    }

    private var familyChecks: [StressCase] {
        let name = "\(suite)/\(id)"
        switch subject {
        case .store(let make):
            return StressCatalog.lockStoreCases(name: name, make: make)
        case .lock(let makeStore, let makeLock):
            return StressCatalog.lockStoreCases(name: name, make: makeStore)
                + [StressCatalog.mutualExclusionCase(name: name, make: makeLock)]
        case .queueStore(let make, let readsConcurrently, let writesAsynchronously):
            return StressCatalog.lockStoreCases(name: name) { make($0, nil) }
                + StressCatalog.queueStoreCases(name: name, readsConcurrently: readsConcurrently,
                                                writesAsynchronously: writesAsynchronously) { make($0, $1) }
        case .once(let race):
            return [StressCatalog.onceCase(name: name, race: race)]
        case .fanOut(let make):
            return [StressCatalog.fanOutCase(name: "wait/fan-out/\(id)", make: make)]
                + [StressCatalog.timeoutCase(name: "wait/fan-out/\(id)", make: make)].compactMap { $0 }
        case .throttle(let make, let supports):
            return [StressCatalog.throttleCase(name: "wait/throttle/\(id)", supports: supports, make: make)]
        case .handoff(let make):
            return [StressCatalog.handoffCase(name: "wait/handoff/\(id)", make: make)]
        case .baseline:
            return []
        }
    }
}
