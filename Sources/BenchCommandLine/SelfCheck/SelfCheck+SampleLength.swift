import BenchCore
import BenchSuites
import Foundation
import VariantCatalog
import VariantRegistration

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
        Registrations.registry().cases(threads: sweepThreads, matching: { _ in true }).filter { benchmarkCase, _ in
            switch (benchmarkCase.suite, benchmarkCase.benchmark) {
            case ("harness", _): true
            case ("once", "hit"): benchmarkCase.parameters["tokens"] == 1
            case ("isolation", "mixed"):
                [0, 100].contains(benchmarkCase.parameters["read_pct"])
                    && builtInLockStores.contains(benchmarkCase.variant)
            default: false
            }
        }
    }

    /// After how many pairs of turns (one long, one short) a case's comparison is looked at; it stops at the
    /// first look that decides it, and the last look is final. Steady cases are decided at the first look; a
    /// contended lock whose turns move by tens of percent may take every pair.
    static let pairsAtEachLook = [4, 8, 16, 32, 64]

    /// Every sample-length case at the long and short sample times in turn (long, short, long, short, …), on
    /// one thread team and workload, each turn the same measured time (`CaseRunner.measure(_:workload:
    /// nextSampleTime:)`: one sample of 50 ms, or 25 of 2 ms), until the `CostRatio` of the turns' pooled
    /// costs decides whether the short samples' cost is within the tolerance of the long ones' (or the last look
    /// is reached). Passes when every case is shown within it: a case the turns could not decide is not passed.
    /// Also the fairness of the read-only hit paths at 8 threads at the short sample time.
    ///
    /// The pooled cost (all the samples' wall time over all their operations) is what a harness that skews
    /// short samples (a start-up cost, late starters) would inflate. The median is not graded: a contended
    /// lock runs in phases a few milliseconds long (one thread keeps the lock, or it changes hands through the
    /// kernel), so most 2 ms windows fall in a fast phase and a few in a slow one, and their median is lower
    /// than that of 50 ms windows, which each average over phases, while the pooled costs agree.
    func sampleLength() throws -> [SelfCheckResult] {
        var compared: [(name: String, pairs: Int, comparison: CostRatio)] = []
        var fairness: [(name: String, value: Double)] = []
        let settings = Self.turnSettings
        let cases = Self.sampleLengthCases()
        let started = MonotonicClock.now()
        for (index, (benchmarkCase, benchmark)) in cases.enumerated() {
            var comparison: CostRatio?
            let results = try CaseRunner(settings: settings).measure(
                benchmarkCase, workload: benchmark.setup(benchmarkCase)
            ) { done in
                let pairs = done.count / 2
                if done.count % 2 == 0, Self.pairsAtEachLook.contains(pairs) {
                    let turns = Self.pooledTurnCosts(done)
                    comparison = CostRatio(measured: turns.short, reference: turns.long)
                    if comparison!.verdict(tolerance: Self.sampleLengthTolerance) != .undecided
                        || pairs == Self.pairsAtEachLook.last { return nil }
                }
                return done.count % 2 == 0 ? Self.longSampleNanoseconds : Self.shortSampleNanoseconds
            }
            compared.append((benchmarkCase.description, results.count / 2, comparison!))
            if results.count / 2 > Self.pairsAtEachLook[0] {
                print("  sample-length \(benchmarkCase.description): short/long \(comparison!.description) "
                      + "after \(results.count / 2) pairs of turns")
            }
            if Self.measuresFairness(benchmarkCase) {
                fairness.append((benchmarkCase.description, try Self.shortSampleFairness(benchmarkCase, benchmark)))
            }
            let elapsed = Double(MonotonicClock.now() - started) / 1e9
            warn(Self.progressLine(benchmarkCase, index: index, of: cases.count, pairs: results.count / 2,
                                   comparison: comparison!, elapsedSeconds: elapsed))
        }
        guard let widest = compared.max(by: { abs(log($0.comparison.estimate)) < abs(log($1.comparison.estimate)) }),
              let leastFair = fairness.min(by: { $0.value < $1.value })
        else { throw BenchError("the sample-length sweep selected no case") }
        return [
            Self.sampleLengthResult(compared.map { ($0.name, $0.comparison) }, widest: widest),
            SelfCheckResult(
                name: "fairness (least fair: \(leastFair.name))",
                measurements: [],
                tolerance: String(format: "≥ %.2f", Self.minimumFairness),
                finding: String(format: "median fairness %.2f at %d ms samples", leastFair.value,
                                Self.shortSampleNanoseconds / 1_000_000),
                passed: leastFair.value >= Self.minimumFairness),
        ]
    }

    /// How the sweep measures a case: a warm-up sample of 50 ms, then turns of 50 ms each (one sample of 50 ms,
    /// or 25 of 2 ms).
    static let turnSettings = MeasurementSettings(sampleNanoseconds: longSampleNanoseconds, samples: 1,
                                                  warmupSamples: 1)
    /// How a fairness case is measured besides: a warm-up, then 150 ms of 2 ms samples on one launch.
    static let fairnessSettings = MeasurementSettings(sampleNanoseconds: longSampleNanoseconds, samples: 3,
                                                      warmupSamples: 1)

    /// Whether the sweep also measures `benchmarkCase`'s fairness: a read-only hit path at 8 threads.
    static func measuresFairness(_ benchmarkCase: BenchmarkCase) -> Bool {
        benchmarkCase.threads == 8 && readOnlyHits.contains(benchmarkCase.path)
    }

    /// The least and the most time the sweep spends in timed samples on `cases`, from its plan: each case's
    /// warm-up and its pairs of turns, up to the first look (every case decided there) or to the last (none
    /// decided before it), and the fairness cases' own samples. Calibration and setup come on top.
    static func sweepSeconds(_ cases: [BenchmarkCase]) -> ClosedRange<Double> {
        func seconds(_ settings: MeasurementSettings, samples: Int) -> Double {
            Double(settings.warmupSamples + samples) * Double(settings.sampleNanoseconds) / 1e9
        }
        let fairness = Double(cases.filter(measuresFairness).count)
            * seconds(fairnessSettings, samples: fairnessSettings.samples)
        let fewest = seconds(turnSettings, samples: 2 * pairsAtEachLook.first!)
        let most = seconds(turnSettings, samples: 2 * pairsAtEachLook.last!)
        return Double(cases.count) * fewest + fairness...Double(cases.count) * most + fairness
    }

    /// The line on stderr as the sweep finishes a case: which, of how many, what its turns decided after how many
    /// pairs, and a rough estimate of the time left (the mean time per case so far, times the cases to come).
    static func progressLine(_ benchmarkCase: BenchmarkCase, index: Int, of total: Int, pairs: Int,
                             comparison: CostRatio, elapsedSeconds: Double) -> String {
        let decided = switch comparison.verdict(tolerance: sampleLengthTolerance) {
        case .within: "within"
        case .outside: "beyond"
        case .undecided: "undecided"
        }
        let left = index + 1 < total
            ? ", ~\(Progress.duration(elapsedSeconds / Double(index + 1) * Double(total - index - 1))) left" : ""
        return "  [\(index + 1)/\(total)] sample-length \(benchmarkCase): short/long \(comparison.description) "
            + "\(decided) after \(pairs) pairs\(left)"
    }

    /// The median fairness of `benchmarkCase`'s short samples over 150 ms on one launch of its threads. Its own
    /// measurement, not the sample-length turns': a turn of 50 ms holds only two windows at 8 threads (a window
    /// spans two scheduler rotations), each close to the threads' launch, when they start one after another.
    static func shortSampleFairness(_ benchmarkCase: BenchmarkCase, _ benchmark: Benchmark) throws -> Double {
        let settings = fairnessSettings
        let short = try CaseRunner(settings: settings)
            .measure(benchmarkCase, workload: benchmark.setup(benchmarkCase), sampleTimes: [shortSampleNanoseconds])
        return Statistics(short[0].samples.compactMap(\.fairness))!.median
    }

    /// The sample-length check's line: how many cases were shown within the tolerance, the ones shown beyond it
    /// or left undecided, and the case whose estimate strayed furthest.
    static func sampleLengthResult(_ compared: [(name: String, comparison: CostRatio)],
                                   widest: (name: String, pairs: Int, comparison: CostRatio)) -> SelfCheckResult {
        func names(_ verdict: CostRatio.Verdict) -> [String] {
            compared.filter { $0.comparison.verdict(tolerance: sampleLengthTolerance) == verdict }
                .map { "\($0.name) \($0.comparison.description)" }
        }
        let outside = names(.outside), undecided = names(.undecided)
        var finding = "\(compared.count - outside.count - undecided.count) of \(compared.count) cases shown within "
            + "(95% interval of short/long); furthest: \(widest.name) \(widest.comparison.description) after "
            + "\(widest.pairs) pairs"
        if !outside.isEmpty { finding += "; beyond: " + outside.joined(separator: ", ") }
        if !undecided.isEmpty { finding += "; undecided after \(pairsAtEachLook.last!) pairs: " + undecided.joined(separator: ", ") }
        return SelfCheckResult(
            name: "sample-length (\(shortSampleNanoseconds / 1_000_000) ms against \(longSampleNanoseconds / 1_000_000) ms)",
            measurements: [],
            tolerance: SelfCheckResult.toleranceDescription(sampleLengthTolerance),
            finding: finding,
            passed: outside.isEmpty && undecided.isEmpty)
    }

    /// Each turn's pooled cost, long turns (even places) and short ones (odd places) apart.
    static func pooledTurnCosts(_ turns: [CaseResult]) -> (long: [Double], short: [Double]) {
        let costs = turns.map { pooledCost([$0]) }
        return (costs.indices.filter { $0 % 2 == 0 }.map { costs[$0] },
                costs.indices.filter { $0 % 2 == 1 }.map { costs[$0] })
    }

    /// All the samples' wall time over all their operations: the cost per operation over the whole measured
    /// time, whatever the samples' lengths.
    static func pooledCost(_ results: [CaseResult]) -> Double {
        let samples = results.flatMap(\.samples)
        let operations = samples.reduce(0) { $0 + $1.operations }
        let elapsed = samples.reduce(0.0) { $0 + Double($1.elapsedNanoseconds) }
        return operations == 0 ? .infinity : elapsed / Double(operations)
    }

    /// The built-in isolation stores behind a lock, which no GCD queue or pool serves: those whose lock can be taken
    /// bare.
    static let builtInLockStores: Set<String> = Set(Variant.builtIn.filter { variant in
        if case .lock = variant.subject { variant.suite == IsolationVariant.suite } else { false }
    }.map(\.id))

    /// The read-only hit paths whose threads share nothing they write: every thread should get its share.
    static let readOnlyHits: Set<String> = Set(
        [OnceVariant.lazyStatic, .atomicFlag, .pthreadOnce].map { "once/hit/\($0.rawValue)" })
}
