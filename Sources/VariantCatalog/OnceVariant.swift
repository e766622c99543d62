/// The once family's catalog: every way of running code once that `once/…` measures and the stress tests race.
package enum OnceVariant: String, VariantCatalog {
    case arrayTracker = "array-tracker"
    case setTracker = "set-tracker"
    case osLock = "os-lock"
    case lazyStatic = "lazy-static"
    case dispatchOnce = "dispatch-once"
    case dispatchOnceInline = "dispatch-once-inline"
    case pthreadOnce = "pthread-once"
    case atomicFlag = "atomic-flag"
    case autoToken = "auto-token"
    case barrierOnly = "barrier-only"

    /// The once suite's benchmarks.
    package typealias Benchmark = OnceBenchmark

    package static let suite = "once"
    package static let summaryHeading = "what it is"


    package var summary: String {
        switch self {
        case .arrayTracker:
            "The seed as written: `[String]`, `contains` then `append`, block run while the lock is held. "
                + "`objc_sync_enter` does not exist on Linux; a recursive pthread mutex (`RecursiveMutex`) stands in "
                + "for it, since objc_sync is a recursive mutex too. Unlike the seed the tracker is an instance, not a "
                + "static, so every case starts empty."
        case .setTracker:
            "The same with a `Set<String>`: a hit hashes the whole token string once."
        case .osLock:
            "The `Set<String>` tracker behind Swift's `Synchronization.Mutex` instead of the recursive mutex: "
                + "`os_unfair_lock` on Darwin, a futex-word lock on Linux. Differs from `set-tracker` only in the lock. "
                + "Not recursive: a block that calls `once` on the same tracker deadlocks."
        case .lazyStatic:
            "A Swift `static let`. `hit` reads a real one through a non-inlinable function, so every read pays a "
                + "call and the accessor's `swift_once` check (otherwise the optimizer hoists the read out of the loop "
                + "and it looks free): the only hit measured through a call. `first` and `race` make the same runtime "
                + "call, `swift_once`, on fresh zeroed predicates, one per token: a program cannot make new statics at "
                + "run time."
        case .dispatchOnce:
            "libdispatch's `dispatch_once_f` over a table of heap-allocated predicates (stable addresses, never a "
                + #"Swift property). Swift calls the out-of-line function: the C header's inline "already done?" "#
                + "check is a macro Swift does not import, and on x86-64 the out-of-line function then tries a "
                + "compare-exchange on the predicate even when it is done."
        case .dispatchOnceInline:
            "`dispatch-once` with dispatch/once.h's inline fast path done in Swift: an acquire load of the predicate, "
                + "and `dispatch_once_f` only when it does not read done (~0). What C and Objective-C callers of "
                + "`dispatch_once` get: a hit is a load and a branch at the call site."
        case .pthreadOnce:
            "POSIX `pthread_once` over a table of `pthread_once_t`. Its init routine takes no context, so the block "
                + "travels through a C `_Thread_local` slot: one plain store per call (hits included), all a hit adds "
                + "to a bare `pthread_once` on a done control besides the bounds check."
        case .atomicFlag:
            "Double-checked locking: an `Atomic<Bool>` acquire load on the fast path, a per-token `Mutex` on the "
                + "slow path. What `dispatch_once`'s inline fast path and `swift_once` do: a hit is a load and a branch at "
                + "the call site."
        case .autoToken:
            #"The seed's `once { … }` convenience over the Set tracker: the token `#file + ":" + #function + ":" + "#
                + "String(#line)` is built on every call. In Swift 6 `#file` is the short `Module/File.swift`."
        case .barrierOnly:
            "`once/race` without the once call: the round barrier and the two clock reads. Subtract it from the "
                + "other `once/race` rows."
        }
    }
}

/// The once suite's benchmarks, named as in the CSV `benchmark` column: the one place those names are declared.
/// The catalog names them (`OnceVariant.Benchmark`) and the suite's benchmarks extend this type with what each
/// measures (BenchSuites' `OnceBenchmarks.swift`). `@usableFromInline`: the suite's inlinable factories, compiled in
/// a caller's module, go through its cases.
@usableFromInline
package enum OnceBenchmark: String, CaseIterable, Hashable, Sendable {
    /// A call whose block has already run: the path every later call takes.
    case hit
    /// The first call for a fresh token: registration plus an empty block.
    case first
    /// All threads call once on the same fresh token at the same moment.
    case race
}
