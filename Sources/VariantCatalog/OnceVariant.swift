import SyncVariants

/// The once family's catalog: every way of running code once that `once/…` measures and the stress tests race.
public enum OnceVariant: String, VariantCatalog {
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
    public enum Benchmark: String, CaseIterable, Hashable, Sendable {
        /// A call whose block has already run: the path every later call takes.
        case hit
        /// The first call for a fresh token: registration plus an empty block.
        case first
        /// All threads call once on the same fresh token at the same moment.
        case race
    }

    public static let suite = "once"
    public static let summaryHeading = "what it is"

    /// Hands the variant's type to `visitor`, by its shape: the one place an id meets its type.
    @inlinable
    public func accept<Visitor: OnceVariantVisitor>(_ visitor: Visitor) -> Visitor.Output {
        switch self {
        case .arrayTracker: visitor.table(ArrayTrackerOnce.self)
        case .setTracker: visitor.table(SetTrackerOnce.self)
        case .osLock: visitor.table(OSLockOnce.self)
        case .lazyStatic: visitor.staticLet(LazyStatic.self)
        case .dispatchOnce: visitor.table(DispatchOnce.self)
        case .dispatchOnceInline: visitor.table(DispatchOnceInline.self)
        case .pthreadOnce: visitor.table(PthreadOnce.self)
        case .atomicFlag: visitor.table(AtomicFlagOnce.self)
        case .autoToken: visitor.callSite(AutoTokenOnce.self)
        case .barrierOnly: visitor.barrierOnly()
        }
    }

    public var summary: String {
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

    public var typeName: String? { accept(TypeName()) }

    public var benchmarks: [Benchmark] { accept(Joins()) }

    /// Whether `once/hit` sweeps the number of registered tokens: the variant looks a string token up among those
    /// registered before it, so the table's size may matter. The predicate tables reach a token directly and run
    /// with `tokens=1` only.
    public var hasTokenTable: Bool { accept(HasTokenTable()) }
}

/// What the once suite and the stress checks do with each shape of once variant. `OnceVariant.accept(_:)` calls
/// exactly one method, with the concrete type; the shape says which benchmarks the variant joins.
public protocol OnceVariantVisitor {
    associatedtype Output

    /// A table that makes fresh tokens (the trackers, the predicate tables): joins `hit`, `first` and `race`, and
    /// the stress checks race it on fresh tokens.
    func table<Table: OnceTable>(_ type: Table.Type) -> Output
    /// Swift's `static let`: `hit` reads a real static; `first`, `race` and the stress checks use the type as a
    /// table, making the accessor's runtime call (`swift_once`) on fresh predicates, since a program cannot make
    /// new statics at run time.
    func staticLet(_ type: LazyStatic.Type) -> Output
    /// The seed's call-site convenience, whose token is built from `#file`, `#function` and `#line` on every call:
    /// joins `hit` only (beyond `set-tracker`, all it adds is building that string, which `hit` shows). The stress
    /// checks race it on fresh call sites.
    func callSite(_ type: AutoTokenOnce.Type) -> Output
    /// A baseline with no type of its own: `once/race` without the once call.
    func barrierOnly() -> Output
}

private struct TypeName: OnceVariantVisitor {
    func table<Table: OnceTable>(_ type: Table.Type) -> String? { String(describing: type) }
    func staticLet(_ type: LazyStatic.Type) -> String? { String(describing: type) }
    func callSite(_ type: AutoTokenOnce.Type) -> String? { String(describing: type) }
    func barrierOnly() -> String? { nil }
}

private struct Joins: OnceVariantVisitor {
    func table<Table: OnceTable>(_: Table.Type) -> [OnceVariant.Benchmark] { [.hit, .first, .race] }
    func staticLet(_: LazyStatic.Type) -> [OnceVariant.Benchmark] { [.hit, .first, .race] }
    func callSite(_: AutoTokenOnce.Type) -> [OnceVariant.Benchmark] { [.hit] }
    func barrierOnly() -> [OnceVariant.Benchmark] { [.race] }
}

private struct HasTokenTable: OnceVariantVisitor {
    func table<Table: OnceTable>(_: Table.Type) -> Bool { Table.Token.self == String.self }
    func staticLet(_: LazyStatic.Type) -> Bool { false }
    func callSite(_: AutoTokenOnce.Type) -> Bool { true }
    func barrierOnly() -> Bool { false }
}
