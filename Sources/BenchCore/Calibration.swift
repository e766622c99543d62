/// How calibration grows an iteration count until a run of it lasts long enough: a pure rule, so that it can
/// be tested exactly, without timing anything.
package enum CalibrationStep {
    /// A count never grows by more than this factor in one step, so one run that was fast by accident (the
    /// thread was alone on its core, the data was hot) cannot throw the count far past the target.
    package static let maximumGrowth = 100
    /// Calibration stops growing here: an operation the optimizer reduced to nothing would otherwise never
    /// reach the target (and the count would overflow).
    package static let maximumIterations = 1 << 36
    /// The next try aims this far past the target, so that it usually lands on the first attempt.
    package static let overshoot = 1.2

    /// The count to try after `iterations` took `elapsed` nanoseconds, or nil when `iterations` is accepted:
    /// it reached `target`, or it is the largest count calibration tries.
    ///
    /// The next count is the estimate that would reach `target` with 20% to spare, at least double and at
    /// most a hundredfold the current count, and never past `maximumIterations`.
    package static func next(after iterations: Int, elapsed: UInt64, target: UInt64) -> Int? {
        precondition(iterations >= 1, "calibration starts from one iteration")
        if elapsed >= target || iterations >= maximumIterations { return nil }
        let estimate = Double(iterations) * Double(target) * overshoot / Double(max(elapsed, 1))
        let rounded = Int(min(estimate, Double(maximumIterations)).rounded(.up))
        return min(max(rounded, iterations * 2), iterations * maximumGrowth, maximumIterations)
    }
}
