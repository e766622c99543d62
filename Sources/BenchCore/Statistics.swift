/// Order statistics and moments of a set of samples. Pure functions of their input; empty input gives nil.
///
/// The summary a benchmark reports is the median with the interquartile range: robust to the occasional sample
/// that a preemption or a page fault made slow, which the mean is not.
package struct Statistics: Sendable, Equatable {
    package let count: Int
    package let min: Double
    package let max: Double
    package let mean: Double
    /// Sample standard deviation (n − 1 in the denominator); 0 for a single value.
    package let standardDeviation: Double
    package let median: Double
    package let lowerQuartile: Double
    package let upperQuartile: Double

    /// Summarizes `values`; nil when there are none.
    package init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        count = sorted.count
        min = sorted[0]
        max = sorted[sorted.count - 1]
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        self.mean = mean
        let squares = sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        standardDeviation = sorted.count > 1 ? (squares / Double(sorted.count - 1)).squareRoot() : 0
        median = Statistics.quantile(sorted: sorted, 0.5)
        lowerQuartile = Statistics.quantile(sorted: sorted, 0.25)
        upperQuartile = Statistics.quantile(sorted: sorted, 0.75)
    }

    /// Interquartile range divided by the median: a scale-free spread that ignores outliers.
    package var relativeSpread: Double {
        median == 0 ? 0 : (upperQuartile - lowerQuartile) / median
    }

    /// Coefficient of variation: standard deviation over mean.
    package var coefficientOfVariation: Double {
        mean == 0 ? 0 : standardDeviation / mean
    }

    /// The `q`-quantile (0...1) of already sorted values by linear interpolation between closest ranks
    /// (the definition numpy and R use by default), so Swift and Python summaries agree.
    package static func quantile(sorted: [Double], _ q: Double) -> Double {
        precondition(!sorted.isEmpty && (0...1).contains(q), "quantile needs values and 0 ≤ q ≤ 1")
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        // Exactly on a value it is that value; between a finite value and an infinite (starved) one it is
        // infinite, never the NaN that inf − inf or inf × 0 would give.
        if fraction == 0 { return sorted[lower] }
        if sorted[upper].isInfinite { return sorted[upper] }
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}
