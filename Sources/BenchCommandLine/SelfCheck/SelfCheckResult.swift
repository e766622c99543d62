import BenchCore
import Foundation

/// What one check of `bench self-check` found: the values it measured, the tolerance it grades them by, and
/// whether they were within it. A plain value, so that the grading is tested without timing anything.
struct SelfCheckResult: Equatable {
    /// One measured value, in nanoseconds per operation, and what was measured.
    struct Measurement: Equatable {
        var label: String
        var nanoseconds: Double
    }

    /// The check's name (`mutex-pair`), the first word of its line.
    let name: String
    let measurements: [Measurement]
    /// The tolerance in words: `±10%`.
    let tolerance: String
    /// What the measurements came to, in the tolerance's terms: `+0.3%`.
    let finding: String
    let passed: Bool

    /// `mutex-pair: PASS  hand-written loop 11.73 ns, harness 11.77 ns: +0.3% (tolerance ±10%)`.
    var line: String {
        let values = measurements.map { "\($0.label) \(String(format: "%.2f", $0.nanoseconds)) ns" }
            .joined(separator: ", ")
        let measured = values.isEmpty ? "" : "\(values): "
        return "\(name): \(passed ? "PASS" : "FAIL")  \(measured)\(finding) (tolerance \(tolerance))"
    }

    /// Two measurements of the same operation that must agree: `measured` may differ from `reference` by at
    /// most `tolerance` of it (0.1 = ±10%), either way. A value that is not a positive finite number fails.
    static func agreement(_ name: String, reference: Measurement, measured: Measurement,
                          tolerance: Double) -> SelfCheckResult {
        let difference = measured.nanoseconds / reference.nanoseconds - 1
        let valid = [reference.nanoseconds, measured.nanoseconds].allSatisfy { $0.isFinite && $0 > 0 }
        return SelfCheckResult(
            name: name,
            measurements: [reference, measured],
            tolerance: toleranceDescription(tolerance),
            finding: valid ? String(format: "%+.1f%%", difference * 100) : "not comparable",
            passed: valid && abs(difference) <= tolerance
        )
    }

    /// Turns of two costs, graded by the `CostRatio` of `measured`'s turns to `reference`'s: a pass when its 95%
    /// interval lies wholly within `band` (0.5...1.3: from half the reference's cost to 30% more); beyond it, or
    /// undecided, is not. Shows each cost's median turn.
    static func ratio(_ name: String, measured: (label: String, turns: [Double]),
                      reference: (label: String, turns: [Double]), band: ClosedRange<Double>) -> SelfCheckResult {
        let ratio = CostRatio(measured: measured.turns, reference: reference.turns)
        return SelfCheckResult(
            name: name,
            measurements: [reference, measured].map {
                .init(label: $0.label, nanoseconds: Statistics($0.turns)!.median)
            },
            tolerance: bandDescription(band),
            finding: "\(measured.label)/\(reference.label) \(ratio.description) "
                + "after \(measured.turns.count) turns each",
            passed: ratio.verdict(band: band) == .within)
    }

    /// A symmetric tolerance in words: 0.15 is `±15%`.
    static func toleranceDescription(_ tolerance: Double) -> String {
        String(format: "±%g%%", tolerance * 100)
    }

    /// A band of ratios as a tolerance: `±30%` when symmetric about 1, else `-50%/+30%`.
    static func bandDescription(_ band: ClosedRange<Double>) -> String {
        let below = 1 - band.lowerBound, above = band.upperBound - 1
        return abs(below - above) < 1e-9
            ? toleranceDescription(above) : String(format: "-%g%%/+%g%%", below * 100, above * 100)
    }
}

/// The outcome of every check together: a pass when each check passed (and there was at least one).
struct SelfCheckVerdict: Equatable {
    let passed: Bool
    /// The last line `self-check` prints: `self-check: PASS (2 checks within tolerance)`, or
    /// `self-check: FAIL (mutex-pair out of tolerance; 1 of 2 checks failed)`.
    let line: String

    init(_ results: [SelfCheckResult]) {
        let failed = results.filter { !$0.passed }.map(\.name)
        passed = !results.isEmpty && failed.isEmpty
        let checks = results.count == 1 ? "1 check" : "\(results.count) checks"
        if results.isEmpty {
            line = "self-check: FAIL (no check ran)"
        } else if passed {
            line = "self-check: PASS (\(checks) within tolerance)"
        } else {
            line = "self-check: FAIL (\(failed.joined(separator: ", ")) out of tolerance; "
                + "\(failed.count) of \(checks) failed)"
        }
    }
}
