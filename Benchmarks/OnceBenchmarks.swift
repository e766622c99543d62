import BenchCore
import SyncVariants

extension BenchmarkRegistry {
    /// The once suite: what each way of running code once costs, how it grows with registered tokens and with
    /// threads. Variants are in `Sources/SyncVariants/Once/`; the README's once section says how to read them.
    ///
    /// - `once/hit`: a call whose block has already run, the path every later call takes. The tracker variants
    ///   (`array-tracker`, `set-tracker`, `os-lock`, `auto-token`) first register `tokens` tokens and then look
    ///   up the last one registered (the array's worst case); the others hold no token table and run with
    ///   `tokens=1` only. All threads hit the same token of the same table.
    /// - `once/first`: the first call for a fresh token: registration plus an empty block. Threads register
    ///   distinct tokens into a shared table; a fresh table is taken every `tokens` registrations, so a token is
    ///   registered into a table already holding between 0 and `tokens - 1` others (half on average) whatever
    ///   the sample length. The tables are made by `prepare`, outside the timed region.
    /// - `once/race`: every round, all threads meet at a `RoundBarrier` and call once on the same fresh token;
    ///   the round ends when every caller has returned (the next round's barrier waits for all). `ns_per_op` is
    ///   a round divided by the threads (a round lasts `ns_per_op × threads`); the latency percentiles are of
    ///   single racing calls, barrier excluded. `barrier-only` runs the rounds without the call: subtract it.
    ///
    /// `lazy-static` has no fresh statics to offer at run time, so it runs `once/hit` only; `auto-token` adds
    /// building its string to `set-tracker`, which `once/hit` shows, so it too runs `once/hit` only.
    mutating func addOnceBenchmarks() {
        add(Benchmark(
            suite: "once",
            name: "hit",
            variants: OnceVariant.hit,
            parameters: ["tokens": [1, 10, 100, 1_000, 10_000]],
            includes: { OnceVariant.hasTokenTable($0.variant) || $0[parameter: "tokens"] == 1 }
        ) { benchmarkCase in
            let tokens = benchmarkCase[parameter: "tokens"]
            switch benchmarkCase.variant {
            case OnceVariant.arrayTracker: return hitWorkload(ArrayTrackerOnce.self, tokens: tokens)
            case OnceVariant.setTracker: return hitWorkload(SetTrackerOnce.self, tokens: tokens)
            case OnceVariant.osLock: return hitWorkload(OSLockOnce.self, tokens: tokens)
            case OnceVariant.autoToken: return autoTokenHitWorkload(tokens: tokens)
            case OnceVariant.lazyStatic: return lazyStaticHitWorkload()
            case OnceVariant.dispatchOnce: return hitWorkload(DispatchOnce.self, tokens: tokens)
            case OnceVariant.pthreadOnce: return hitWorkload(PthreadOnce.self, tokens: tokens)
            case OnceVariant.atomicFlag: return hitWorkload(AtomicFlagOnce.self, tokens: tokens)
            default: preconditionFailure("once/hit has no variant \(benchmarkCase.variant)")
            }
        })
        add(Benchmark(
            suite: "once",
            name: "first",
            variants: OnceVariant.fresh,
            parameters: ["tokens": [100]],
            threadCounts: .fixed([1, 4])
        ) { benchmarkCase in
            let threads = benchmarkCase.threads, tokens = benchmarkCase[parameter: "tokens"]
            switch benchmarkCase.variant {
            case OnceVariant.arrayTracker: return firstWorkload(ArrayTrackerOnce.self, threads: threads, tokensPerTable: tokens)
            case OnceVariant.setTracker: return firstWorkload(SetTrackerOnce.self, threads: threads, tokensPerTable: tokens)
            case OnceVariant.osLock: return firstWorkload(OSLockOnce.self, threads: threads, tokensPerTable: tokens)
            case OnceVariant.dispatchOnce: return firstWorkload(DispatchOnce.self, threads: threads, tokensPerTable: tokens)
            case OnceVariant.pthreadOnce: return firstWorkload(PthreadOnce.self, threads: threads, tokensPerTable: tokens)
            case OnceVariant.atomicFlag: return firstWorkload(AtomicFlagOnce.self, threads: threads, tokensPerTable: tokens)
            default: preconditionFailure("once/first has no variant \(benchmarkCase.variant)")
            }
        })
        add(Benchmark(
            suite: "once",
            name: "race",
            variants: OnceVariant.fresh + [OnceVariant.barrierOnly],
            parameters: ["tokens": [100]],
            threadCounts: .fixed([2, 8])
        ) { benchmarkCase in
            let threads = benchmarkCase.threads, tokens = benchmarkCase[parameter: "tokens"]
            switch benchmarkCase.variant {
            case OnceVariant.arrayTracker: return raceWorkload(ArrayTrackerOnce.self, threads: threads, tokensPerTable: tokens)
            case OnceVariant.setTracker: return raceWorkload(SetTrackerOnce.self, threads: threads, tokensPerTable: tokens)
            case OnceVariant.osLock: return raceWorkload(OSLockOnce.self, threads: threads, tokensPerTable: tokens)
            case OnceVariant.dispatchOnce: return raceWorkload(DispatchOnce.self, threads: threads, tokensPerTable: tokens)
            case OnceVariant.pthreadOnce: return raceWorkload(PthreadOnce.self, threads: threads, tokensPerTable: tokens)
            case OnceVariant.atomicFlag: return raceWorkload(AtomicFlagOnce.self, threads: threads, tokensPerTable: tokens)
            case OnceVariant.barrierOnly: return barrierOnlyWorkload(threads: threads)
            default: preconditionFailure("once/race has no variant \(benchmarkCase.variant)")
            }
        })
    }
}

/// The once suite's CSV variant ids, each naming the type that implements it.
private enum OnceVariant {
    static let arrayTracker = "array-tracker"  // ArrayTrackerOnce
    static let setTracker = "set-tracker"  // SetTrackerOnce
    static let osLock = "os-lock"  // OSLockOnce
    static let lazyStatic = "lazy-static"  // LazyStatic
    static let dispatchOnce = "dispatch-once"  // DispatchOnce
    static let pthreadOnce = "pthread-once"  // PthreadOnce
    static let atomicFlag = "atomic-flag"  // AtomicFlagOnce
    static let autoToken = "auto-token"  // AutoTokenOnce
    /// `once/race` without the once call: the round barrier and the latency clock reads alone.
    static let barrierOnly = "barrier-only"

    static let hit = [arrayTracker, setTracker, osLock, lazyStatic, dispatchOnce, pthreadOnce, atomicFlag, autoToken]
    /// The variants that can make fresh tokens at run time.
    static let fresh = [arrayTracker, setTracker, osLock, dispatchOnce, pthreadOnce, atomicFlag]

    /// Whether the variant keeps a table of string tokens whose size `tokens` sweeps.
    static func hasTokenTable(_ variant: String) -> Bool {
        [arrayTracker, setTracker, osLock, autoToken].contains(variant)
    }
}

/// A once variant as the suite drives it: how to make a fresh table for `tokens` tokens, and the tokens.
private protocol OnceSubject: OnceTracker where Token: Sendable {
    static func makeTable(tokens: Int) -> Self
    /// `count` distinct tokens, built once in setup.
    static func makeTokens(_ count: Int) -> [Token]
}

/// The string trackers' tokens: reverse-DNS names, as the seed recommends (about 30 bytes, so each is a heap
/// string, not a small inline one). The one a hit looks up is the very string that was registered, as a string
/// literal passed at every call would be.
private func stringTokens(_ count: Int) -> [String] {
    (0..<count).map { "com.dispatchbench.once.token-\($0)" }
}

extension ArrayTrackerOnce: OnceSubject {
    fileprivate static func makeTable(tokens: Int) -> ArrayTrackerOnce { ArrayTrackerOnce() }
    fileprivate static func makeTokens(_ count: Int) -> [String] { stringTokens(count) }
}

extension SetTrackerOnce: OnceSubject {
    fileprivate static func makeTable(tokens: Int) -> SetTrackerOnce { SetTrackerOnce() }
    fileprivate static func makeTokens(_ count: Int) -> [String] { stringTokens(count) }
}

extension OSLockOnce: OnceSubject {
    fileprivate static func makeTable(tokens: Int) -> OSLockOnce { OSLockOnce() }
    fileprivate static func makeTokens(_ count: Int) -> [String] { stringTokens(count) }
}

extension DispatchOnce: OnceSubject {
    fileprivate static func makeTable(tokens: Int) -> DispatchOnce { DispatchOnce(count: tokens) }
    fileprivate static func makeTokens(_ count: Int) -> [Int] { Array(0..<count) }
}

extension PthreadOnce: OnceSubject {
    fileprivate static func makeTable(tokens: Int) -> PthreadOnce { PthreadOnce(count: tokens) }
    fileprivate static func makeTokens(_ count: Int) -> [Int] { Array(0..<count) }
}

extension AtomicFlagOnce: OnceSubject {
    fileprivate static func makeTable(tokens: Int) -> AtomicFlagOnce { AtomicFlagOnce(count: tokens) }
    fileprivate static func makeTokens(_ count: Int) -> [Int] { Array(0..<count) }
}

// MARK: - once/hit

/// Registers `tokens` tokens, then times calls for the last one registered.
private func hitWorkload<Subject: OnceSubject>(_: Subject.Type, tokens count: Int) -> Workload {
    let tokens = Subject.makeTokens(count)
    let table = Subject.makeTable(tokens: count)
    for token in tokens { table.once(token: token) {} }
    let last = tokens[count - 1]
    return Workload { _, iterations in
        for _ in 0..<iterations { table.once(token: last) {} }
    }
}

/// The seed's call shape: one call site, so one token, built from this file, function and line on every call.
private func autoTokenCallSite(_ tracker: AutoTokenOnce) {
    tracker.once {}
}

/// Registers `tokens - 1` explicit tokens and then the call site's, and times calls from that call site.
private func autoTokenHitWorkload(tokens count: Int) -> Workload {
    let tracker = AutoTokenOnce()
    for token in stringTokens(count - 1) { tracker.once(token: token) {} }
    autoTokenCallSite(tracker)
    return Workload { _, iterations in
        for _ in 0..<iterations { autoTokenCallSite(tracker) }
    }
}

/// Reads a `static let` through a non-inlinable accessor, so that every read pays `swift_once`'s check.
private func lazyStaticHitWorkload() -> Workload {
    _ = LazyStatic.value()
    return Workload { _, iterations in
        for _ in 0..<iterations { blackHole(LazyStatic.value()) }
    }
}

// MARK: - once/first and once/race

/// The fresh tables of one timed run. Replaced only by `prepare`, on the coordinator between runs (so the old
/// tables are freed outside the timed region); workers read it after the thread team's start barrier, which
/// orders the write before their reads.
private final class FreshTables<Subject: OnceSubject>: @unchecked Sendable {
    /// Owns the tables.
    private var tables: [Subject] = []
    /// The same tables, for the timed loops: calling through `Unmanaged` does not retain and release the
    /// shared table around every call (an atomic write to a cache line that every thread shares).
    private(set) var unmanaged: [Unmanaged<Subject>] = []

    /// Replaces the tables with `count` fresh ones of `tokens` tokens each.
    func renew(count: Int, tokens: Int) {
        unmanaged = []
        tables = []
        tables = (0..<count).map { _ in Subject.makeTable(tokens: tokens) }
        unmanaged = tables.map { Unmanaged.passUnretained($0) }
    }
}

/// Each thread registers fresh tokens: the k-th call of thread i takes the (k·threads + i)-th token overall,
/// so threads fill each table together and move to the next one every `tokensPerTable` tokens. Each thread has
/// its own copies of the token strings, so that passing a token never touches another thread's reference
/// count (string literals, which the seed's callers pass, have none). Generic over a
/// concrete type (never an existential) so that the loop is specialized: no witness calls per call.
private func firstWorkload<Subject: OnceSubject>(_: Subject.Type, threads: Int, tokensPerTable: Int) -> Workload {
    precondition(threads <= tokensPerTable, "a table must take at least one token from every thread")
    let threadTokens = (0..<threads).map { _ in Subject.makeTokens(tokensPerTable) }
    let fresh = FreshTables<Subject>()
    return Workload(pacing: .lockstep, prepare: { iterationsPerThread in
        fresh.renew(count: (iterationsPerThread * threads + tokensPerTable - 1) / tokensPerTable, tokens: tokensPerTable)
    }) { worker, iterations in
        let tables = fresh.unmanaged, tokens = threadTokens[worker.index]
        var slot = worker.index
        var table = 0
        for _ in 0..<iterations {
            tables[table]._withUnsafeGuaranteedRef { $0.once(token: tokens[slot]) {} }
            slot += threads
            if slot >= tokensPerTable {
                slot -= tokensPerTable
                table += 1
            }
        }
    }
}

/// Every round, the threads meet and then all call once on the round's fresh token; each call's latency is
/// recorded. Generic over a concrete type for the same reason as `firstWorkload`.
private func raceWorkload<Subject: OnceSubject>(_: Subject.Type, threads: Int, tokensPerTable: Int) -> Workload {
    let threadTokens = (0..<threads).map { _ in Subject.makeTokens(tokensPerTable) }
    let fresh = FreshTables<Subject>()
    let barrier = RoundBarrier(parties: threads)
    return Workload(pacing: .lockstep, prepare: { rounds in
        fresh.renew(count: (rounds + tokensPerTable - 1) / tokensPerTable, tokens: tokensPerTable)
    }) { worker, rounds in
        let tables = fresh.unmanaged, tokens = threadTokens[worker.index]
        var slot = 0
        var table = 0
        for _ in 0..<rounds {
            barrier.arriveAndWait()
            let started = MonotonicClock.now()
            tables[table]._withUnsafeGuaranteedRef { $0.once(token: tokens[slot]) {} }
            worker.recordLatency(nanoseconds: MonotonicClock.now() - started)
            slot += 1
            if slot == tokensPerTable {
                slot = 0
                table += 1
            }
        }
    }
}

/// `once/race` without the call: what the barrier and the two clock reads cost per round.
private func barrierOnlyWorkload(threads: Int) -> Workload {
    let barrier = RoundBarrier(parties: threads)
    return Workload(pacing: .lockstep) { worker, rounds in
        for _ in 0..<rounds {
            barrier.arriveAndWait()
            let started = MonotonicClock.now()
            worker.recordLatency(nanoseconds: MonotonicClock.now() - started)
        }
    }
}
