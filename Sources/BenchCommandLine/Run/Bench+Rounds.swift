import ArgumentParser
import BenchCore
import BenchPlatform
import BenchResults
import Foundation
import Synchronization
import VariantRegistration

extension Bench {
    /// Runs `roundCount` rounds, each a fresh `bench --round K` process, one after the other, all appending to one
    /// file under one run environment and one seed. Measures nothing itself.
    ///
    /// With `--rounds` (or `--quick`) every round measures every selected case, calibrating each. Without, the run
    /// is adaptive (`isAdaptive`): each case is calibrated in round 1 and the later rounds run it by that plan
    /// (`RoundPlans`); the first `StoppingRule.minimumRounds` rounds measure every case; after each later round
    /// this process reads the file back, and the next round measures only the cases the rule finds still open
    /// (passed as an anonymous file, `--open-cases`), up to `roundCount`; a round with no open case is not
    /// started, and this process, which alone knows which round was the last, marks the file complete.
    ///
    /// A round in which a case hung (it exits `ExitStatus.suspectedDeadlock`, its rows for the case say `hung`)
    /// completed its other cases; the later rounds leave the hung case out, and the run, once done, exits with that
    /// status too, naming it.
    ///
    /// Ctrl-C and SIGTERM are passed on to the round in progress (which stops as a single run does: after the
    /// current sample, or at once on the second signal) and no further round starts.
    ///
    /// The run's controls (`timed.controls`) are cases like the others here: each round selects them again from
    /// the same command line, and the stopping rule treats them as the harness cases they are.
    func measureInRounds(_ timed: TimedCases) throws {
        if let note = PlatformFeature.separateRounds.unavailableNote { throw BenchError(note) }
        let cases = timed.cases.map(\.benchmarkCase)
        let caseCount = cases.count
        let environment = RunEnvironment.current(benchVersion: BenchVersion.current)
        let seed = self.seed ?? CaseOrder.randomSeed()
        let rule = isAdaptive ? Self.stoppingRule : nil
        var settings = try runSettings()
        settings.rounds = roundCount
        settings.adaptiveMinimum = rule?.minimumRounds
        settings.seed = String(seed)
        // The file is named (and reserved, empty) here; the rounds append to it.
        let writer = try resultsWriter(environment, settings)
        // The rounds read the run environment from a file in memory, not on disk: it ends with the last process
        // holding it, so that even a killed run leaves no temporary file behind.
        let environmentFile = try Self.fileInMemory(named: "bench-run-\(environment.runID).json",
                                                    holding: try JSONEncoder().encode(environment),
                                                    what: "the run environment")
        defer { environmentFile.close() }
        let environmentPath = "/dev/fd/\(environmentFile.rawValue)"
        // An adaptive run calibrates each case once, in the first round that measures it (`RoundPlans`).
        let plansFile = try rule.map { _ in
            try Self.fileInMemory(named: "bench-plans-\(environment.runID)", holding: Data(),
                                  what: "the rounds' calibration plans")
        }
        defer { plansFile?.close() }

        let current = Mutex<RoundProcess?>(nil)
        let interruption = Interruption(
            onFirst: { signal in
                warn("\(Interruption.name(signal)): stopping after the current sample of this round "
                     + "(\(Interruption.again(signal)) to stop at once)")
                current.withLock { $0?.signal(signal) }
            },
            onSecond: { signal in current.withLock { $0?.signal(signal) } }
        )
        warn("\(ProgramName.current): \(plural(roundCount, "round")) of \(timed.countText), "
             + "each a fresh process, seed \(seed), writing \(writer.path)")
        if let rule {
            warn("rounds are adaptive: every case gets \(rule.minimumRounds) and at most \(roundCount), stopping once "
                 + "its decisions are settled (docs/running.md#adaptive-rounds; --rounds N for exactly N)")
        }
        var runOptions: [(name: String, value: String)] = [
            ("--rounds", String(roundCount)), ("--seed", String(seed)), ("--run-environment", environmentPath),
            ("--output", writer.path),
        ]
        if let rule { runOptions.append(("--min-rounds", String(rule.minimumRounds))) }
        if let plansFile { runOptions.append(("--plans", "/dev/fd/\(plansFile.rawValue)")) }
        let inNoDecision = Registrations.pathsInNoDecision()
        var open = cases
        var hung: [BenchmarkCase] = []
        var lastRound = 0
        for round in 1...roundCount {
            if let signal = interruption.stoppingSignal { try stopped(by: signal, path: writer.path, after: round - 1) }
            // Only the cases still open, when some are settled: one `--list` line each.
            let openFile = open.count == caseCount ? nil : try Self.fileInMemory(
                named: "bench-open-\(environment.runID)-\(round)",
                holding: Data(open.map { Self.listLine($0) + "\n" }.joined().utf8), what: "the open cases")
            defer { openFile?.close() }
            var roundOptions = runOptions + [("--round", String(round))]
            if let openFile { roundOptions.append(("--open-cases", "/dev/fd/\(openFile.rawValue)")) }
            let process = try current.withLock { process in
                let started = try RoundProcess(
                    executable: BenchMain.executable,
                    arguments: Self.roundArguments(Array(CommandLine.arguments.dropFirst()), setting: roundOptions))
                process = started
                return started
            }
            let status = process.wait()
            current.withLock { $0 = nil }
            if status == Interruption.exitStatus(SIGINT) || status == Interruption.exitStatus(SIGTERM) {
                try stopped(by: status - 128, path: writer.path, after: round - 1)
            }
            if status == ExitStatus.suspectedDeadlock {
                // The round abandoned a case as hung and went on: its rows say so, and no later round measures it.
                let keys = RunSummary.hungKeys(records: try CSVFormat.decode(String(contentsOfFile: writer.path,
                                                                                    encoding: .utf8)))
                hung = cases.filter { keys.contains(RunSummary.key($0)) }
                open.removeAll { keys.contains(RunSummary.key($0)) }
            } else if status != ExitStatus.success {
                throw BenchError("round \(round) of \(roundCount) failed (exit status \(status), above); "
                                 + kept(path: writer.path, rounds: round - 1), exitCode: status)
            }
            lastRound = round
            if open.isEmpty && round < roundCount {
                warn("after round \(round): every case left hung; no further round")
                break
            }
            guard let rule, round >= rule.minimumRounds, round < roundCount else { continue }
            let csv = try String(contentsOfFile: writer.path, encoding: .utf8)
            open = try Self.stillOpen(csv: csv, cases: cases, rule: rule, inNoDecision: inNoDecision,
                                      logicalCPUs: environment.logicalCPUs)
            if open.isEmpty {
                warn("after round \(round): every case is settled; no further round")
                break
            }
            warn("after round \(round): \(caseCount - open.count) of \(plural(caseCount, "case")) settled; round "
                 + "\(round + 1) measures the \(open.count) still open")
        }
        // The run's first process marks the file complete when it alone knows the last round: an adaptive run's,
        // or one whose every case was left hung before the last round.
        if rule != nil || lastRound < roundCount { try completeAdaptiveRun(path: writer.path, rounds: lastRound) }
        let csv = try String(contentsOfFile: writer.path, encoding: .utf8)
        let summaries = try RunSummary.summarize(csv: csv, order: cases)
        print(try RunSummary.render(csv: csv, order: cases, logicalCPUs: environment.logicalCPUs))
        let what = rule == nil ? "\(plural(roundCount, "round")) of \(timed.countText), seed \(seed)"
            : "adaptive rounds of \(timed.countText): \(Self.roundsText(summaries)); seed \(seed)"
        printWhatWasWritten(writer.path, what)
        if !hung.isEmpty {
            fflush(nil)
            throw BenchError(Self.hungEnding(hung, earlier: false, round: nil), exitCode: ExitStatus.suspectedDeadlock)
        }
    }

    /// The arguments of a round's process: `arguments` (this command line's, without the executable) with each
    /// option of `options` given once, with the value here. The command line's own `--rounds 3`, `--seed=7` or
    /// `--output run.csv` is dropped, not repeated: a round reads one value of each, the one its run decided.
    ///
    /// Every option set here takes a value and has no short name, and `bench` takes no positional argument, so an
    /// argument equal to one of their names is that option as ArgumentParser read it, and the next its value.
    static func roundArguments(_ arguments: [String], setting options: [(name: String, value: String)]) -> [String] {
        let names = Set(options.map(\.name))
        var kept: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if names.contains(argument) {
                index += 2
                continue
            }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if argument.contains("=") && names.contains(name) {
                index += 1
                continue
            }
            kept.append(argument)
            index += 1
        }
        return kept + options.flatMap { [$0.name, $0.value] }
    }

    /// An anonymous file in memory holding `bytes`, which a round reads as `/dev/fd/N`.
    private static func fileInMemory(named name: String, holding bytes: Data, what: String) throws -> FileDescriptor {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.anonymousFile(named: name)
        } catch {
            throw BenchError("cannot create \(what) file in memory: \(error)", exitCode: ExitStatus.internalError)
        }
        FileHandle(fileDescriptor: file.rawValue, closeOnDealloc: false).write(bytes)
        return file
    }

    /// The cases of `cases` that `rule` does not find settled by the rows of `csv` (a case with no rows is open),
    /// in their order. `inNoDecision`: the `suite/benchmark/variant` paths that take part in no decision.
    ///
    /// A case that hung in any round is neither open nor in its scenario's decisions: it has no timing (the report
    /// never picks it), and is not measured again.
    static func stillOpen(csv: String, cases: [BenchmarkCase], rule: StoppingRule,
                          inNoDecision: Set<String>, logicalCPUs: Int) throws -> [BenchmarkCase] {
        let records = try CSVFormat.decode(csv)
        let hung = RunSummary.hungKeys(records: records)
        let cases = cases.filter { !hung.contains(RunSummary.key($0)) }
        let byKey = Dictionary(cases.map { (RunSummary.key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let signs = variantsShowingSigns(records: records, cases: byKey, inNoDecision: inNoDecision,
                                         logicalCPUs: logicalCPUs)
        let rows = try RunSummary.summarize(records: records, order: cases).compactMap { summary in
            byKey[summary.key].map { benchmarkCase in
                StoppingRule.Row(benchmarkCase: benchmarkCase,
                                 scenario: "\(benchmarkCase.suite)/\(benchmarkCase.benchmark)|\(benchmarkCase.threads)|"
                                     + benchmarkCase.parameterString(role: summary.role),
                                 roundMedians: summary.roundMedians,
                                 decides: !inNoDecision.contains(benchmarkCase.path),
                                 mayBeDisqualified: signs.contains("\(benchmarkCase.suite)/\(benchmarkCase.variant)"))
            }
        }
        let open = rule.openCases(rows)
        let measured = Set(rows.map(\.benchmarkCase))
        return cases.filter { open.contains($0) || !measured.contains($0) }
    }

    /// The `suite/variant`s that show a sign the report may disqualify them (`DisqualificationSigns`) in any case of
    /// a results file's `records` (the header first) that takes part in a decision: as the report does, a variant
    /// disqualified in one case of its suite is in all of them. `cases`: the run's cases by `RunSummary.key`.
    static func variantsShowingSigns(records: [[String]], cases: [String: BenchmarkCase], inNoDecision: Set<String>,
                                     logicalCPUs: Int) -> Set<String> {
        guard let header = records.first else { return [] }
        let names = ["suite", "benchmark", "variant", "threads", "params", "round", "ns_per_op", "thread_ops_min",
                     "thread_ops_max"]
        let columns = names.compactMap { header.firstIndex(of: $0) }
        guard columns.count == names.count else { return [] }
        // Each case's roles, by the role's `role=…` field ("" for none).
        var roles: [String: [String: DisqualificationSigns.Role]] = [:]
        for record in records.dropFirst() where record.count == header.count {
            let field = { (name: Int) in record[columns[name]] }
            let key = RunSummary.key(path: "\(field(0))/\(field(1))/\(field(2))", threads: field(3), params: field(4))
            guard let benchmarkCase = cases[key], !inNoDecision.contains(benchmarkCase.path) else { continue }
            let role = field(4).split(separator: ";").first { $0.hasPrefix("role=") }.map(String.init) ?? ""
            roles[key, default: [:]][role, default: DisqualificationSigns.Role()]
                .append(nanosecondsPerOperation: RunSummary.number(field(6)), round: Int(field(5)) ?? 1,
                        fewestOperations: RunSummary.number(field(7)), mostOperations: RunSummary.number(field(8)))
        }
        var shown = Set<String>()
        for (key, byRole) in roles {
            let benchmarkCase = cases[key]!
            if DisqualificationSigns.shown(threads: benchmarkCase.threads, logicalCPUs: logicalCPUs,
                                           roles: Array(byRole.values)) {
                shown.insert("\(benchmarkCase.suite)/\(benchmarkCase.variant)")
            }
        }
        return shown
    }

    /// How many rounds the cases got, as the end of an adaptive run says it: `412 cases stopped at 5 rounds, 192
    /// at 10`, then `, 1 hung` for the cases abandoned as hung. A case whose threads play roles counts once.
    static func roundsText(_ summaries: [RunSummary.Case]) -> String {
        let hung = Set(summaries.filter(\.hung).map(\.key))
        var rounds: [String: Int] = [:]
        for summary in summaries where !hung.contains(summary.key) {
            rounds[summary.key] = max(rounds[summary.key] ?? 0, summary.roundMedians.count)
        }
        let counts = Dictionary(grouping: rounds.values, by: { $0 }).mapValues(\.count).sorted { $0.key < $1.key }
        let stopped = counts.enumerated().map { index, entry in
            index == 0 ? "\(plural(entry.value, "case")) stopped at \(plural(entry.key, "round"))"
                : "\(entry.value) at \(entry.key)"
        }
        return (stopped + (hung.isEmpty ? [] : ["\(hung.count) hung"])).joined(separator: ", ")
    }

    /// Marks an adaptive run's file complete once its last round (`rounds`) has ended, if it holds every round
    /// up to that one; else says it is incomplete, as a last round of a fixed run does.
    private func completeAdaptiveRun(path: String, rounds: Int) throws {
        var missing: [Int] = []
        try ResultsWriter.markRunComplete(path: path) { header, rows in
            missing = Self.missingRounds(in: rows, header: header, rounds: rounds)
            return missing.isEmpty
        }
        if !missing.isEmpty {
            warn("warning: \(path) has no rows of round(s) \(missing.map(String.init).joined(separator: ", ")): "
                 + "the run is incomplete and its file says so (\(ResultsSchema.runCompleteColumn)="
                 + "\(ResultsSchema.runIncomplete))")
        }
    }

    /// Ends a run of rounds that a signal stopped, with the signal's exit status.
    private func stopped(by signal: Int32, path: String, after completedRounds: Int) throws -> Never {
        warn("stopped by \(Interruption.name(signal)): " + kept(path: path, rounds: completedRounds))
        throw ExitCode(Interruption.exitStatus(signal))
    }

    /// What the file holds after `rounds` whole rounds (and the whole cases of the one that stopped); removes it
    /// when it holds nothing.
    func kept(path: String, rounds: Int) -> String {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size, size > 0 else {
            try? FileManager.default.removeItem(atPath: path)
            return "no case completed, so no file was left"
        }
        let whole = rounds == 0 ? "" : rounds == 1 ? "the rows of round 1 and " : "the rows of rounds 1–\(rounds) and "
        return "\(path) holds \(whole)the cases round \(rounds + 1) completed"
    }
}
