import BenchCore
import BenchSuites
import StressChecks
import SyncVariants
import VariantCatalog

// The one internal extension of the factories: shapes of variant that only DispatchBench's own variants have, each
// with the reason it cannot be brought from outside. Everything else a built-in variant needs is public
// (Variant+Factories.swift).

extension Variant {
    /// A built-in store on a dispatch queue: a lock store to the benchmarks (`lockStore(_:_:)`), and to the stress
    /// checks a queue whose blocks a test probe watches (`QueueBlockProbe`), for the exclusivity and write-window
    /// checks. Package access because the probe is a test hook: a package's queue store registers with
    /// `lockStore(_:_:)` and gets the store checks.
    static func queueStore<Store: QueueStore>(_ id: String, _: Store.Type) -> Variant {
        let subject = StressSubject.queueStore({ Store(preloading: $0, probe: $1) },
                                               readsConcurrently: Store.readsConcurrently,
                                               writesAsynchronously: Store.self is any AsynchronousWriteStore.Type)
        return Variant(id: id, suite: IsolationVariant.suite, fileID: #fileID,
                       type: Store.self, subject: subject) { registry in
            registry.addIsolationBenchmarks(variant: id) { Store(preloading: $0, probe: nil) }
        }
    }

    /// Swift's `static let` (`LazyStatic`): `once/hit` reads a real static; `once/first`, `once/race` and the
    /// stress check make the accessor's runtime call (`swift_once`) on fresh predicates. Package access because a
    /// `static let` is compiled into the module that declares it: none can be handed over at run time.
    static func staticLet(_ id: String) -> Variant {
        Variant(id: id, suite: OnceVariant.suite, fileID: #fileID, type: LazyStatic.self,
                subject: .once(LazyStatic.self)) { $0.addStaticLetBenchmarks(variant: id) }
    }

    /// The seed's call-site `once { … }` (`AutoTokenOnce`), whose token is built from `#file`, `#function` and
    /// `#line` on every call: joins `once/hit` alone, and the stress check races it on fresh call sites. Package
    /// access because the call sites it is timed and raced at are DispatchBench's own source lines.
    static func callSiteOnce(_ id: String) -> Variant {
        Variant(id: id, suite: OnceVariant.suite, fileID: #fileID, type: AutoTokenOnce.self,
                subject: .once { AutoTokenCallSites.race(threads: $0, rounds: $1) }) {
            $0.addCallSiteOnceBenchmark(variant: id)
        }
    }

    /// `once/race` without the once call, to subtract from the other `once/race` rows. Package access because it
    /// is a baseline of the suite, with no pattern to bring.
    static func raceBaseline(_ id: String) -> Variant {
        Variant(id: id, suite: OnceVariant.suite, fileID: #fileID, type: nil, subject: .baseline) {
            $0.addRaceBaselineBenchmark(variant: id)
        }
    }
}
