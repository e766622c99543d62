@testable import BenchCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing

/// The harness's contracts: real distinct threads, samples as long as asked, roles and drains accounted for.
/// None of these asserts how fast anything is.
@Suite(.serialized) struct CaseRunnerTests {
    static let settings = MeasurementSettings(sampleNanoseconds: 2_000_000, samples: 3, warmupSamples: 1)
    static let benchmarkCase = BenchmarkCase(suite: "test", benchmark: "case", variant: "v", threads: 1)

    static func testCase(threads: Int) -> BenchmarkCase {
        BenchmarkCase(suite: "test", benchmark: "case", variant: "v", threads: threads)
    }

    @Test(arguments: [1, 3, 8])
    func everyThreadIsADistinctThreadInsideTheRegionAtOnce(threads: Int) async throws {
        let rendezvous = Rendezvous(expected: threads)
        let workload = Workload(pacing: .lockstep) { _, iterations in
            for _ in 0..<iterations { rendezvous.arriveAndWait() }
        }
        let sample = await onPlainThread {
            let session = Session(workload: workload, threads: threads)
            defer { session.finish() }
            return session.lockstep(iterations: 1)
        }
        #expect(rendezvous.maximumInside == threads, "all \(threads) threads were inside the timed run together")
        #expect(rendezvous.distinctThreads == threads)
        #expect(!rendezvous.timedOut)
        #expect(sample.threadOperations == Array(repeating: 1, count: threads))
    }

    @Test func lockstepCalibrationMeetsTheSampleTimeOnTheQuickestThread() async throws {
        let runner = CaseRunner(settings: Self.settings)
        let workload = Workload(pacing: .lockstep) { _, iterations in
            for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
        }
        let calibration = await onPlainThread {
            let session = Session(workload: workload, threads: 2)
            defer { session.finish() }
            return runner.calibrateLockstep(session)
        }
        #expect(calibration.targetNanoseconds == Self.settings.sampleNanoseconds)
        #expect(calibration.elapsedNanoseconds >= Self.settings.sampleNanoseconds)
        let results = try await runner.measuredOffPool(Self.testCase(threads: 2), workload: workload)
        #expect(results.count == 1)
        #expect(results[0].samples.count == Self.settings.samples)
        #expect(results[0].samples.allSatisfy { $0.threadOperations.count == 2 && $0.threadOperations[0] == $0.threadOperations[1] })
    }

    @Test func timedBatchesAreCalibratedOnOneThreadAlone() async {
        let (batches, threadsThatRan) = await Self.calibratedBatchesOfThreeThreads(role: nil)
        #expect(batches.count == 3 && Set(batches).count == 1 && batches[0] >= 1)
        #expect(threadsThatRan == [0], "only thread 0 ran: the batch is one thread's cost")
    }

    @Test func eachRoleGetsTheBatchOfItsFirstThread() async {
        let (batches, threadsThatRan) = await Self.calibratedBatchesOfThreeThreads(role: { $0 == 1 ? "write" : "read" })
        #expect(batches.count == 3 && batches[0] == batches[2])
        #expect(threadsThatRan == [0, 1])
    }

    /// Calibrates the batches of a 3-thread session of a loop that does nothing but count, its threads given
    /// `role`; returns the batches and the index of every thread the calibration ran.
    static func calibratedBatchesOfThreeThreads(
        role: (@Sendable (_ threadIndex: Int) -> String)?
    ) async -> (batches: [Int], threadsThatRan: Set<Int>) {
        let threadsThatRan = Mutex<Set<Int>>([])
        let workload = Workload(role: role) { worker, iterations in
            threadsThatRan.withLock { _ = $0.insert(worker.index) }
            for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
        }
        let batches = await onPlainThread {
            let session = Session(workload: workload, threads: 3)
            defer { session.finish() }
            return CaseRunner(settings: Self.settings).calibrateBatches(session).map(\.iterations)
        }
        return (batches, threadsThatRan.withLock { $0 })
    }

    @Test func timedWindowsLastAtLeastTheSampleTimeAndCountOnlyWhatRanInThem() async throws {
        let executed = Atomic<Int>(0)
        let runner = CaseRunner(settings: Self.settings)
        let workload = Workload { _, iterations in
            for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
            executed.add(iterations, ordering: .relaxed)
        }
        let results = try await runner.measuredOffPool(Self.testCase(threads: 3), workload: workload)
        let samples = results[0].samples
        #expect(samples.count == Self.settings.samples)
        for sample in samples {
            #expect(sample.elapsedNanoseconds >= Self.settings.sampleNanoseconds)
            #expect(sample.threadOperations.count == 3)
            #expect(sample.operations == sample.threadOperations.reduce(0, +))
        }
        // Workers run before the window opens and after it closes, unmeasured.
        #expect(samples.reduce(0) { $0 + $1.operations } < executed.load(ordering: .relaxed))
    }

    @Test func aTimedDrainRunsInsideTheWindow() async throws {
        let drainNanoseconds: UInt64 = 5_000_000
        let workload = Workload(drain: {
            MonotonicClock.sleep(until: MonotonicClock.now() + drainNanoseconds)
        }) { _, iterations in
            for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
        }
        let samples = try await CaseRunner(settings: Self.settings).measuredOffPool(Self.benchmarkCase, workload: workload)[0].samples
        #expect(samples.allSatisfy { $0.elapsedNanoseconds >= Self.settings.sampleNanoseconds + drainNanoseconds })
    }

    @Test func theWindowsOfACaseRunOnOneLaunchOfTheWorkers() async {
        let launches = Mutex(0)
        let workload = Workload(prepare: { _ in launches.withLock { $0 += 1 } }) { _, iterations in
            for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
        }
        let samples = await onPlainThread { () -> [RawSample] in
            let session = Session(workload: workload, threads: 2)
            defer { session.finish() }
            var samples: [RawSample] = []
            session.timed(batches: [100, 100], duration: 1_000_000, windows: 4) { samples.append($0); return true }
            return samples
        }
        #expect(samples.count == 4)
        #expect(launches.withLock { $0 } == 1, "the workers kept running between the windows")
        #expect(samples.allSatisfy { $0.elapsedNanoseconds >= 1_000_000 && $0.threadOperations.count == 2 })
    }

    @Test func aWorkloadWithADrainIsLaunchedAndDrainedPerWindow() async {
        let launches = Mutex(0), drains = Mutex(0)
        let workload = Workload(drain: { drains.withLock { $0 += 1 } },
                                prepare: { _ in launches.withLock { $0 += 1 } }) { _, _ in }
        let windows = await onPlainThread { () -> Int in
            let session = Session(workload: workload, threads: 1)
            defer { session.finish() }
            var windows = 0
            session.timed(batches: [1], duration: 500_000, windows: 3) { _ in windows += 1; return windows < 2 }
            return windows
        }
        #expect(windows == 2, "take returning false stops the run")
        #expect(launches.withLock { $0 } == 2 && drains.withLock { $0 } == 2)
    }

    @Test func shorterSamplesFillTheSameMeasuredTime() {
        let measured: UInt64 = 150_000_000  // 3 samples of 50 ms
        #expect(CaseRunner.samples(filling: measured, eachLasting: 50_000_000) == 3)
        #expect(CaseRunner.samples(filling: measured, eachLasting: 2_000_000) == 75)
        #expect(CaseRunner.samples(filling: measured, eachLasting: 20_000_000) == 7)  // a window of 8 threads
        #expect(CaseRunner.samples(filling: 1_000_000, eachLasting: 2_000_000) == 1)
        #expect(CaseRunner.SamplePlan.timed(batches: [1], window: 20_000_000).sampleNanoseconds(calibratedTo: 2_000_000)
                    == 20_000_000)
        #expect(CaseRunner.SamplePlan.lockstep(iterations: 9).sampleNanoseconds(calibratedTo: 2_000_000) == 2_000_000)
    }

    /// Turns chosen one at a time run on one team until the caller says stop, each seeing the results so far.
    @Test func turnsChosenOneAtATimeStopWhenTheCallerSays() async throws {
        let threadIDs = Mutex<Set<UInt64>>([])
        let workload = Workload(pacing: .timed) { _, iterations in
            threadIDs.withLock { _ = $0.insert(UInt64(bitPattern: Int64(Int(bitPattern: pthread_self())))) }
            for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
        }
        let settings = MeasurementSettings(sampleNanoseconds: 2_000_000, samples: 1, warmupSamples: 0)
        let (results, seen) = try await onPlainThread { () throws -> ([CaseResult], [Int]) in
            var seen: [Int] = []
            let results = try CaseRunner(settings: settings).measure(Self.benchmarkCase, workload: workload) { done in
                seen.append(done.count)
                return done.count < 3 ? (done.count % 2 == 0 ? 2_000_000 : 1_000_000) : nil
            }
            return (results, seen)
        }
        #expect(seen == [0, 1, 2, 3])
        #expect(results.count == 3)
        #expect(results[0].samples.count == 1 && results[2].samples.count == 1, "a 2 ms turn is one 2 ms sample")
        // Two 1 ms samples fill the same 2 ms, unless a slow scheduler rotation (a loaded machine: the tests run
        // in parallel) stretched the 1 ms window; `shorterSamplesFillTheSameMeasuredTime` tests the arithmetic.
        #expect((1...2).contains(results[1].samples.count), "a 1 ms turn fills the 2 ms of one long sample")
        #expect(threadIDs.withLock { $0.count } == 1, "every turn ran on the same one-thread team")
    }

    @Test func aRotationNeverExceedsItsLimit() async {
        let rotation = await onPlainThread {
            let session = Session(workload: Workload { _, _ in }, threads: 2)
            defer { session.finish() }
            return session.rotation(batches: [1, 1], limit: 1_000_000).rotation
        }
        #expect(rotation <= 1_000_000)
    }

    /// A thread the pattern holds off for far longer than the longest rotation in each batch (here, by sleeping at
    /// its start), so that the team takes that long to stop, gets batches of one iteration, as every thread of its
    /// case does, and windows of the longest rotations; its control, a loop whose threads never wait, keeps the
    /// batches calibrated alone. A loaded machine (the tests run in parallel) can hold a thread of the control off
    /// for as long as the pattern holds its own, so the control's plan is taken up to three times and one calibrated
    /// plan is enough: a runner that always found a thread starved fails all three.
    @Test(arguments: [true, false])
    func aCaseThatStarvesAThreadPublishesEveryIteration(starves: Bool) async {
        var controlBatches: [[Int]] = []
        for _ in 0..<(starves ? 1 : 3) {
            guard let (batches, window) = await Self.timedPlan(of: Self.heldOff(starves: starves), threads: 2) else {
                return
            }
            if starves {
                #expect(batches == [1, 1])
                #expect(window == CaseRunner.rotationsPerWindow * CaseRunner.maximumRotationNanoseconds)
                return
            }
            if batches.count == 2 && batches.allSatisfy({ $0 > 1 }) { return }
            controlBatches.append(batches)
        }
        Issue.record("the control, whose threads never wait, was planned as starved every time: \(controlBatches)")
    }

    /// A window holds `batchesPerWindow` of the longest batch as it ran alone: an iteration that sleeps 30 ms makes
    /// a batch of one iteration of at least 30 ms, and windows of at least eight of them, where two rotations (the
    /// rule without it) would give about 60 ms. Its control, a loop of microsecond batches, keeps a window of at most
    /// two of the longest rotations (100 ms), however long a loaded machine holds its thread off.
    @Test(arguments: [true, false])
    func aWindowHoldsEightOfItsLongestBatchAsItRanAlone(longIterations: Bool) async {
        let iteration: UInt64 = 30_000_000
        let workload = Workload { _, iterations in
            if longIterations { MonotonicClock.sleep(until: MonotonicClock.now() + iteration) }
            for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
        }
        guard let (batches, window) = await Self.timedPlan(of: workload, threads: 1) else { return }
        if longIterations {
            #expect(batches == [1])
            #expect(window >= CaseRunner.batchesPerWindow * iteration)
        } else {
            #expect(window <= CaseRunner.rotationsPerWindow * CaseRunner.maximumRotationNanoseconds)
        }
    }

    /// The plan a runner makes for `workload` on `threads` threads, off the cooperative pool: its batches and window,
    /// or nil (an issue recorded) when it is not timed.
    static func timedPlan(of workload: Workload, threads: Int) async -> (batches: [Int], window: UInt64)? {
        let plan = await onPlainThread {
            let session = Session(workload: workload, threads: threads)
            defer { session.finish() }
            return CaseRunner(settings: Self.settings).plan(session)
        }
        guard case .timed(let batches, let window) = plan else {
            Issue.record("a timed workload got \(plan)")
            return nil
        }
        return (batches, window)
    }

    /// A loop whose thread 1, when it `starves`, sleeps for 10 of the longest rotations at the start of each batch.
    static func heldOff(starves: Bool) -> Workload {
        let heldOff = CaseRunner.maximumRotationNanoseconds * 10
        return Workload { worker, iterations in
            if starves && worker.index == 1 { MonotonicClock.sleep(until: MonotonicClock.now() + heldOff) }
            for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
        }
    }

    /// A plan another build calibrated, checked by this build: its batches starve a thread here (held off as in
    /// `aCaseThatStarvesAThreadPublishesEveryIteration`), so every thread's batch becomes one iteration and the
    /// window no shorter than the plan's; its control, whose threads never wait, keeps the plan as it was.
    @Test(arguments: [true, false])
    func anAdoptedPlanIsCheckedAgainstThisBuildsThreads(starves: Bool) async {
        let workload = Self.heldOff(starves: starves)
        let given = CaseRunner.SamplePlan.timed(batches: [500, 500], window: 300_000_000)
        let plan = await onPlainThread {
            let session = Session(workload: workload, threads: 2)
            defer { session.finish() }
            return CaseRunner(settings: Self.settings).checked(given, session)
        }
        #expect(plan == (starves ? .timed(batches: [1, 1], window: 300_000_000) : given))
    }

    @Test func operationsPerIterationScalesTheCount() async throws {
        let runner = CaseRunner(settings: Self.settings)
        let workload = Workload(pacing: .lockstep, operationsPerIteration: 16) { _, _ in }
        let sample = try await runner.measuredOffPool(Self.benchmarkCase, workload: workload)[0].samples[0]
        #expect(sample.operations % 16 == 0)
    }

    /// A timed case's sample says how many operations a thread of its row publishes at a time (its batch × the
    /// operations per iteration, the largest over the row's threads), each role its own; a lockstep case's says
    /// none. The plans are given, not calibrated, so the figures are exact.
    @Test func aTimedSampleCarriesItsRowsBatchInOperationsAndALockstepOneNone() async throws {
        let runner = CaseRunner(settings: Self.settings)
        let body: @Sendable (WorkerContext, Int) -> Void = { _, iterations in
            for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
        }
        let timed = Workload(operationsPerIteration: 3, role: { $0 == 1 ? "write" : "read" }, body: body)
        let plan = CaseRunner.SamplePlan.timed(batches: [5, 7, 2], window: 1_000_000)
        let byRole = try await onPlainThread {
            try runner.measure(Self.testCase(threads: 3), workload: timed, plan: plan).results
        }
        #expect(byRole.map(\.role) == ["read", "write"])
        #expect(byRole.allSatisfy { $0.samples.count == Self.settings.samples })
        #expect(byRole[0].samples.allSatisfy { $0.batchOperations == 15 }, "threads 0 and 2: the larger batch, 5 × 3")
        #expect(byRole[1].samples.allSatisfy { $0.batchOperations == 21 }, "thread 1: 7 × 3")
        let lockstep = Workload(pacing: .lockstep, operationsPerIteration: 3, body: body)
        let samples = try await onPlainThread {
            try runner.measure(Self.benchmarkCase, workload: lockstep, plan: .lockstep(iterations: 10)).results[0]
                .samples
        }
        #expect(samples.count == Self.settings.samples && samples.allSatisfy { $0.batchOperations == nil })
    }

    @Test func rolesSplitTheRowsAndTheirOperations() async throws {
        let runner = CaseRunner(settings: Self.settings)
        let workload = Workload(role: { $0 == 0 ? "write" : "read" }) { _, iterations in
            for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
        }
        let results = try await runner.measuredOffPool(Self.testCase(threads: 3), workload: workload)
        #expect(results.map(\.role) == ["read", "write"])
        #expect(results[0].samples[0].threadOperations.count == 2)
        #expect(results[1].samples[0].threadOperations.count == 1)
        #expect(results[0].samples[0].elapsedNanoseconds == results[1].samples[0].elapsedNanoseconds)
    }

    @Test func drainRunsInsideTheTimedRegion() async throws {
        let runner = CaseRunner(settings: Self.settings)
        let drainNanoseconds: UInt64 = 5_000_000
        let workload = Workload(pacing: .lockstep, drain: {
            MonotonicClock.sleep(until: MonotonicClock.now() + drainNanoseconds)
        }) { _, _ in }
        let samples = try await runner.measuredOffPool(Self.benchmarkCase, workload: workload)[0].samples
        #expect(samples.allSatisfy { $0.elapsedNanoseconds >= drainNanoseconds })
    }

    @Test func prepareRunsBeforeEveryRunWithTheIterationCount() async throws {
        let prepared = Mutex<[Int]>([])
        let ran = Mutex<[Int]>([])
        let workload = Workload(pacing: .lockstep, prepare: { count in prepared.withLock { $0.append(count) } }) { _, n in
            ran.withLock { $0.append(n) }
        }
        _ = try await CaseRunner(settings: Self.settings).measuredOffPool(Self.benchmarkCase, workload: workload)
        #expect(prepared.withLock { $0 } == ran.withLock { $0 })
    }

    @Test func latencyPercentilesComeFromRecordedValues() async throws {
        let workload = Workload(pacing: .lockstep) { worker, iterations in
            for index in 0..<iterations { worker.recordLatency(nanoseconds: UInt64(index % 100 + 1) * 1_000) }
        }
        let sample = try await CaseRunner(settings: Self.settings).measuredOffPool(Self.benchmarkCase, workload: workload)[0].samples[0]
        let latency = try #require(sample.latency)
        #expect(latency.p50 <= latency.p90 && latency.p90 <= latency.p99)
        #expect((1_000...100_100).contains(latency.p99))
    }

    @Test func interruptionAbandonsTheCase() async {
        await #expect(throws: MeasurementInterrupted.self) {
            try await onPlainThread {
                try CaseRunner(settings: Self.settings).measure(Self.benchmarkCase, workload: Workload { _, _ in }) { false }
            }
        }
    }
}

/// Counts threads inside a region and holds each until all expected threads are in it (or 10 s passed).
final class Rendezvous: Sendable {
    let expected: Int
    private let inside = Atomic<Int>(0)
    private let state = Mutex<(maximum: Int, threads: Set<UInt>, timedOut: Bool)>((0, [], false))

    init(expected: Int) {
        self.expected = expected
    }

    func arriveAndWait() {
        let now = inside.add(1, ordering: .sequentiallyConsistent).newValue
        state.withLock {
            $0.maximum = max($0.maximum, now)
            $0.threads.insert(UInt(pthread_self()))
        }
        let deadline = MonotonicClock.now() + 10_000_000_000
        while inside.load(ordering: .sequentiallyConsistent) < expected {
            if MonotonicClock.now() > deadline {
                state.withLock { $0.timedOut = true }
                break
            }
            sched_yield()
        }
    }

    var maximumInside: Int { state.withLock { $0.maximum } }
    var distinctThreads: Int { state.withLock { $0.threads.count } }
    var timedOut: Bool { state.withLock { $0.timedOut } }
}

@Suite struct ReportedThreadsTests {
    @Test func threadsLeftOutRunButAreNotCounted() async throws {
        let workload = Workload(pacing: .lockstep, reportsThread: { $0 == 0 }) { _, _ in }
        let results = try await CaseRunner(settings: CaseRunnerTests.settings)
            .measuredOffPool(CaseRunnerTests.testCase(threads: 2), workload: workload)
        #expect(results.count == 1 && results[0].role == nil)
        let sample = results[0].samples[0]
        #expect(sample.threadOperations.count == 1)
        #expect(sample.operations == sample.threadOperations[0])
    }
}

extension CaseRunner {
    /// `measure` on a plain thread (`onPlainThread`): a test must not hold a cooperative-pool thread while its
    /// samples run.
    func measuredOffPool(_ benchmarkCase: BenchmarkCase, workload: Workload) async throws -> [CaseResult] {
        try await onPlainThread { try measure(benchmarkCase, workload: workload) }
    }
}
