import Foundation
import StressChecks

/// The report `bench stress` prints: per check and thread count, its iterations, trials against the minimum and
/// every outcome with its grade; per control, how fast it was caught; then the verdict.
enum StressReport {
    static func render(_ results: [StressResult]) -> String {
        var lines: [String] = []
        for result in results {
            lines.append(headline(result))
            for (outcome, count) in result.counts.sorted {
                lines.append("    \(outcome.grade.rawValue.padding(toLength: 23, withPad: " ", startingAt: 0)) "
                             + "\(outcome.id): \(count)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A slot's first line: iterations, trials (against the minimum), time, and what stands out.
    static func headline(_ result: StressResult) -> String {
        let slot = result.slot
        let minimum = slot.check.power.minimumTrials
        var head = "\(slot.label): \(plural(result.iterations, "iteration")), "
            + "\(plural(result.trials, "trial")) (minimum \(minimum)) in " + String(format: "%.1f s", result.seconds)
        if result.abandoned {
            head += ", ABANDONED: no thread advanced for the watchdog's time (suspected deadlock)"
        } else if let kind = slot.check.control {
            if let trials = result.trialsToFirstForbidden, let seconds = result.secondsToFirstForbidden {
                head += String(format: ", caught after %.3f s", seconds) + " and \(plural(trials, "trial"))"
                if kind == .racy {
                    head += trials <= minimum ? " (within the minimum: the check has its power here)"
                        : " (BEYOND the minimum of \(minimum): a variant with this race could pass)"
                }
            } else if kind == .racy {
                head += ", NOT CAUGHT in its budget: the check's power fell short in this run (no failure: a race is "
                    + "caught as often as chance has it)"
            } else {
                head += ", NEVER CAUGHT: the check lost its teeth"
            }
        } else if result.counts.forbidden > 0 {
            head += ", FORBIDDEN OUTCOME"
        } else if !result.reachedMinimum {
            head += ", NOT PROVEN: fewer trials than the check's minimum"
        }
        if let rate = result.slowestRate {
            head += ", SLOW, not stuck: " + plural(result.slowIterations, "iteration")
                + " longer than the watchdog's time, its threads advancing at "
                + String(format: "%.0f", rate) + " operations/s"
        }
        return head
    }

    /// The line `bench stress` prints on stderr after a slot: its iterations, trials and outcomes.
    static func progressSummary(_ result: StressResult) -> String {
        "\(plural(result.iterations, "iteration")), \(plural(result.trials, "trial")): " + result.counts.sorted
            .map { "\($0.outcome.id) \($0.count)" + ($0.outcome.grade == .acceptable ? "" : " (\($0.outcome.grade.rawValue))") }
            .joined(separator: ", ")
            + (result.abandoned ? "; abandoned" : "") + (result.slowestRate != nil ? "; slow" : "")
    }

    /// What makes the run fail: a variant's forbidden outcome, a deterministic control never caught, a check
    /// abandoned. A racy control never caught is no failure (`racyBeyondMinimum`).
    static func failures(_ results: [StressResult]) -> [String] {
        results.compactMap { result in
            let name = result.slot.label
            if result.abandoned { return "\(name) was abandoned (no progress: suspected deadlock)" }
            if let kind = result.slot.check.control {
                return result.secondsToFirstForbidden == nil && kind == .deterministic ? "\(name) was never caught" : nil
            }
            let forbidden = result.counts.forbidden
            return forbidden > 0 ? "\(name) showed \(plural(forbidden, "forbidden outcome"))" : nil
        }
    }

    /// The variants' slots that ended below their check's minimum trials with nothing forbidden seen (one abandoned
    /// or with a forbidden outcome has failed, which says more).
    static func notProven(_ results: [StressResult]) -> [String] {
        results.filter { !$0.slot.check.isControl && !$0.abandoned && $0.counts.forbidden == 0 && !$0.reachedMinimum }
            .map(\.slot.label)
    }

    /// The racy controls caught only beyond their check's minimum trials, or not at all: no failure, but named.
    static func racyBeyondMinimum(_ results: [StressResult]) -> [String] {
        results.filter { result in
            result.slot.check.control == .racy
                && (result.trialsToFirstForbidden ?? Int.max) > result.slot.check.power.minimumTrials
        }.map(\.slot.label)
    }

    /// Why a control's line shows another thread count than --threads asked for (docs/stress.md).
    static let controlThreadsNote = "each at the thread count that can catch it, not --threads"

    /// The run's last line: PASS or FAIL (as the exit status says), the checks and their forbidden outcomes, the
    /// controls caught (at their own thread counts), what failed or was abandoned, what is not proven, the file,
    /// and what to run next (`report`: the command, with the timing file first when one was found).
    static func verdict(_ results: [StressResult], path: String, report: String) -> String {
        let checks = results.filter { !$0.slot.check.isControl }
        let controls = results.filter(\.slot.check.isControl)
        let failed = failures(results)
        let forbidden = checks.reduce(0) { $0 + $1.counts.forbidden }
        let caught = controls.filter { $0.secondsToFirstForbidden != nil }.count
        let unproven = notProven(results)
        let weak = racyBeyondMinimum(results)
        return (failed.isEmpty ? "PASS" : "FAIL")
            + ": \(plural(forbidden, "forbidden outcome")) in \(plural(Set(checks.map(\.slot.check.name)).count, "check"))"
            + "; \(caught) of \(plural(controls.count, "negative control")) caught (\(controlThreadsNote))"
            + (failed.isEmpty ? "" : "; " + failed.joined(separator: "; "))
            + (unproven.isEmpty ? "" : "; not proven (below the minimum trials): " + unproven.joined(separator: ", "))
            + (weak.isEmpty ? "" : "; racy controls caught only beyond the minimum, or not at all: "
                + weak.joined(separator: ", "))
            + "; wrote \(path); next: \(report)"
    }
}
