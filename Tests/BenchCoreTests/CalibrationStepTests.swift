@testable import BenchCore
import Testing

/// The calibration rule, exactly: no thread and no clock involved.
@Suite struct CalibrationStepTests {
    @Test func aCountThatReachesTheTargetIsAccepted() {
        #expect(CalibrationStep.next(after: 7, elapsed: 1_000, target: 1_000) == nil)
        #expect(CalibrationStep.next(after: 7, elapsed: 5_000, target: 1_000) == nil)
    }

    @Test func theNextCountAimsTwentyPercentPastTheTarget() {
        // 100 × 1000 × 1.2 / 500 = 240.
        #expect(CalibrationStep.next(after: 100, elapsed: 500, target: 1_000) == 240)
    }

    @Test func growthIsAtLeastDoubleAndAtMostAHundredfold() {
        // The estimate 122 is less than double 100.
        #expect(CalibrationStep.next(after: 100, elapsed: 990, target: 1_000) == 200)
        // The estimate 120 is more than a hundredfold 1; a zero-length run counts as 1 ns.
        #expect(CalibrationStep.next(after: 1, elapsed: 10, target: 1_000) == 100)
        #expect(CalibrationStep.next(after: 3, elapsed: 0, target: 1_000_000) == 300)
    }

    @Test func growthStopsAtTheLargestCount() {
        let largest = CalibrationStep.maximumIterations
        #expect(CalibrationStep.next(after: largest / 2, elapsed: 1, target: 1_000_000) == largest)
        #expect(CalibrationStep.next(after: largest, elapsed: 1, target: 1_000_000) == nil)
    }

    @Test func calibrationConfirmsACountWithTheFastestOfThreeRuns() {
        var runs: [Int] = []
        // 7 ns per iteration: 1 → 100 (capped), 100 → 200 (at least double), then two confirmations.
        let calibration = CaseRunner.calibrate(target: 1_000) { iterations in
            runs.append(iterations)
            return UInt64(iterations * 7)
        }
        #expect(runs == [1, 100, 200, 200, 200])
        #expect(calibration == CaseRunner.Calibration(iterations: 200, elapsedNanoseconds: 1_400, targetNanoseconds: 1_000))
    }

    @Test func aSlowFirstRunIsNotAcceptedWhenAConfirmationIsFast() {
        var runs: [Int] = []
        // The first run of 100 is slowed past the target (a preemption); its confirmation is not.
        let calibration = CaseRunner.calibrate(target: 1_000) { iterations in
            runs.append(iterations)
            return iterations == 100 && runs.count == 2 ? 5_000 : UInt64(iterations * 7)
        }
        #expect(runs == [1, 100, 100, 200, 200, 200])
        #expect(calibration.iterations == 200)
    }
}
