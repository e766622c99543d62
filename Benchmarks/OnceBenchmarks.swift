import BenchCore
import SyncVariants
import VariantCatalog

extension BenchmarkRegistry {
    /// Adds a once table brought from outside to the once suite, under the CSV id `variant`: `once/hit`,
    /// `once/first` and `once/race` with the catalog's tables' parameters and thread counts. `once/hit` sweeps the
    /// registered tokens when `Table`'s tokens are strings (a table that looks them up), as for the catalog's.
    ///
    /// `@inlinable`, so that the timed loops are compiled in the caller's module for the concrete `Table`.
    @inlinable
    package mutating func addOnceBenchmarks<Table: OnceTable>(variant: String, _: Table.Type) {
        let sweepsTokens = Table.Token.self == String.self
        for benchmark in OnceBenchmark.allCases {
            add(Benchmark(suite: OnceBenchmark.suite, name: benchmark.rawValue, variants: [variant],
                          parameters: benchmark.parameters, threadCounts: benchmark.threadCounts,
                          includes: { benchmark.includes($0, sweepsTokens: sweepsTokens) }) { benchmarkCase in
                benchmark.workload(Table.self, benchmarkCase)
            })
        }
    }

    /// Adds Swift's `static let` under the CSV id `variant`: `once/hit` reads a real static, through a function
    /// that is not inlined, so that every read pays the call and the accessor's `swift_once` check; `once/first`
    /// and `once/race` make the same runtime call on fresh predicates (`LazyStatic` as a table), since a program
    /// cannot make new statics at run time. Package access: a `static let` is compiled into the module that
    /// declares it, so no package can hand one over at run time.
    package mutating func addStaticLetBenchmarks(variant: String) {
        for benchmark in OnceBenchmark.allCases {
            add(Benchmark(suite: OnceBenchmark.suite, name: benchmark.rawValue, variants: [variant],
                          parameters: benchmark.parameters, threadCounts: benchmark.threadCounts,
                          includes: { benchmark.includes($0, sweepsTokens: false) }) { benchmarkCase in
                benchmark == .hit ? lazyStaticHitWorkload() : benchmark.workload(LazyStatic.self, benchmarkCase)
            })
        }
    }

    /// Adds the seed's call-site `once { … }` under the CSV id `variant`, to `once/hit` alone, sweeping the tokens
    /// registered before it: its token is built from `#file`, `#function` and `#line` on every call, so beyond
    /// `set-tracker` all it adds is building that string, which `hit` shows. Package access: the call site is
    /// DispatchBench's own.
    package mutating func addCallSiteOnceBenchmark(variant: String) {
        let hit = OnceBenchmark.hit
        add(Benchmark(suite: OnceBenchmark.suite, name: hit.rawValue, variants: [variant], parameters: hit.parameters,
                      threadCounts: hit.threadCounts,
                      includes: { hit.includes($0, sweepsTokens: true) }) { benchmarkCase in
            autoTokenHitWorkload(tokens: benchmarkCase[parameter: "tokens"])
        })
    }

    /// Adds `once/race` without the once call, under the CSV id `variant`: the round barrier and the two clock
    /// reads, to subtract from the other `once/race` rows. Package access: a baseline of the suite, not a variant
    /// anyone brings.
    package mutating func addRaceBaselineBenchmark(variant: String) {
        let race = OnceBenchmark.race
        add(Benchmark(suite: OnceBenchmark.suite, name: race.rawValue, variants: [variant], parameters: race.parameters,
                      threadCounts: race.threadCounts) { benchmarkCase in
            barrierOnlyWorkload(threads: benchmarkCase.threads)
        })
    }
}

/// What the once suite's three benchmarks (named in VariantCatalog's `OnceBenchmark`) measure: their parameters,
/// thread counts and the cases they include, for every once registered: what each way of running code once costs,
/// how it grows with registered tokens and with threads. Variants are in `Sources/SyncVariants/Once/`;
/// docs/suites.md says how to read them.
///
/// - `once/hit`: a call whose block has already run, the path every later call takes. The variants with a
///   token table (string tokens, looked up among those registered) first register `tokens` tokens and then look
///   up the last one registered (the array's worst case); the others run with `tokens=1` only. All threads hit the same token
///   of the same table.
/// - `once/first`: the first call for a fresh token: registration plus an empty block. Threads register
///   distinct tokens into a shared table; a fresh table is taken every `tokens` registrations, so a token is
///   registered into a table already holding between 0 and `tokens - 1` others (half on average) whatever
///   the sample length. The tables are made by `prepare`, outside the timed region.
/// - `once/race`: every round, all threads meet at a `RoundBarrier` and call once on the same fresh token;
///   the round ends when every caller has returned (the next round's barrier waits for all). `ns_per_op` is
///   a round divided by the threads (a round lasts `ns_per_op × threads`); the latency percentiles are of
///   single racing calls, barrier excluded. `barrier-only` runs the rounds without the call: subtract it.
///
/// Which benchmarks a variant joins is its registration's to say (`Variant.once(_:_:)` joins all three).
extension OnceBenchmark {
    @usableFromInline static let suite = OnceVariant.suite

    @usableFromInline var parameters: KeyValuePairs<String, [Int]> {
        switch self {
        case .hit: ["tokens": [1, 10, 100, 1_000, 10_000]]
        case .first, .race: ["tokens": [100]]
        }
    }

    @usableFromInline var threadCounts: Benchmark.ThreadCounts {
        switch self {
        case .hit: .swept
        case .first: .fixed([1, 4])
        case .race: .fixed([2, 8])
        }
    }

    /// The workload of this benchmark for a once table, made fresh for `benchmarkCase`.
    @inlinable
    func workload<Table: OnceTable>(_: Table.Type, _ benchmarkCase: BenchmarkCase) -> Workload {
        let tokens = benchmarkCase[parameter: "tokens"]
        switch self {
        case .hit: return hitWorkload(Table.self, tokens: tokens)
        case .first: return firstWorkload(Table.self, threads: benchmarkCase.threads, tokensPerTable: tokens)
        case .race: return raceWorkload(Table.self, threads: benchmarkCase.threads, tokensPerTable: tokens)
        }
    }

    /// A hit sweeps the registered tokens only for a variant that looks its token up among them.
    @usableFromInline func includes(_ benchmarkCase: BenchmarkCase, sweepsTokens: Bool) -> Bool {
        self != .hit || sweepsTokens || benchmarkCase[parameter: "tokens"] == 1
    }
}

// MARK: - once/hit

/// Registers `tokens` tokens, then times calls for the last one registered.
@inlinable
func hitWorkload<Subject: OnceTable>(_: Subject.Type, tokens count: Int) -> Workload {
    let tokens = Subject.makeTokens(count)
    let table = Subject.makeTable(tokens: count)
    for token in tokens { table.once(token: token) {} }
    let last = tokens[count - 1]
    return Workload { _, iterations in
        for _ in 0..<iterations { table.once(token: last) {} }
    }
}

/// The seed's call shape: one call site, so one token, built from its file, function and line on every call.
///
/// The token string is this case's input: how long the tracker's set takes to find it among `tokens` others
/// depends on its hash, so on the line number in it. The call site passes the values `#file`, `#function` and
/// `#line` had here when the case's figures were first taken, as literals (what a default argument passes too),
/// so that an edit above this line changes nothing measured.
private func autoTokenCallSite(_ tracker: AutoTokenOnce) {
    tracker.once(file: "BenchSuites/OnceBenchmarks.swift", function: "autoTokenCallSite(_:)", line: 141) {}
}

/// Registers `tokens - 1` explicit tokens and then the call site's, and times calls from that call site.
private func autoTokenHitWorkload(tokens count: Int) -> Workload {
    let tracker = AutoTokenOnce()
    for token in AutoTokenOnce.makeTokens(count - 1) { tracker.once(token: token) {} }
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
@usableFromInline
final class FreshTables<Subject: OnceTable>: @unchecked Sendable {
    /// Owns the tables.
    @usableFromInline var tables: [Subject] = []
    /// The same tables, for the timed loops: calling through `Unmanaged` does not retain and release the
    /// shared table around every call (an atomic write to a cache line that every thread shares).
    @usableFromInline var unmanaged: [Unmanaged<Subject>] = []

    @inlinable init() {}

    /// Replaces the tables with `count` fresh ones of `tokens` tokens each.
    @inlinable
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
@inlinable
func firstWorkload<Subject: OnceTable>(_: Subject.Type, threads: Int, tokensPerTable: Int) -> Workload {
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
@inlinable
func raceWorkload<Subject: OnceTable>(_: Subject.Type, threads: Int, tokensPerTable: Int) -> Workload {
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
