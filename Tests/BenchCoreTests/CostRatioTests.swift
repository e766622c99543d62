import BenchCore
import BenchTestSupport
import Testing

/// How `self-check` estimates a ratio of two costs measured in turns and grades it against a tolerance, on given
/// turns (nothing is timed). A planted difference beyond the tolerance is the negative control: the same rule
/// that passes equal costs must fail it.
@Suite struct CostRatioTests {
    @Test func equalTurnsGiveARatioOfOneWithinTheTolerance() {
        let ratio = CostRatio(measured: turns(8, around: 100, spread: 0.02),
                              reference: turns(8, around: 100, spread: 0.02))
        #expect(abs(ratio.estimate - 1) < 1e-9)
        #expect(ratio.interval!.contains(1))
        #expect(ratio.verdict(tolerance: 0.15) == .within)
    }

    /// The negative control: short samples 30% dearer (or 30% cheaper) than long ones, with the same spread.
    @Test(arguments: [1.30, 0.70])
    func aPlantedDifferenceBeyondTheToleranceFails(factor: Double) {
        let ratio = CostRatio(measured: turns(8, around: 100 * factor, spread: 0.02),
                              reference: turns(8, around: 100, spread: 0.02))
        #expect(abs(ratio.estimate - factor) < 0.01)
        #expect(ratio.verdict(tolerance: 0.15) == .outside)
    }

    @Test func turnsThatMoveMoreThanTheToleranceLeaveItUndecided() {
        // Levels 30% apart in both: the interval spans the tolerance's bounds, and more turns are needed.
        let ratio = CostRatio(measured: turns(6, around: 100, spread: 0.3),
                              reference: turns(6, around: 100, spread: 0.3))
        #expect(ratio.verdict(tolerance: 0.15) == .undecided)
    }

    @Test func fewerThanFourTurnsOfEachHaveNoInterval() {
        let ratio = CostRatio(measured: [100, 101, 99], reference: [100, 100, 100])
        #expect(ratio.interval == nil)
        #expect(ratio.verdict(tolerance: 0.15) == .undecided, "no interval is no evidence")
        #expect(CostRatio(measured: [1, 2, 3, 4], reference: [1, 2, 3, 4]).interval != nil)
    }

    /// Bauer's interval at 4 and 4 turns: k = ⌊8 − 1.96·√12⌋ = 1, so the 2nd and 15th of the 16 ratios.
    @Test func theIntervalIsTheOrderStatisticsBauerGives() {
        let ratio = CostRatio(measured: [1, 2, 3, 4], reference: [1, 1, 1, 1])
        let sorted: [Double] = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4]
        #expect(ratio.interval == sorted[1]...sorted[14])
        #expect(ratio.estimate == (2.0 * 3.0).squareRoot(), "the geometric middle of an even count")
    }
}
