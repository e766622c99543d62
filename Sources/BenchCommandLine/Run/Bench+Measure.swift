import ArgumentParser
import BenchCore
import BenchPlatform
import BenchResults
import Foundation
import Synchronization

extension Bench {
    /// Measures `cases` in order, appending each completed case to the CSV, then prints the summary.
    ///
    /// In a round of a `--rounds` run (`--round K`), the rows record the run's shared environment and are
    /// appended to `--output` after the earlier rounds' rows; the run that started the rounds prints the summary
    /// of them all (`RunSummary`).
    ///
    /// Each case is measured on a coordinator thread of its own, watched (`HangWatch`): a case that makes no
    /// progress for the hang timeout is abandoned, its rows say `hung` (`Hang.results`), and the run goes on. In a
    /// round, a fresh process takes over the rest of the round (`--after-hang`), so that no later case is measured
    /// beside the hung case's threads, which nothing can end but the end of their process; with `--rounds 1` the
    /// process goes on beside them. The command exits `ExitStatus.suspectedDeadlock` once every case is done.
    ///
    /// `controls`: the cases of `cases` that the run added as controls (`TimedCases`), which the first line and the
    /// progress name as such.
    func measure(_ cases: [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)],
                 controls: Set<BenchmarkCase> = []) throws {
        try allocator?.ensureLoaded()
        let environment = try runEnvironment.map { try RunEnvironment.shared(at: $0, benchVersion: BenchVersion.current) }
            ?? RunEnvironment.current(benchVersion: BenchVersion.current)
        let runSettings = try runSettings()
        // Signals are caught before the file exists, so that none can end the process and leave the file behind.
        let openWriter = Mutex<ResultsWriter?>(nil)
        let interruption = Self.interruption(endingAtOnce: { openWriter.withLock { $0 } })
        let writer = try output.flatMap { output in
            try round.map { _ in
                try ResultsWriter.appending(to: output, header: ResultsSchema.header, environment: environment,
                                            settings: runSettings)
            }
        } ?? resultsWriter(environment, runSettings)
        openWriter.withLock { $0 = writer }
        warnBeforeMeasuring(environment)

        let settings = self.settings
        let runner = CaseRunner(settings: settings)
        var plans = try self.plans.map(RoundPlans.init(readingFrom:))
        let firstCase = min(afterHang ?? 0, cases.count)
        let progress = Progress(total: cases.count, logicalCPUs: environment.logicalCPUs,
                                roundsAfter: round.map { runSettings.rounds - $0 } ?? 0,
                                atMost: runSettings.adaptiveMinimum != nil, firstCase: firstCase)
        let roundText = round.map { "round \($0) of \(runSettings.rounds) (seed \(runSettings.seed)): " } ?? ""
        if firstCase > 0 {
            warn("\(ProgramName.current): \(roundText)going on with case \(firstCase + 1) of \(cases.count) in a "
                 + "fresh process, after case \(firstCase) hung")
        } else {
            warn("\(ProgramName.current): \(roundText)\(TimedCases(cases: cases, controls: controls).countText), "
                 + "\(plural(settings.samples, "sample")) of ≥\(settings.sampleNanoseconds / 1_000_000) ms each, "
                 + "writing \(writer.path)")
        }
        let hangTimeout = UInt64(hangTimeoutSeconds * 1e9)
        var results: [CaseResult] = []
        var hung: [BenchmarkCase] = []
        /// Ends the run early: what the file holds, the summary of the completed cases, the exit status.
        func stopped(by signal: Int32) throws -> Never {
            let name = Interruption.name(signal)
            if writer.removeIfEmpty() {
                warn("interrupted by \(name) before any case completed: removed \(writer.path), which held no rows")
            } else {
                warn("interrupted by \(name): \(writer.path) is a valid CSV of the \(writer.casesWritten) completed "
                     + "cases (of \(cases.count)); the case in progress was dropped")
                print(SummaryTable.render(results, logicalCPUs: environment.logicalCPUs))
            }
            throw ExitCode(Interruption.exitStatus(signal))
        }
        for (index, (benchmarkCase, benchmark)) in cases.enumerated() where index >= firstCase {
            if let signal = interruption.stoppingSignal { try stopped(by: signal) }
            progress.starting(benchmarkCase, index: index, control: controls.contains(benchmarkCase))
            let earlierPlan = plans?.plan(for: benchmarkCase)
            let pulse = CasePulse()
            let outcome = HangWatch.run(watching: pulse, timeout: hangTimeout, stop: { interruption.isRequested }) {
                Result {
                    try runner.measure(benchmarkCase, workload: benchmark.setup(benchmarkCase), plan: earlierPlan,
                                       pulse: pulse) { !interruption.isRequested }
                }
            }
            let caseResults: [CaseResult]
            var abandoned: Hang?
            switch outcome {
            case .finished(let measured):
                do {
                    let (measuredResults, plan) = try measured.get()
                    caseResults = measuredResults
                    if earlierPlan == nil { try plans?.record(plan, for: benchmarkCase) }
                } catch is MeasurementInterrupted {
                    try stopped(by: interruption.stoppingSignal ?? SIGINT)
                } catch let mismatch as PlanMismatch {
                    throw BenchError("the rounds' plan for \(benchmarkCase) does not fit it: \(mismatch.reason)",
                                     exitCode: ExitStatus.internalError)
                }
            case .stopped:
                try stopped(by: interruption.stoppingSignal ?? SIGINT)
            case .hung(let hang):
                warn(Self.hungLine(benchmarkCase, hang))
                caseResults = hang.results(for: benchmarkCase)
                hung.append(benchmarkCase)
                abandoned = hang
            }
            try Self.append(caseResults, to: writer, after: results, of: cases.count,
                            logicalCPUs: environment.logicalCPUs)
            results += caseResults
            if let abandoned, index + 1 < cases.count, !interruption.isRequested {
                goOn(after: abandoned, caseNumber: index + 1, of: cases.count)
            }
        }
        try finish(writer, results, runSettings, logicalCPUs: environment.logicalCPUs)
        if !hung.isEmpty || firstCase > 0 {
            throw BenchError(Self.hungEnding(hung, earlier: firstCase > 0, round: round),
                             exitCode: ExitStatus.suspectedDeadlock)
        }
    }

    /// The stderr line that names a case abandoned as hung, what it was doing, and whether anything still ran
    /// meanwhile.
    static func hungLine(_ benchmarkCase: BenchmarkCase, _ hang: Hang) -> String {
        let meanwhile = hang.cpuShare < Self.runningShare ? "the process used no CPU meanwhile: the case's threads "
            + "are blocked" : String(format: "the process used %.1f CPUs meanwhile: something still runs without "
                                     + "visible progress", hang.cpuShare)
        return "hung: \(benchmarkCase) made no progress for \(String(format: "%.1f", Double(hang.nanoseconds) / 1e9)) s "
            + "while \(hang.stage) (--hang-timeout; \(meanwhile)); abandoned: its rows say hung=true, with no timing"
    }

    /// The process's CPU, as a share of the hung span, from which an abandoned case is taken to be still running
    /// (threads spinning without completing anything, or a step slower than the timeout) rather than blocked: a
    /// tenth of a CPU, far above what the watcher and a process's idle threads use, far below one running thread.
    static let runningShare = 0.1

    /// The message a command that abandoned cases ends with (on stderr, with its exit status).
    static func hungEnding(_ hung: [BenchmarkCase], earlier: Bool, round: Int?) -> String {
        let names = hung.map(\.description).joined(separator: ", ")
        let roundText = round.map { "round \($0): " } ?? ""
        guard !hung.isEmpty else { return "\(roundText)a case hung (named above, in the process before this one)" }
        return "\(roundText)\(plural(hung.count, "case")) hung: \(names)"
            + (earlier ? ", and earlier in this round, in the process before this one (named above)" : "")
            + " (no progress for --hang-timeout; rows hung=true, no timing)"
    }

    /// Goes on after case `caseNumber` of `total`, abandoned as `hang`. A round replaces its process with a fresh
    /// one measuring the rest of the round (`--after-hang`): the hung case's threads, blocked or spinning, end with
    /// this process, so that no later case is measured beside them. Returns when there is no round (`--rounds 1`,
    /// which measures in this one process) or the fresh process cannot be started: the run then goes on here,
    /// beside the threads, and says so when they still run.
    private func goOn(after hang: Hang, caseNumber: Int, of total: Int) {
        if round != nil {
            warn("going on with case \(caseNumber + 1) of \(total) in a fresh process: the hung case's threads end "
                 + "with this one")
            fflush(nil)
            let arguments = Self.roundArguments(Array(CommandLine.arguments.dropFirst()),
                                                setting: [("--after-hang", String(caseNumber))])
            let error = Platform.replaceProcess(with: BenchMain.executable,
                                                arguments: [CommandLine.arguments[0]] + arguments)
            warn("warning: cannot start a fresh process for the rest of the round (\(error)): going on in this one")
        }
        if hang.cpuShare >= Self.runningShare {
            warn(String(format: "warning: the abandoned case still used %.1f CPUs: the cases after it in this "
                        + "process are measured beside whatever of it still runs (a run of rounds, the default, "
                        + "measures them in a fresh process)", hang.cpuShare))
        }
    }

    /// Catches SIGINT and SIGTERM: the first asks the run to stop after the current sample; the second ends it at
    /// once, keeping the completed cases of the file `endingAtOnce` returns by then (or exiting when there is none).
    private static func interruption(endingAtOnce currentWriter: @escaping @Sendable () -> ResultsWriter?)
        -> Interruption {
        Interruption(
            onFirst: { signal in
                warn("\(Interruption.name(signal)): stopping after the current sample "
                     + "(\(Interruption.again(signal)) to stop at once)")
            },
            onSecond: { signal in
                guard let writer = currentWriter() else { Platform.exit(Interruption.exitStatus(signal)) }
                writer.endAtOnce { kept, removed in
                    let name = Interruption.name(signal)
                    warn(removed ? "stopped by \(name) before any case completed: removed \(writer.path)"
                         : "stopped by \(name): \(writer.path) holds the completed \(plural(kept, "case"))")
                    Platform.exit(Interruption.exitStatus(signal))
                }
            }
        )
    }

    /// What a user should know before the figures: a debug build, a feature this platform lacks, and, in the
    /// first round, a busy machine or a git that cannot be read.
    private func warnBeforeMeasuring(_ environment: RunEnvironment) {
        if let note = PlatformFeature.osThreadCount.unavailableNote { warn(note) }
        if let note = PlatformFeature.schedulerStatistics.unavailableNote { warn(note) }
        if let note = PlatformFeature.stealTime.unavailableNote { warn(note) }
        if RunEnvironment.buildIsDebug {
            warn("""
            WARNING: this is a DEBUG build: timings are meaningless for comparison and are recorded as build=debug.
            WARNING: run `swift run -c release bench` instead.
            """)
        }
        guard (round ?? 1) == 1 else { return }
        if let warning = NoiseCheck.loadWarning(loadAverage: environment.loadAverage1m,
                                                logicalCPUs: environment.logicalCPUs) {
            warn(warning)
        }
        if let problem = environment.gitProblem {
            warn("warning: cannot read git here (\(problem)): the results record commit=\(environment.commit), "
                 + "dirty=unknown")
        }
    }

    /// Appends a completed case's rows. A write that fails midway (a full disk) ends the run: the file keeps the
    /// cases completed before, which are summarized (`earlier`), or is removed when it has none.
    private static func append(_ caseResults: [CaseResult], to writer: ResultsWriter, after earlier: [CaseResult],
                               of total: Int, logicalCPUs: Int) throws {
        do {
            try writer.append(caseResults)
        } catch let error as ResultsWriterError {
            let kept = writer.casesWritten
            if writer.removeIfEmpty() {
                throw BenchError("\(error); no case was kept, so the file was removed",
                                 exitCode: ExitStatus.writeFailed)
            }
            print(SummaryTable.render(earlier, logicalCPUs: logicalCPUs))
            throw BenchError("\(error); it keeps the \(kept) completed cases (of \(total)), summarized above",
                             exitCode: ExitStatus.writeFailed)
        }
    }

    /// Ends a run whose cases all completed. A whole run marks its file complete and prints the summary; a round
    /// says what it appended, and the last round marks the file complete only when it holds every round (whoever
    /// started them: `bench --rounds` or scripts/bench-commits, each of which stops at a failed round). The rounds
    /// of an adaptive run (`--min-rounds`) leave that to the run's first process, which alone knows which is last.
    private func finish(_ writer: ResultsWriter, _ results: [CaseResult], _ runSettings: RunSettings,
                        logicalCPUs: Int) throws {
        guard let round else {
            try writer.completeRun()
            print(SummaryTable.render(results, logicalCPUs: logicalCPUs))
            printWhatWasWritten(writer.path,
                                "\(plural(writer.rowsWritten, "row")), \(plural(writer.casesWritten, "case"))")
            return
        }
        if round == runSettings.rounds && minimumRounds == nil {
            var missing: [Int] = []
            try writer.completeRun { header, rows in
                missing = Self.missingRounds(in: rows, header: header, rounds: runSettings.rounds)
                return missing.isEmpty
            }
            if !missing.isEmpty {
                let rounds = missing.map(String.init).joined(separator: ", ")
                warn("warning: \(writer.path) has no rows of round(s) \(rounds): "
                     + "the run is incomplete and its file says so (\(ResultsSchema.runCompleteColumn)="
                     + "\(ResultsSchema.runIncomplete))")
            }
        }
        warn("round \(round) of \(runSettings.rounds): appended \(plural(writer.rowsWritten, "row")) "
             + "(\(plural(writer.casesWritten, "case"))) to \(writer.path)")
    }

    /// The rounds of 1...`rounds` that have no row in `rows`: the run is complete only when there are none.
    static func missingRounds(in rows: [[String]], header: [String], rounds: Int) -> [Int] {
        guard let column = header.firstIndex(of: "round") else { return [] }
        let present = Set(rows.compactMap { column < $0.count ? Int($0[column]) : nil })
        return (1...rounds).filter { !present.contains($0) }
    }

    /// The settings this command line runs with, as the CSV records them.
    func runSettings() throws -> RunSettings {
        RunSettings(measurement: settings, quick: quick, filter: filter ?? "",
                    threads: threads.description,
                    round: round ?? 1, rounds: round == nil ? 1 : roundCount,
                    adaptiveMinimum: round == nil ? nil : minimumRounds, seed: seed.map(String.init) ?? "",
                    spinScale: spinScale)
    }

    /// A writer for `--output`, or for a new file under Results/ named by the UTC start time and the short commit
    /// (`-2`, `-3`, … appended when a run started in the same second took the name), after `kind` (`counts-`).
    func resultsWriter(_ environment: RunEnvironment, _ settings: RunSettings, kind: String = "") throws -> ResultsWriter {
        try Self.resultsWriter(output: output, overwrite: overwrite, environment, settings, kind: kind)
    }

    /// The writer `resultsWriter` makes, for a subcommand with its own `--output` and `--overwrite`.
    static func resultsWriter(output: String?, overwrite: Bool, _ environment: RunEnvironment, _ settings: RunSettings,
                              kind: String = "") throws -> ResultsWriter {
        if let output {
            return try ResultsWriter(path: output, environment: environment, settings: settings, overwrite: overwrite)
        }
        let stamp = environment.startedAt.filter { $0.isNumber || $0 == "T" }.replacingOccurrences(of: "T", with: "-")
        let directory = "Results"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create \(directory)/ for the results: \(error.localizedDescription)",
                             exitCode: ExitStatus.cannotCreate)
        }
        return try ResultsWriter.unique(in: directory, stem: "\(kind)\(stamp)-\(environment.shortCommit)",
                                        environment: environment, settings: settings)
    }
}

/// Writes a line to stderr.
func warn(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

extension Bench {
    /// The last lines of a completed run, on stdout: where the results are, and the command that reads them.
    func printWhatWasWritten(_ path: String, _ what: String) {
        print("\nwrote \(path) (\(what))")
        print("next: \(ProgramName.analyzeCommand) report \(path)")
    }
}
