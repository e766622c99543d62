import BenchCore
import BenchSuites
import Synchronization
import Testing
import VariantRegistration

/// Every case a run can measure can be set up, measured and torn down: each case of the registry, at threads 1
/// and 2 (and at the fixed counts of the benchmarks that fix theirs), runs one very short sample. Nothing here
/// asserts how fast anything is; a case passes when its operation ran on the harness's threads and its result
/// has the shape of a sample. A thread need not complete a batch inside so short a window (an iteration of a
/// fan-out can outlast it, and a loaded machine may not run every thread in it), so per-thread counts of zero
/// are allowed; a window with no operation at all must then say so with an infinite ns/op. Serialized: cases
/// run one at a time, as in a real run.
@Suite(.serialized) struct RegistrySmokeTests {
    static let registry = Registrations.registry(adding: [])
    static let cases = registry.cases(threads: [1, 2]).map(\.benchmarkCase)
    /// One sample of 0.1 ms after no warm-up: enough to set a case up, calibrate it and run it once.
    static let settings = MeasurementSettings(sampleNanoseconds: 100_000, samples: 1, warmupSamples: 0)

    @Test(arguments: cases)
    func setsUpRunsOneSampleAndTearsDown(_ benchmarkCase: BenchmarkCase) async throws {
        let benchmark = try #require(Self.registry.benchmarks.first {
            $0.suite == benchmarkCase.suite && $0.name == benchmarkCase.benchmark
                && $0.variants.contains(benchmarkCase.variant)
        })
        // Set up, measured and torn down on a plain thread: a sample must not hold a cooperative-pool thread.
        let (results, iterationsRun, pacing) = try await onPlainThread { () throws -> ([CaseResult], Int, Workload.Pacing) in
            var workload = benchmark.setup(benchmarkCase)
            let iterationsRun = Mutex(0)
            let body = workload.body
            workload.body = { worker, iterations in
                body(worker, iterations)
                iterationsRun.withLock { $0 += iterations }
            }
            let results = try CaseRunner(settings: Self.settings).measure(benchmarkCase, workload: workload)
            return (results, iterationsRun.withLock { $0 }, workload.pacing)
        }
        #expect(iterationsRun > 0, "\(benchmarkCase): the operation never ran")
        #expect(!results.isEmpty)
        for result in results {
            let role = result.role.map { " role=\($0)" } ?? ""
            try #require(result.samples.count == 1)
            let sample = result.samples[0]
            #expect(!sample.threadOperations.isEmpty, "\(benchmarkCase)\(role): no thread reported")
            #expect(sample.operations == sample.threadOperations.reduce(0, +))
            // A timed window lasts the sample time by construction; a lockstep count is calibrated so that its
            // fastest run reached it, and a later, warmer run may be quicker.
            #expect(pacing == .lockstep ? sample.elapsedNanoseconds > 0
                                                 : sample.elapsedNanoseconds >= Self.settings.sampleNanoseconds,
                    "\(benchmarkCase)\(role): \(sample.elapsedNanoseconds) ns")
            #expect(sample.nanosecondsPerOperation.isFinite == (sample.operations > 0), "\(benchmarkCase)\(role)")
        }
    }

    @Test func everyBenchmarkIsCovered() {
        let covered = Set(Self.cases.map { "\($0.suite)/\($0.benchmark)" })
        let registered = Set(Self.registry.benchmarks.map { "\($0.suite)/\($0.name)" })
        #expect(covered == registered)
    }
}
