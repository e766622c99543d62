import BenchCore
import Foundation

/// Signs that something else used the machine while it was measured, in the spirit of hyperfine's warnings: a
/// load average at or above the core count when the run started, and samples far from the rest of their case.
/// Pure functions of their input.
enum NoiseCheck {
    /// A sample is an outlier when it lies more than this many interquartile ranges beyond the quartiles
    /// (Tukey's "far out"): a preemption or a burst of other work, not the spread of the mechanism itself.
    static let outlierIQRs = 3.0

    /// The warning for a 1-minute load average at or above the logical CPUs; nil below them, or when the load
    /// average is unknown.
    static func loadWarning(loadAverage: Double?, logicalCPUs: Int) -> String? {
        guard let loadAverage, loadAverage >= Double(logicalCPUs) else { return nil }
        return String(format: "warning: the 1-minute load average is %.2f on %d logical CPUs: other work competes "
                      + "for the cores, so timings will be noisy (a quiet machine gives comparable numbers)",
                      loadAverage, logicalCPUs)
    }

    /// How many of `values` lie below Q1 − 3·IQR or above Q3 + 3·IQR of the finite ones. A starved sample
    /// (infinite ns/op) is reported as starved, not counted here.
    static func outlierCount(_ values: [Double]) -> Int {
        let finite = values.filter(\.isFinite)
        guard let stats = Statistics(finite) else { return 0 }
        let spread = (stats.upperQuartile - stats.lowerQuartile) * outlierIQRs
        let low = stats.lowerQuartile - spread, high = stats.upperQuartile + spread
        return finite.count { $0 < low || $0 > high }
    }

    /// The line under the summary when some cases had outliers; nil when none had.
    static func outlierNote(casesWithOutliers: Int, cases: Int) -> String? {
        guard casesWithOutliers > 0 else { return nil }
        return "! \(casesWithOutliers) of \(cases) results had outlier samples (beyond \(Int(outlierIQRs))×IQR "
            + "from the quartiles; column outliers): something else may have used the machine. Consider "
            + "re-running on a quiet system."
    }
}
