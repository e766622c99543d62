import BenchCore
import Foundation

/// The end-of-run table on stdout: per case (and role), the median ns/op, the spread of the samples, the
/// slowest thread's share of the work, and the samples far outside the rest (a sign of a busy machine).
enum SummaryTable {
    /// The table as text, one line per result, columns aligned.
    static func render(_ results: [CaseResult], logicalCPUs: Int) -> String {
        let header = ["case", "median ns/op", "IQR", "min–max", "fairness", "p50/p99 ns", "outliers"]
        var rows: [[String]] = []
        var anyOversubscribed = false
        var resultsWithOutliers = 0
        var anyHung = false
        for result in results {
            guard let stats = result.nanosecondsPerOperation else { continue }
            let name = shownName(result.benchmarkCase.description + (result.role.map { " role:\($0)" } ?? ""),
                                 threads: result.benchmarkCase.threads, logicalCPUs: logicalCPUs)
            anyOversubscribed = anyOversubscribed || result.benchmarkCase.threads > logicalCPUs
            if result.hung {
                anyHung = true
                rows.append([name, hung, "–", "–", "", "", ""])
                continue
            }
            let fairness = Statistics(result.samples.compactMap(\.fairness)).map { String(format: "%.2f", $0.median) }
            let latency = result.samples.last?.latency.map { "\($0.p50)/\($0.p99)" }
            let spread = stats.relativeSpread.isFinite ? String(format: "±%.1f%%", stats.relativeSpread * 50) : "–"
            let outliers = NoiseCheck.outlierCount(result.samples.map(\.nanosecondsPerOperation))
            if outliers > 0 { resultsWithOutliers += 1 }
            rows.append([
                name,
                format(stats.median),
                spread,
                "\(format(stats.min))–\(format(stats.max))",
                fairness ?? "",
                latency ?? "",
                outliers > 0 ? "\(outliers)/\(result.samples.count)" : "",
            ])
        }
        var lines = TextTable.lines(header: header, rows: rows)
        lines.append("IQR: interquartile range as ± half of it relative to the median. fairness: the slowest thread's "
                     + "operations × threads / all operations (1.00 = every thread did the same).")
        if showsStarved(rows) { lines.append("starved, in place of a number: no operation completed in that sample.") }
        if anyHung { lines.append(hungNote) }
        if anyOversubscribed { lines.append(oversubscribedNote(logicalCPUs: logicalCPUs)) }
        if let note = NoiseCheck.outlierNote(casesWithOutliers: resultsWithOutliers, cases: rows.count) {
            lines.append(note)
        }
        return lines.joined(separator: "\n")
    }

    /// Whether any cell of `rows` reads `starved` (`format` of a sample that completed nothing), so that a summary
    /// defines the word only where it shows it.
    static func showsStarved(_ rows: [[String]]) -> Bool {
        rows.contains { row in row.contains { $0.contains(starved) } }
    }

    /// The word `format` shows for a sample that completed no operation (infinite ns/op).
    static let starved = "starved"

    /// The word a summary shows, in place of a number, for a case abandoned as hung (`CaseResult.hung`).
    static let hung = "hung"

    /// The line under a summary that shows `hung`.
    static let hungNote = "hung, in place of a number: the case made no progress for --hang-timeout seconds and was "
        + "abandoned; it has no timing, and its rows say hung=true (docs/running.md#hung-cases)."

    /// A case's name as a summary shows it: marked `*` when it has more threads than the machine's logical CPUs.
    static func shownName(_ name: String, threads: Int, logicalCPUs: Int) -> String {
        threads > logicalCPUs ? name + " *" : name
    }

    /// The line under a summary that marked a case `*`.
    static func oversubscribedNote(logicalCPUs: Int) -> String {
        "* more threads than the \(logicalCPUs) logical CPUs of this machine: oversubscribed."
    }

    /// Three significant digits, at least two decimals below 10; `starved` for a sample that completed nothing.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return starved }
        switch value {
        case ..<10: return String(format: "%.2f", value)
        case ..<100: return String(format: "%.1f", value)
        default: return String(format: "%.0f", value)
        }
    }
}
