import Foundation

/// How one cost compares with another when each was measured in several turns: `measured` over `reference`,
/// from each turn's cost (for the sample-length check, a case's pooled cost with short samples over its cost with
/// long ones, on one thread team; for pthread-once, its hit through the harness over a bare `pthread_once`).
///
/// The ratio is the Hodges–Lehmann estimate, the median of every measured turn's cost over every reference
/// turn's, with Bauer's distribution-free 95% confidence interval (the same order statistics of those ratios, at
/// the ranks the Mann–Whitney U distribution's normal approximation gives). A plain value: the grading is tested
/// without timing anything.
///
/// Why an interval: on this kind of machine one cost can move from one turn to the next by tens of percent, in
/// either direction: a contended lock's threads fall into and out of phases (one thread keeps the lock, or it
/// changes hands through the kernel); a one-thread hit path sits on one of two levels per thread. A few turns
/// then say more about those than about what is compared; the interval says how much the turns measured, and the
/// verdict waits until it is narrow enough to say.
package struct CostRatio: Equatable, Sendable {
    /// What the interval says against a tolerance.
    package enum Verdict: Equatable, Sendable {
        /// The whole interval lies within the tolerance: the two costs differ by less.
        case within
        /// The whole interval lies beyond it: they differ by more.
        case outside
        /// The interval crosses a bound of the tolerance, or there are too few turns for one: more turns needed.
        case undecided
    }

    /// The standard normal quantile of the interval's two-sided 95% coverage.
    package static let z95 = 1.959964

    /// The fewest turns of each that have an interval. Below it the normal approximation is too coarse (at 3 and
    /// 3 it would give the whole range, whose exact coverage is 90%); at 4 and 4 the exact coverage is 94.3%.
    package static let fewestTurns = 4

    /// measured/reference: 1.08 means the measured cost is 8% higher.
    package let estimate: Double
    /// The 95% confidence interval of `estimate`; nil with too few turns to have one (`fewestTurns`).
    package let interval: ClosedRange<Double>?

    package init(measured: [Double], reference: [Double]) {
        precondition(!measured.isEmpty && !reference.isEmpty, "turns of both costs")
        let ratios = measured.flatMap { m in reference.map { m / $0 } }.sorted()
        let count = ratios.count
        estimate = count % 2 == 1 ? ratios[count / 2] : (ratios[count / 2 - 1] * ratios[count / 2]).squareRoot()
        let m = Double(measured.count), n = Double(reference.count)
        // Ranks k+1 and mn−k (from 1) bound the interval, k the lower critical value of U.
        let k = Int((m * n / 2 - Self.z95 * (m * n * (m + n + 1) / 12).squareRoot()).rounded(.down))
        interval = k >= 0 && min(measured.count, reference.count) >= Self.fewestTurns
            ? ratios[k]...ratios[count - 1 - k] : nil
    }

    /// Whether the measured cost is within `tolerance` of the reference (0.15 = ±15%).
    package func verdict(tolerance: Double) -> Verdict {
        verdict(band: (1 - tolerance)...(1 + tolerance))
    }

    /// Whether the ratio lies within `band` (0.5...1.3: from half the reference's cost to 30% more).
    package func verdict(band: ClosedRange<Double>) -> Verdict {
        guard let interval else { return .undecided }
        if band.contains(interval.lowerBound) && band.contains(interval.upperBound) { return .within }
        if interval.upperBound < band.lowerBound || interval.lowerBound > band.upperBound { return .outside }
        return .undecided
    }

    /// `0.97 [0.91, 1.04]`.
    package var description: String {
        let bounds = interval.map { String(format: " [%.2f, %.2f]", $0.lowerBound, $0.upperBound) } ?? " [no interval]"
        return String(format: "%.2f", estimate) + bounds
    }
}
