import BenchCore
import Foundation

/// Progress on stderr while a run goes: which case, how far along, and a rough estimate of the time left in the
/// whole run (the mean time per completed case so far, times the cases still to run in this round and in the
/// rounds after it). In an adaptive run later rounds measure only the cases still open: the estimate is then a
/// bound, and says so.
struct Progress {
    let total: Int
    let logicalCPUs: Int
    /// Rounds still to run after this one (each a fresh process measuring every case again).
    let roundsAfter: Int
    /// Whether the rounds after this one may measure fewer cases (an adaptive run).
    let atMost: Bool
    /// The index of the first case this process measures: after a case that hung, a fresh process measures the
    /// rest of the round (`--after-hang`), and only its own cases tell its pace.
    let firstCase: Int
    private let started = MonotonicClock.now()

    init(total: Int, logicalCPUs: Int, roundsAfter: Int = 0, atMost: Bool = false, firstCase: Int = 0) {
        self.total = total
        self.logicalCPUs = logicalCPUs
        self.roundsAfter = roundsAfter
        self.atMost = atMost && roundsAfter > 0
        self.firstCase = firstCase
    }

    /// Announces case `index` (0-based) before it is measured, marked when the run added it as a `control`.
    func starting(_ benchmarkCase: BenchmarkCase, index: Int, control: Bool = false) {
        var line = "[\(index + 1)/\(total)] \(benchmarkCase)"
        if control { line += " \(TimedCases.controlMark)" }
        if benchmarkCase.threads > logicalCPUs { line += " (oversubscribed: \(logicalCPUs) CPUs)" }
        if index > firstCase {
            let elapsed = Double(MonotonicClock.now() - started) / 1e9
            let remaining = elapsed / Double(index - firstCase) * Double(total - index + total * roundsAfter)
            line += "  ~\(Self.duration(remaining)) left in the run\(atMost ? " at most" : "")"
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// `2m05s`, `40s`, and `<1s` for what rounds to no whole second (never `0s`, which reads as "done").
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 1 { return "<1s" }
        return whole >= 60 ? "\(whole / 60)m\(String(format: "%02d", whole % 60))s" : "\(whole)s"
    }
}
