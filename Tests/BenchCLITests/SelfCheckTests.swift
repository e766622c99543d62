@testable import BenchCommandLine
import BenchCore
import BenchTestSupport
import Foundation
import Testing

/// Issue 14 (14): how `self-check` grades its checks and reaches its verdict, on given values (nothing is timed).
@Suite struct SelfCheckTests {
    func mutexPair(handWritten: Double, harness: Double, tolerance: Double = 0.10) -> SelfCheckResult {
        .agreement("mutex-pair", reference: .init(label: "hand-written loop", nanoseconds: handWritten),
                   measured: .init(label: "harness", nanoseconds: harness), tolerance: tolerance)
    }

    @Test func valuesWithinTheTolerancePass() {
        let result = mutexPair(handWritten: 11.73, harness: 11.77)
        #expect(result.passed)
        #expect(result.finding == "+0.3%")
        #expect(result.line == "mutex-pair: PASS  hand-written loop 11.73 ns, harness 11.77 ns: +0.3% (tolerance ±10%)")
    }

    @Test func theToleranceHoldsEitherWay() {
        #expect(mutexPair(handWritten: 10, harness: 10.99).passed, "+9.9% is inside ±10%")
        #expect(mutexPair(handWritten: 10, harness: 9.01).passed, "-9.9% too")
        #expect(!mutexPair(handWritten: 10, harness: 11.2).passed)
        #expect(!mutexPair(handWritten: 10, harness: 8.8).passed)
        #expect(mutexPair(handWritten: 10, harness: 12, tolerance: 0.25).passed)
    }

    @Test func aValueThatIsNotAPositiveNumberFails() {
        let pairs: [(Double, Double)] = [(10, .infinity), (0, 10), (10, .nan), (-1, -1)]
        for (handWritten, harness) in pairs {
            let result = mutexPair(handWritten: handWritten, harness: harness)
            #expect(!result.passed, "\(handWritten) vs \(harness)")
            #expect(result.finding == "not comparable")
        }
    }

    /// A ratio of turns passes only when its whole 95% interval is within the band.
    @Test func aRatioOfTurnsPassesOnlyWhenItsIntervalIsWithinTheBand() {
        let bare = [1.60, 1.66, 1.72, 1.78, 1.85, 1.62, 1.70, 1.81]
        func harness(_ factor: Double, turns: [Double] = bare) -> SelfCheckResult {
            .ratio("pthread-once", measured: ("harness", turns.map { $0 * factor }),
                   reference: ("bare pthread_once", turns), band: 0.5...1.3)
        }
        #expect(harness(1.02).passed)
        #expect(harness(1.02).line == "pthread-once: PASS  bare pthread_once 1.71 ns, harness 1.74 ns: "
                    + "harness/bare pthread_once 1.02 [0.96, 1.08] after 8 turns each (tolerance -50%/+30%)")
        #expect(harness(0.70).passed, "placement: a third cheaper is inside")
        #expect(!harness(1.60).passed, "a planted 60% more is beyond +30%")
        #expect(!harness(0.20).passed, "a hit without its call, a fifth of it, is beyond -50%")
        #expect(!harness(1.0, turns: [1.7]).passed, "one turn each has no interval: undecided is not a pass")
        #expect(SelfCheckResult.bandDescription(0.85...1.15) == "±15%")
    }

    @Test func theVerdictPassesOnlyWhenEveryCheckPassed() {
        let pass = mutexPair(handWritten: 10, harness: 10.5)
        let fail = mutexPair(handWritten: 10, harness: 15)
        #expect(SelfCheckVerdict([pass]).passed)
        #expect(SelfCheckVerdict([pass]).line == "self-check: PASS (1 check within tolerance)")
        #expect(SelfCheckVerdict([pass, pass]).line == "self-check: PASS (2 checks within tolerance)")
        let failed = SelfCheckVerdict([pass, fail])
        #expect(!failed.passed)
        #expect(failed.line == "self-check: FAIL (mutex-pair out of tolerance; 1 of 2 checks failed)")
        #expect(!SelfCheckVerdict([]).passed, "no check is no evidence")
    }

    /// A failed verdict exits 1, distinct from bad input (64) and the run's other statuses.
    @Test func aFailedCheckHasAStatusOfItsOwn() {
        #expect(ExitStatus.checkFailed == 1)
        #expect(Set(ExitStatus.all.map(\.status)).count == ExitStatus.all.count)
    }
}

/// Issue 60: `self-check` says before it starts how long its sweep takes at least and at most, from its own plan,
/// and shows its progress as it goes.
@Suite struct SelfCheckProgressTests {
    static let lock = BenchmarkCase(suite: "isolation", benchmark: "mixed", variant: "mutex", threads: 8)
    static let hit = BenchmarkCase(suite: "once", benchmark: "hit", variant: "lazy-static", threads: 8)

    /// A case is a 50 ms warm-up and 4 to 64 pairs of 50 ms turns; a fairness case adds a warm-up and 150 ms.
    @Test func theSweepsTimeIsItsPlans() {
        #expect(Bench.SelfCheck.sweepSeconds([]) == 0...0)
        let one = Bench.SelfCheck.sweepSeconds([Self.lock])
        #expect(abs(one.lowerBound - 0.45) < 1e-9 && abs(one.upperBound - 6.45) < 1e-9, "\(one)")
        #expect(Bench.SelfCheck.measuresFairness(Self.hit) && !Bench.SelfCheck.measuresFairness(Self.lock))
        let both = Bench.SelfCheck.sweepSeconds([Self.lock, Self.hit])
        #expect(abs(both.lowerBound - 1.1) < 1e-9 && abs(both.upperBound - 13.1) < 1e-9, "\(both)")
        let plan = Bench.SelfCheck.plan([Self.lock, Self.hit])
        #expect(plan.hasSuffix("sweep: 2 cases, each 4 to 64 pairs of turns until decided, 1s to 13s of samples "
                               + "plus calibration (docs/running.md: a measured time)"), "\(plan)")
    }

    @Test func eachCaseOfTheSweepSaysWhatWasDecidedAndTheTimeLeft() {
        let within = CostRatio(measured: turns(4, around: 100, spread: 0.02),
                               reference: turns(4, around: 100, spread: 0.02))
        let line = Bench.SelfCheck.progressLine(Self.lock, index: 2, of: 10, pairs: 4, comparison: within,
                                                elapsedSeconds: 3)
        #expect(line == "  [3/10] sample-length isolation/mixed/mutex threads:8: short/long \(within.description) "
                    + "within after 4 pairs, ~7s left")
        let last = Bench.SelfCheck.progressLine(Self.lock, index: 9, of: 10, pairs: 4, comparison: within,
                                                elapsedSeconds: 3)
        #expect(last.hasSuffix("within after 4 pairs"))
    }

    /// The binary prints its plan and announces each check on stderr before measuring it (stopped early: a whole
    /// run takes minutes).
    @Test func thePlanAndTheFirstCheckComeFirst() async throws {
        let (process, _, error) = try BenchProcess.debug.start(["self-check"])
        // SIGKILL: the child may inherit a mask that blocks SIGTERM from the test's thread. After a minute in any
        // case, so that a line that never comes fails the test instead of leaving it waiting for the whole run.
        let stop = DispatchWorkItem { [pid = process.processIdentifier] in kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: stop)
        defer {
            stop.cancel()
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        let received = await onPlainThread { BenchProcess.read(error, until: "[1/3] mutex-pair\n") }
        let lines = received.split(separator: "\n").filter { !$0.hasPrefix("WARNING: debug build") }
        let count = Bench.SelfCheck.sampleLengthCases().count
        #expect(lines.first?.hasPrefix("bench self-check: 3 checks, nearly all the time in the sample-length "
                                       + "sweep: \(count) cases") == true, "\(received)")
        #expect(lines.dropFirst().first == "[1/3] mutex-pair", "\(received)")
    }
}

/// The sample-length line of `self-check`, graded from given cost ratios.
@Suite struct SampleLengthResultTests {
    @Test func theSampleLengthLinePassesOnlyWhenEveryCaseIsShownWithin() {
        let within = CostRatio(measured: turns(8, around: 100, spread: 0.02),
                               reference: turns(8, around: 100, spread: 0.02))
        let beyond = CostRatio(measured: turns(8, around: 130, spread: 0.02),
                               reference: turns(8, around: 100, spread: 0.02))
        let undecided = CostRatio(measured: turns(6, around: 100, spread: 0.3),
                                  reference: turns(6, around: 100, spread: 0.3))
        let passed = Bench.SelfCheck.sampleLengthResult([("a", within), ("b", within)], widest: ("a", 4, within))
        #expect(passed.passed)
        #expect(passed.finding.hasPrefix("2 of 2 cases shown within"))
        let failed = Bench.SelfCheck.sampleLengthResult([("a", within), ("b", beyond)], widest: ("b", 4, beyond))
        #expect(!failed.passed)
        #expect(failed.finding.contains("beyond: b 1.30"))
        let open = Bench.SelfCheck.sampleLengthResult([("a", within), ("c", undecided)], widest: ("c", 64, undecided))
        #expect(!open.passed, "a case the turns could not decide is not passed")
        #expect(open.finding.contains("undecided after 64 pairs: c"))
    }

}
