import BenchCore
import Foundation

/// The calibration the rounds of an adaptive run share (`--plans`, an anonymous file the run's first process
/// holds): the first round to measure a case calibrates it and appends its plan; every later round runs that
/// case's samples by the plan instead of calibrating again (docs/measuring.md, "Calibrated samples"). Rounds run
/// one after another, so one round at a time reads and appends.
///
/// One line a case: its `--list` line, a tab, the plan as JSON. A line that cannot be read (a round killed as
/// it wrote) is skipped, and its case is calibrated again.
struct RoundPlans {
    let path: String
    private var plans: [String: CaseRunner.SamplePlan]

    /// The plans the file at `path` holds.
    init(readingFrom path: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw BenchError("cannot read the rounds' plans (\(path)): \(error)", exitCode: ExitStatus.internalError)
        }
        self.path = path
        plans = [:]
        let decoder = JSONDecoder()
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1)
            guard fields.count == 2,
                  let plan = try? decoder.decode(CaseRunner.SamplePlan.self, from: Data(fields[1].utf8))
            else { continue }
            plans[String(fields[0])] = plan
        }
    }

    /// The plan an earlier round calibrated for `benchmarkCase`, or nil.
    func plan(for benchmarkCase: BenchmarkCase) -> CaseRunner.SamplePlan? {
        plans[Bench.listLine(benchmarkCase)]
    }

    /// Appends `plan` as `benchmarkCase`'s, for the rounds after this one.
    mutating func record(_ plan: CaseRunner.SamplePlan, for benchmarkCase: BenchmarkCase) throws {
        let name = Bench.listLine(benchmarkCase)
        do {
            let line = name + "\t" + String(decoding: try JSONEncoder().encode(plan), as: UTF8.self) + "\n"
            guard let file = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteUnknown) }
            defer { try? file.close() }
            try file.seekToEnd()
            try file.write(contentsOf: Data(line.utf8))
        } catch {
            throw BenchError("cannot append to the rounds' plans (\(path)): \(error)",
                             exitCode: ExitStatus.internalError)
        }
        plans[name] = plan
    }
}
