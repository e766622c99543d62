import BenchCore
import BenchResults
import Foundation

/// The end-of-run table of a run of rounds, read back from its CSV so that it shows every round's evidence: per
/// case (and role), in the suites' order, the median of its round medians (the figure the analysis uses), the
/// round medians' range, their spread, and how many rounds it has.
///
/// The analysis computes the same level in Python (scripts/analyze_lib/judge/summary.py `case_median`) from the
/// same rows: `bench` prints this table without the scripts, and the CSV holds samples, not this summary.
enum RunSummary {
    /// One case's round medians, in round order, under its name as the table shows it.
    struct Case {
        var name: String
        var threads: Int
        var roundMedians: [Double]
        /// `suite/benchmark/variant|threads|params` without the role: the `BenchmarkCase` the row belongs to
        /// (`key(_:)`).
        var key: String = ""
        /// The role of the row's threads (`role=…` in `params`), nil when they play none.
        var role: String? = nil
        /// Whether the case was abandoned as hung in a round (a row with `hung=true`): it has no timing.
        var hung = false
    }

    /// The key a summarized row of `benchmarkCase` carries (`Case.key`).
    static func key(_ benchmarkCase: BenchmarkCase) -> String {
        "\(benchmarkCase.path)|\(benchmarkCase.threads)|\(benchmarkCase.parameterString())"
    }

    /// A number as a results file writes it: `inf` for a sample that completed no operation, NaN for an empty cell.
    static func number(_ text: String) -> Double {
        text == "inf" ? .infinity : Double(text) ?? .nan
    }

    /// The key of a row of a results file, from its `suite/benchmark/variant` path, its threads and its params (a
    /// `role=…` field left out): the `key(_:)` of the case it belongs to.
    static func key(path: String, threads: String, params: String) -> String {
        "\(path)|\(threads)|\(params.split(separator: ";").filter { !$0.hasPrefix("role=") }.joined(separator: ";"))"
    }

    /// The table for the rows of `csv`, cases in the order of `order` (the selected cases, in the suites' order);
    /// a case the list does not name comes last.
    static func render(csv: String, order: [BenchmarkCase], logicalCPUs: Int) throws -> String {
        let cases = try summarize(csv: csv, order: order)
        let header = ["case", "median ns/op", "round medians", "spread", "rounds"]
        let rows = cases.map { summary -> [String] in
            let shown = SummaryTable.shownName(summary.name, threads: summary.threads, logicalCPUs: logicalCPUs)
            if summary.hung { return [shown, SummaryTable.hung, "–", "–", String(summary.roundMedians.count)] }
            let sorted = summary.roundMedians.sorted()
            let median = Statistics(summary.roundMedians)?.median ?? .nan
            let spread = median.isFinite && median > 0 && sorted.last!.isFinite
                ? String(format: "±%.1f%%", (sorted.last! - sorted.first!) / median * 50) : "–"
            return [shown, SummaryTable.format(median),
                    "\(SummaryTable.format(sorted.first!))–\(SummaryTable.format(sorted.last!))", spread,
                    String(summary.roundMedians.count)]
        }
        var lines = TextTable.lines(header: header, rows: rows)
        lines.append("median ns/op: the median of the case's round medians (each round a fresh process). spread: "
                     + "half the range of the round medians, relative to that median.")
        if SummaryTable.showsStarved(rows) {
            lines.append("starved, in place of a number: no operation completed in at least half the samples of that round.")
        }
        if cases.contains(where: \.hung) { lines.append(SummaryTable.hungNote) }
        if cases.contains(where: { $0.threads > logicalCPUs }) {
            lines.append(SummaryTable.oversubscribedNote(logicalCPUs: logicalCPUs))
        }
        return lines.joined(separator: "\n")
    }

    /// Each case's round medians, from a results CSV's records.
    static func summarize(csv: String, order: [BenchmarkCase]) throws -> [Case] {
        try summarize(records: CSVFormat.decode(csv), order: order)
    }

    /// As `summarize(csv:order:)`, from the CSV's records already decoded (the header first).
    static func summarize(records: [[String]], order: [BenchmarkCase]) throws -> [Case] {
        guard let header = records.first else { return [] }
        func column(_ name: String) throws -> Int {
            guard let index = header.firstIndex(of: name) else {
                throw BenchError("the results file has no \(name) column", exitCode: ExitStatus.internalError)
            }
            return index
        }
        let suite = try column("suite"), benchmark = try column("benchmark"), variant = try column("variant")
        let threads = try column("threads"), params = try column("params"), round = try column("round")
        let nsPerOp = try column("ns_per_op")
        // Absent before schema 9, whose files hold no hung case.
        let hung = header.firstIndex(of: hungColumn)
        let rank = Dictionary(order.enumerated().map { (key($1), $0) }, uniquingKeysWith: { first, _ in first })
        var byCase: [String: (rank: Int, name: String, threads: Int, key: String, role: String?,
                              rounds: [Int: [Double]], hung: Bool)] = [:]
        for record in records.dropFirst() where record.count == header.count {
            let path = "\(record[suite])/\(record[benchmark])/\(record[variant])"
            let fields = record[params].split(separator: ";").map(String.init)
            let role = fields.first { $0.hasPrefix("role=") }
            let plain = fields.filter { !$0.hasPrefix("role=") }
            let key = Self.key(path: path, threads: record[threads], params: record[params])
            let shown = ([path, "threads:\(record[threads])"] + plain.map { $0.replacingOccurrences(of: "=", with: ":") }
                         + (role.map { [$0.replacingOccurrences(of: "=", with: ":")] } ?? [])).joined(separator: " ")
            let value = Self.number(record[nsPerOp])
            byCase[shown, default: (rank[key] ?? order.count, shown, Int(record[threads]) ?? 0, key,
                                    role.map { String($0.dropFirst("role=".count)) }, [:], false)]
                .rounds[Int(record[round]) ?? 1, default: []].append(value)
            if let hung, record[hung] == "true" { byCase[shown]?.hung = true }
        }
        return byCase.values.sorted { ($0.rank, $0.name) < ($1.rank, $1.name) }.map { entry in
            Case(name: entry.name, threads: entry.threads,
                 roundMedians: entry.rounds.keys.sorted().map { Statistics(entry.rounds[$0]!)?.median ?? .nan },
                 key: entry.key, role: entry.role, hung: entry.hung)
        }
    }

    /// The results file's column that marks a hung case's rows (schema 9).
    static let hungColumn = "hung"

    /// The keys (`key(_:)`) of the cases a results file's records (the header first) mark hung in any round.
    static func hungKeys(records: [[String]]) -> Set<String> {
        guard let header = records.first, let hung = header.firstIndex(of: hungColumn),
              let suite = header.firstIndex(of: "suite"), let benchmark = header.firstIndex(of: "benchmark"),
              let variant = header.firstIndex(of: "variant"), let threads = header.firstIndex(of: "threads"),
              let params = header.firstIndex(of: "params") else { return [] }
        return Set(records.dropFirst().filter { $0.count == header.count && $0[hung] == "true" }.map {
            key(path: "\($0[suite])/\($0[benchmark])/\($0[variant])", threads: $0[threads], params: $0[params])
        })
    }
}
