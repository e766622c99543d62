import BenchCore
import BenchSuites
import SyncVariants
import VariantCatalog

extension Bench.SelfCheck {
    /// The two sample times whose medians must agree.
    static let shortSampleNanoseconds: UInt64 = 2_000_000
    static let longSampleNanoseconds: UInt64 = 50_000_000
    /// How far a median at the short sample time may stray from the one at the long sample time.
    static let sampleLengthTolerance = 0.15
    /// The least median fairness of a read-only hit path at 8 threads at the short sample time.
    static let minimumFairness = 0.5
    /// The thread counts of the sample-length sweep: one thread, every core, oversubscribed.
    static let sweepThreads = [1, 2, 8]

    /// The cases whose figures must not depend on the sample length: the harness's, every once hit at one
    /// token, and the lock-based isolation stores (no GCD pool behind them) at all reads and all writes.
    static func sampleLengthCases() -> [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)] {
        BenchmarkRegistry.all().cases(threads: sweepThreads, matching: { _ in true }).filter { benchmarkCase, _ in
            switch (benchmarkCase.suite, benchmarkCase.benchmark) {
            case ("harness", _): true
            case ("once", "hit"): benchmarkCase.parameters["tokens"] == 1
            case ("isolation", "mixed"):
                [0, 100].contains(benchmarkCase.parameters["read_pct"])
                    && IsolationVariant(rawValue: benchmarkCase.variant)?.accept(IsLockStore()) == true
            default: false
            }
        }
    }

    /// Every sample-length case at the long and short sample times in turn (long, short, long, short, long),
    /// on one thread team and workload, each turn the same measured time (`CaseRunner.measure(_:workload:
    /// sampleTimes:)`: 3 samples of 50 ms, or some 75 of 2 ms): how far the short
    /// samples' pooled cost falls outside the range of the three long runs' pooled costs. A case whose long runs
    /// themselves move (contended locks switch between levels) widens its own range, so only what the sample
    /// length does is graded. Also the fairness of the read-only hit paths at 8 threads at the short sample time.
    ///
    /// The pooled cost (all the samples' wall time over all their operations) is what a harness that skews
    /// short samples (a start-up cost, late starters) would inflate. The median is not graded: a contended
    /// lock runs in phases a few milliseconds long (one thread keeps the lock, or it changes hands through the
    /// kernel), so most 2 ms windows fall in a fast phase and a few in a slow one, and their median is lower
    /// than that of 50 ms windows, which each average over phases, while the pooled costs agree.
    func sampleLength() throws -> [SelfCheckResult] {
        var worst: (name: String, short: Double, nearestLong: Double)?
        var fairness: [(name: String, value: Double)] = []
        for (benchmarkCase, benchmark) in Self.sampleLengthCases() {
            let turns = (0..<5).map { $0 % 2 == 0 ? Self.longSampleNanoseconds : Self.shortSampleNanoseconds }
            let settings = MeasurementSettings(sampleNanoseconds: Self.longSampleNanoseconds, samples: 3, warmupSamples: 1)
            let results = try CaseRunner(settings: settings)
                .measure(benchmarkCase, workload: benchmark.setup(benchmarkCase), sampleTimes: turns)
            let long = zip(turns, results).filter { $0.0 == Self.longSampleNanoseconds }.map { Self.pooledCost([$0.1]) }
            let short = zip(turns, results).filter { $0.0 == Self.shortSampleNanoseconds }.map(\.1)
            let shortCost = Self.pooledCost(short)
            let nearest = min(max(shortCost, long.min()!), long.max()!)
            if worst.map({ abs(shortCost / nearest - 1) > abs($0.short / $0.nearestLong - 1) }) ?? true {
                worst = (benchmarkCase.description, shortCost, nearest)
            }
            if benchmarkCase.threads == 8, Self.readOnlyHits.contains(benchmarkCase.path) {
                let fair = short.flatMap { $0.samples.compactMap(\.fairness) }
                fairness.append((benchmarkCase.description, Statistics(fair)!.median))
            }
        }
        guard let worst, let leastFair = fairness.min(by: { $0.value < $1.value }) else {
            throw BenchError("the sample-length sweep selected no case")
        }
        return [
            .agreement("sample-length (worst of \(Self.sampleLengthCases().count) cases: \(worst.name))",
                       reference: .init(label: "nearest \(Self.longSampleNanoseconds / 1_000_000) ms pooled",
                                        nanoseconds: worst.nearestLong),
                       measured: .init(label: "\(Self.shortSampleNanoseconds / 1_000_000) ms pooled",
                                       nanoseconds: worst.short),
                       tolerance: Self.sampleLengthTolerance),
            SelfCheckResult(
                name: "fairness (least fair: \(leastFair.name))",
                measurements: [],
                tolerance: String(format: "≥ %.2f", Self.minimumFairness),
                finding: String(format: "median fairness %.2f at %d ms samples", leastFair.value,
                                Self.shortSampleNanoseconds / 1_000_000),
                passed: leastFair.value >= Self.minimumFairness),
        ]
    }

    /// All the samples' wall time over all their operations: the cost per operation over the whole measured
    /// time, whatever the samples' lengths.
    static func pooledCost(_ results: [CaseResult]) -> Double {
        let samples = results.flatMap(\.samples)
        let operations = samples.reduce(0) { $0 + $1.operations }
        let elapsed = samples.reduce(0.0) { $0 + Double($1.elapsedNanoseconds) }
        return operations == 0 ? .infinity : elapsed / Double(operations)
    }

    /// The read-only hit paths whose threads share nothing they write: every thread should get its share.
    static let readOnlyHits: Set<String> = Set(
        [OnceVariant.lazyStatic, .atomicFlag, .pthreadOnce].map { "once/hit/\($0.rawValue)" })
}

/// True for the isolation stores behind a lock, which no GCD queue or pool serves.
private struct IsLockStore: IsolationVariantVisitor {
    func queueStore<Store: QueueStore>(_ type: Store.Type) -> Bool { false }
    func lockStore<Store: LockStore>(_ type: Store.Type) -> Bool { true }
    func actor(_ type: ActorStore.Type) -> Bool { false }
}
