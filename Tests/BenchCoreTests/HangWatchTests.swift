@testable import BenchCore
import Dispatch
import Foundation
import Synchronization
import Testing

/// The watchdog of a timed run: the rule that calls a case hung, exactly; a case that blocks for good is abandoned
/// with its stage; a case that advances is never called hung, however long it runs. No timing is asserted: the
/// stalls are for good (released only once the watchdog has spoken), and the cases that advance do so many times
/// per timeout.
@Suite(.serialized) struct HangWatchTests {
    static let second: UInt64 = 1_000_000_000

    static func reading(_ steps: Int, _ operations: Int = 0) -> CasePulse.Reading {
        CasePulse.Reading(steps: steps, operations: operations)
    }

    @Test func theSameReadingForTheTimeoutIsAStallFromItsFirstLook() {
        var rule = StallRule<String>(timeout: 10)
        #expect(rule.look(Self.reading(3), at: 100, mark: "first") == nil)
        #expect(rule.look(Self.reading(3), at: 105, mark: "second") == nil)
        #expect(rule.look(Self.reading(3), at: 109, mark: "third") == nil, "9 ns of no progress is short of 10")
        let stalled = rule.look(Self.reading(3), at: 110, mark: "fourth")
        #expect(stalled?.time == 100 && stalled?.mark == "first", "the stall began at the first look that read 3")
    }

    @Test func anyChangeStartsTheCountAgain() {
        var rule = StallRule<Int>(timeout: 10)
        #expect(rule.look(Self.reading(1, 0), at: 0, mark: 0) == nil)
        #expect(rule.look(Self.reading(1, 1), at: 9, mark: 1) == nil, "one operation published is progress")
        #expect(rule.look(Self.reading(1, 1), at: 18, mark: 2) == nil, "9 ns since the last change")
        #expect(rule.look(Self.reading(2, 0), at: 27, mark: 3) == nil, "a step (a new launch, counts from 0) too")
        #expect(rule.look(Self.reading(2, 0), at: 37, mark: 4)?.mark == 3)
    }

    /// A slow case: one operation between looks, each look a whole timeout after the last, for a hundred timeouts.
    @Test func aCaseThatAdvancesBetweenEveryTwoLooksIsNeverAStall() {
        var rule = StallRule<Int>(timeout: 10)
        for look in 0..<100 {
            #expect(rule.look(Self.reading(7, look), at: UInt64(look) * 10, mark: look) == nil)
        }
    }

    @Test func aMeasurementThatReturnsIsFinished() {
        let outcome = HangWatch.run(watching: CasePulse(), timeout: 60 * Self.second) { 42 }
        guard case .finished(let value) = outcome else { Issue.record("not finished: \(outcome)"); return }
        #expect(value == 42)
    }

    /// Setup that never returns: no team, no workload; the case's one row has no role and no operation.
    @Test func aSetupThatNeverReturnsIsHungWhileSettingUp() async {
        let gate = DispatchSemaphore(value: 0)
        let outcome = await onPlainThread {
            HangWatch.run(watching: CasePulse(), timeout: Self.second / 5) { () -> Int in
                gate.wait()
                return 0
            }
        }
        gate.signal()
        guard case .hung(let hang) = outcome else { Issue.record("not hung: \(outcome)"); return }
        #expect(hang.stage == .setup)
        #expect(hang.nanoseconds >= Self.second / 5)
        let results = hang.results(for: BenchmarkCase(suite: "test", benchmark: "hang", variant: "v", threads: 2))
        #expect(results.count == 1 && results[0].role == nil && results[0].hung)
        #expect(results[0].samples.count == 1)
        #expect(results[0].samples[0].operations == 0 && results[0].samples[0].threadOperations == [0, 0])
        #expect(results[0].samples[0].nanosecondsPerOperation == .infinity)
    }

    /// A lockstep case whose threads block in their first run, as a handoff that lost its wake-up does: hung while
    /// calibrating, one row per role, each with no operation. The threads are let go once the watchdog has spoken.
    @Test func aTeamThatStopsInItsFirstRunIsHungWhileCalibratingWithARowPerRole() async {
        let gate = Gate()
        let workload = Workload(pacing: .lockstep, role: { $0 == 0 ? "ping" : "pong" }) { _, _ in gate.pass() }
        let benchmarkCase = BenchmarkCase(suite: "test", benchmark: "hang", variant: "v", threads: 2)
        let pulse = CasePulse()
        let runner = CaseRunner(settings: MeasurementSettings(sampleNanoseconds: 1_000_000, samples: 1,
                                                              warmupSamples: 0))
        let outcome = await onPlainThread {
            HangWatch.run(watching: pulse, timeout: Self.second / 5) {
                (try? runner.measure(benchmarkCase, workload: workload, plan: nil, pulse: pulse).results.count) ?? -1
            }
        }
        gate.open()
        guard case .hung(let hang) = outcome else { Issue.record("not hung: \(outcome)"); return }
        #expect(hang.stage == .calibration)
        let results = hang.results(for: benchmarkCase)
        #expect(results.map(\.role) == ["ping", "pong"])
        #expect(results.allSatisfy { $0.hung && $0.samples.count == 1 && $0.samples[0].operations == 0 })
        #expect(results.allSatisfy { $0.samples[0].nanosecondsPerOperation == .infinity })
        // Where the team's own threads' time went (the process's CPU would count the tests running beside this one).
        if let schedules = hang.span.schedules {
            #expect(schedules.count == 2)
            #expect(schedules.reduce(0) { $0 + $1.runningNanoseconds } < hang.nanoseconds / 10,
                    "blocked threads hardly run: a thread spinning would run for the whole span")
        }
        // What was stolen from the CPUs of each role's own thread over the span, as the schedules are read; no batch.
        if let steal = hang.span.steal {
            #expect(steal.processors.count == 2)
            #expect(results.allSatisfy { ($0.samples[0].stolen?.cpus ?? 0) >= 1 })
        }
        #expect(results.allSatisfy { $0.samples[0].batchOperations == nil })
    }

    /// A timed case whose window is three hang timeouts long: the coordinator sleeps through it, completing no
    /// step, while the threads publish a batch every few microseconds. Not hung: operations are progress.
    @Test func aCaseWhoseThreadsPublishIsNotHungThoughItsCoordinatorSleeps() async {
        let workload = Workload { _, iterations in
            for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
        }
        let benchmarkCase = BenchmarkCase(suite: "test", benchmark: "slow", variant: "v", threads: 2)
        let pulse = CasePulse()
        let timeout = Self.second
        let runner = CaseRunner(settings: MeasurementSettings(sampleNanoseconds: 3 * timeout, samples: 1,
                                                              warmupSamples: 0))
        let outcome = await onPlainThread {
            HangWatch.run(watching: pulse, timeout: timeout) {
                (try? runner.measure(benchmarkCase, workload: workload, plan: nil, pulse: pulse).results) ?? []
            }
        }
        guard case .finished(let results) = outcome else { Issue.record("called hung: \(outcome)"); return }
        #expect(results.count == 1 && !results[0].hung)
        #expect(results[0].samples[0].elapsedNanoseconds >= 3 * timeout, "one window longer than the timeout")
        #expect(results[0].samples[0].operations > 0)
    }

    @Test func aStopRequestEndsTheWaitAtTheNextLook() async {
        let gate = DispatchSemaphore(value: 0)
        let outcome = await onPlainThread {
            HangWatch.run(watching: CasePulse(), timeout: Self.second / 2, stop: { true }) { () -> Int in
                gate.wait()
                return 0
            }
        }
        gate.signal()
        guard case .stopped = outcome else { Issue.record("not stopped: \(outcome)"); return }
    }
}

/// Blocks every caller of `pass()` until `open()`, then lets every caller through at once.
private final class Gate: Sendable {
    private let isOpen = Mutex(false)
    private let condition = NSCondition()

    func pass() {
        condition.lock()
        while !isOpen.withLock({ $0 }) { condition.wait() }
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen.withLock { $0 = true }
        condition.broadcast()
        condition.unlock()
    }
}
