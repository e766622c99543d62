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

    /// Every sample-length case at both sample times: the worst disagreement of their medians, and the
    /// fairness of the read-only hit paths at 8 threads at the short sample time.
    func sampleLength() throws -> [SelfCheckResult] {
        var worst: (name: String, short: Double, long: Double)?
        var fairness: [(name: String, value: Double)] = []
        for (benchmarkCase, benchmark) in Self.sampleLengthCases() {
            let short = try measure(benchmarkCase, benchmark, sampleNanoseconds: Self.shortSampleNanoseconds)
            let long = try measure(benchmarkCase, benchmark, sampleNanoseconds: Self.longSampleNanoseconds)
            let shortMedian = short.nanosecondsPerOperation!.median, longMedian = long.nanosecondsPerOperation!.median
            if worst.map({ abs(shortMedian / longMedian - 1) > abs($0.short / $0.long - 1) }) ?? true {
                worst = (benchmarkCase.description, shortMedian, longMedian)
            }
            if benchmarkCase.threads == 8, Self.readOnlyHits.contains(benchmarkCase.path) {
                fairness.append((benchmarkCase.description, Statistics(short.samples.compactMap(\.fairness))!.median))
            }
        }
        guard let worst, let leastFair = fairness.min(by: { $0.value < $1.value }) else {
            throw BenchError("the sample-length sweep selected no case")
        }
        return [
            .agreement("sample-length (worst: \(worst.name))",
                       reference: .init(label: "\(Self.longSampleNanoseconds / 1_000_000) ms samples",
                                        nanoseconds: worst.long),
                       measured: .init(label: "\(Self.shortSampleNanoseconds / 1_000_000) ms samples",
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

    /// The read-only hit paths whose threads share nothing they write: every thread should get its share.
    static let readOnlyHits: Set<String> = Set(
        [OnceVariant.lazyStatic, .atomicFlag, .pthreadOnce].map { "once/hit/\($0.rawValue)" })

    private func measure(_ benchmarkCase: BenchmarkCase, _ benchmark: Benchmark,
                         sampleNanoseconds: UInt64) throws -> CaseResult {
        let settings = MeasurementSettings(sampleNanoseconds: sampleNanoseconds, samples: 5, warmupSamples: 1)
        return try CaseRunner(settings: settings).measure(benchmarkCase, workload: benchmark.setup(benchmarkCase))[0]
    }
}

/// True for the isolation stores behind a lock, which no GCD queue or pool serves.
private struct IsLockStore: IsolationVariantVisitor {
    func queueStore<Store: QueueStore>(_ type: Store.Type) -> Bool { false }
    func lockStore<Store: LockStore>(_ type: Store.Type) -> Bool { true }
    func actor(_ type: ActorStore.Type) -> Bool { false }
}
