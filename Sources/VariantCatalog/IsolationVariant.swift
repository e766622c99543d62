/// The isolation family's catalog: every mechanism `isolation/…` puts around the same identity map, and the stress
/// tests check.
package enum IsolationVariant: String, VariantCatalog {
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
    package typealias Benchmark = IsolationBenchmark

    package static let suite = "isolation"
    package static let summaryHeading = "reads and writes"


    package var summary: String {
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
}

/// The isolation suite's benchmarks, named as in the CSV `benchmark` column: the one place those names are
/// declared. The catalog names them (`IsolationVariant.Benchmark`) and the suite's benchmarks extend this type with
/// what each measures (BenchSuites' `IsolationBenchmarks.swift`). `@usableFromInline`: the suite's inlinable
/// factories, compiled in a caller's module, go through its cases.
@usableFromInline
package enum IsolationBenchmark: String, CaseIterable, Hashable, Sendable {
    /// Every thread runs the same mix of reads and writes.
    case mixed
    /// One thread writes while the others read.
    case roles
    /// Every thread increments one shared counter under one shared lock: the lock alone, contended.
    case counter
}
