import BenchCore
import SyncVariants
import VariantCatalog

/// A family's catalog whose every id is registered through the factories a package calls: the one place an id
/// meets its type.
package protocol BuiltInFamily: VariantCatalog {
    /// The variant this id names, made by a factory of `Variant`. Package access for the tests, which ask it what a
    /// built-in variant is (`BuiltInVariants+Questions.swift` in SyncVariantsTests).
    var variant: Variant { get }
}

extension Variant {
    /// Every built-in variant, family by family in the order a run lists them, each made by the factory a package
    /// would call and marked `built-in`.
    package static let builtIn: [Variant] = families.flatMap { $0.variants }

    /// The families, in the order a run lists them. Package access for the tests, which check each family's
    /// catalog against the registry.
    package static let families: [any BuiltInFamily.Type] = [
        OnceVariant.self, IsolationVariant.self, FanOutVariant.self, ThrottleVariant.self, HandoffVariant.self,
    ]
}

extension BuiltInFamily {
    /// The family's variants in catalog order, marked `built-in`.
    static var variants: [Variant] { allCases.map { $0.variant.builtIn() } }
}

extension OnceVariant: BuiltInFamily {
    package var variant: Variant {
        switch self {
        case .arrayTracker: .once(rawValue, ArrayTrackerOnce.self)
        case .setTracker: .once(rawValue, SetTrackerOnce.self)
        case .osLock: .once(rawValue, OSLockOnce.self)
        case .lazyStatic: .staticLet(rawValue)
        case .dispatchOnce: .once(rawValue, DispatchOnce.self)
        case .dispatchOnceInline: .once(rawValue, DispatchOnceInline.self)
        case .pthreadOnce: .once(rawValue, PthreadOnce.self)
        case .atomicFlag: .once(rawValue, AtomicFlagOnce.self)
        case .autoToken: .callSiteOnce(rawValue)
        case .barrierOnly: .raceBaseline(rawValue)
        }
    }
}

extension IsolationVariant: BuiltInFamily {
    package var variant: Variant {
        switch self {
        case .serialSync: .queueStore(rawValue, SerialSyncStore.self)
        case .serialAsyncWrite: .queueStore(rawValue, SerialAsyncWriteStore.self)
        case .concurrentBarrierAsync: .queueStore(rawValue, ConcurrentBarrierAsyncStore.self)
        case .concurrentBarrierSync: .queueStore(rawValue, ConcurrentBarrierSyncStore.self)
        case .nslock: .lockStore(rawValue, NSLockStore.self)
        case .mutex: .lockStore(rawValue, MutexStore.self)
        case .rwlock: .lockStore(rawValue, RWLockStore.self)
        case .spinLock: .lockStore(rawValue, SpinLockStore.self)
        case .pthreadMutex: .lockStore(rawValue, PthreadMutexStore.self)
        case .pthreadMutexPI: .lockStore(rawValue, PthreadMutexPIStore.self)
        case .pthreadMutexAdaptive: .lockStore(rawValue, PthreadMutexAdaptiveStore.self)
        case .actor: .actorStore(rawValue, ActorStore.self)
        }
    }
}

extension FanOutVariant: BuiltInFamily {
    package var variant: Variant {
        switch self {
        case .semaphore: .fanOut(rawValue) { SemaphoreFanOut() }
        case .groupWait: .fanOut(rawValue) { GroupWaitFanOut() }
        case .groupNotify: .fanOut(rawValue) { GroupNotifyFanOut() }
        case .concurrentPerform: .fanOut(rawValue) { ConcurrentPerformFanOut() }
        case .operationQueue: .fanOut(rawValue) { OperationQueueFanOut() }
        case .taskGroup: .fanOut(rawValue) { TaskGroupFanOut() }
        }
    }
}

extension ThrottleVariant: BuiltInFamily {
    package var variant: Variant {
        switch self {
        case .semaphoreLimit: .throttle(rawValue) { SemaphoreLimitThrottle(limit: $0) }
        case .operationQueueLimit: .throttle(rawValue) { OperationQueueLimitThrottle(limit: $0) }
        case .serialWorker: .throttle(rawValue, limits: [1]) { _ in SerialWorkerThrottle() }
        }
    }
}

extension HandoffVariant: BuiltInFamily {
    package var variant: Variant {
        switch self {
        case .semaphore: .handoff(rawValue) { SemaphoreHandoff() }
        case .group: .handoff(rawValue) { GroupHandoff() }
        case .condition: .handoff(rawValue) { ConditionHandoff() }
        }
    }
}

extension Variant {
    /// The variant table of every family, in the order a run lists them: what `bench --list --format md` prints and
    /// the variant tables of docs/suites.md must match. A row's type and benchmarks are the ones its registration
    /// made.
    package static var builtInTables: [VariantTable] { families.map { $0.table } }

    /// The names of the benchmarks of its own suite that the variant joins, in the order it joins them.
    var benchmarkNames: [String] {
        var names: [String] = []
        for benchmark in benchmarks where benchmark.suite == suite && !names.contains(benchmark.name) {
            names.append(benchmark.name)
        }
        return names
    }
}

extension BuiltInFamily {
    /// The family's catalog as docs/suites.md shows it.
    static var table: VariantTable {
        VariantTable(name: tableName, suite: suite, summaryHeading: summaryHeading, rows: allCases.map { entry in
            let variant = entry.variant
            return VariantTable.Row(id: entry.rawValue, typeName: variant.typeName,
                                    benchmarks: variant.benchmarkNames, summary: entry.summary)
        })
    }
}
