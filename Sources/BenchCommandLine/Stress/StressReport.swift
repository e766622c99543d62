import Foundation
import StressChecks

/// The report `bench stress` prints: per check and thread count, its iterations and every outcome with its
/// grade; per control, how fast it was caught.
enum StressReport {
    static func render(_ results: [StressResult]) -> String {
        var lines: [String] = []
        for result in results {
            let slot = result.slot
            var head = "\(slot.check.name) threads:\(slot.threads): \(plural(result.iterations, "iteration")) in "
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
            let forbidden = result.counts.forbidden
            return forbidden > 0 ? "\(name) showed \(plural(forbidden, "forbidden outcome"))" : nil
        }
    }

    /// Why a control's line shows another thread count than --threads asked for (docs/stress.md).
    static let controlThreadsNote = "each at the thread count that can catch it, not --threads"

    /// The run's last line: PASS or FAIL (as the exit status says), the checks and their forbidden outcomes, the
    /// controls caught (at their own thread counts), what failed, the file, and what to run next.
    static func verdict(_ results: [StressResult], path: String) -> String {
        let checks = results.filter { !$0.slot.check.isControl }
        let controls = results.filter(\.slot.check.isControl)
        let failed = failures(results)
        let forbidden = checks.reduce(0) { $0 + $1.counts.forbidden }
        let caught = controls.filter { $0.secondsToFirstForbidden != nil }.count
        return (failed.isEmpty ? "PASS" : "FAIL")
            + ": \(plural(forbidden, "forbidden outcome")) in \(plural(Set(checks.map(\.slot.check.name)).count, "check"))"
            + "; \(caught) of \(plural(controls.count, "negative control")) caught (\(controlThreadsNote))"
            + (failed.isEmpty ? "" : "; " + failed.joined(separator: "; "))
            + "; wrote \(path); next: \(ProgramName.analyzeCommand) report \(path)"
    }
}
