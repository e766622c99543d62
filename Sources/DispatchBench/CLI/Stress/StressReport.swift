import Foundation
import StressChecks

/// The report `bench stress` prints: per check and thread count, its iterations and every outcome with its
/// grade; per control, how fast it was caught.
enum StressReport {
    static func render(_ results: [StressResult]) -> String {
        var lines: [String] = []
        for result in results {
            let slot = result.slot
            var head = "\(slot.check.name) threads:\(slot.threads): \(result.iterations) iterations in "
                + String(format: "%.1f s", result.seconds)
            if slot.check.isControl {
                head += result.secondsToFirstForbidden.map { String(format: ", caught after %.3f s", $0) }
                    ?? ", NEVER CAUGHT: the check lost its teeth"
            } else if result.counts.forbidden > 0 {
                head += ", FORBIDDEN OUTCOME"
            }
            lines.append(head)
            for (outcome, count) in result.counts.sorted {
                lines.append("    \(outcome.grade.rawValue.padding(toLength: 23, withPad: " ", startingAt: 0)) "
                             + "\(outcome.id): \(count)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What makes the run fail: a variant's forbidden outcome, a control never caught.
    static func failures(_ results: [StressResult]) -> [String] {
        results.compactMap { result in
            let name = "\(result.slot.check.name) threads:\(result.slot.threads)"
            if result.slot.check.isControl {
                return result.secondsToFirstForbidden == nil ? "\(name) was never caught" : nil
            }
            return result.counts.forbidden > 0 ? "\(name) showed \(result.counts.forbidden) forbidden outcomes" : nil
        }
    }
}
