import BenchCore
import BenchSuites
import Testing

/// Every case a run can measure can be set up, measured and torn down: each case of the registry, at threads 1
/// and 2 (and at the fixed counts of the benchmarks that fix theirs), runs one very short sample. Nothing here
/// asserts how fast anything is; a case passes when every thread completed work and the sample has a finite
/// ns/op. Serialized: cases run one at a time, as in a real run.
@Suite(.serialized) struct RegistrySmokeTests {
    static let registry = BenchmarkRegistry.all()
    static let cases = registry.cases(threads: [1, 2]).map(\.benchmarkCase)
    /// One sample of 0.1 ms after no warm-up: enough to set a case up, calibrate it and run it once.
    static let settings = MeasurementSettings(sampleNanoseconds: 100_000, samples: 1, warmupSamples: 0)

    @Test(arguments: cases)
    func setsUpRunsOneSampleAndTearsDown(_ benchmarkCase: BenchmarkCase) throws {
        let benchmark = try #require(Self.registry.benchmarks.first {
            $0.suite == benchmarkCase.suite && $0.name == benchmarkCase.benchmark
        })
        let results = try CaseRunner(settings: Self.settings).measure(benchmarkCase, workload: benchmark.setup(benchmarkCase))
        #expect(!results.isEmpty)
        for result in results {
            let role = result.role.map { " role=\($0)" } ?? ""
            try #require(result.samples.count == 1)
            let sample = result.samples[0]
            #expect(!sample.threadOperations.isEmpty && sample.threadOperations.allSatisfy { $0 >= 1 },
                    "\(benchmarkCase)\(role): operations per thread \(sample.threadOperations)")
            #expect(sample.nanosecondsPerOperation.isFinite, "\(benchmarkCase)\(role): no operation completed")
        }
    }

    @Test func everyBenchmarkIsCovered() {
        let covered = Set(Self.cases.map { "\($0.suite)/\($0.benchmark)" })
        let registered = Set(Self.registry.benchmarks.map { "\($0.suite)/\($0.name)" })
        #expect(covered == registered)
    }
}
