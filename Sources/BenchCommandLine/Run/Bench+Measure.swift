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
    func measure(_ cases: [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)]) throws {
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
        let progress = Progress(total: cases.count, logicalCPUs: environment.logicalCPUs,
                                roundsAfter: round.map { runSettings.rounds - $0 } ?? 0,
                                atMost: runSettings.adaptiveMinimum != nil)
        let roundText = round.map { "round \($0) of \(runSettings.rounds) (seed \(runSettings.seed)): " } ?? ""
        warn("\(ProgramName.current): \(roundText)\(plural(cases.count, "case")), "
             + "\(plural(settings.samples, "sample")) of ≥\(settings.sampleNanoseconds / 1_000_000) ms each, "
             + "writing \(writer.path)")
        var results: [CaseResult] = []
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
        for (index, (benchmarkCase, benchmark)) in cases.enumerated() {
            if let signal = interruption.stoppingSignal { try stopped(by: signal) }
            progress.starting(benchmarkCase, index: index)
            let workload = benchmark.setup(benchmarkCase)
            let caseResults: [CaseResult]
            let earlierPlan = plans?.plan(for: benchmarkCase)
            do {
                let measured = try runner.measure(benchmarkCase, workload: workload, plan: earlierPlan) {
                    !interruption.isRequested
                }
                caseResults = measured.results
                if earlierPlan == nil { try plans?.record(measured.plan, for: benchmarkCase) }
            } catch is MeasurementInterrupted {
                try stopped(by: interruption.stoppingSignal ?? SIGINT)
            } catch let mismatch as PlanMismatch {
                throw BenchError("the rounds' plan for \(benchmarkCase) does not fit it: \(mismatch.reason)",
                                 exitCode: ExitStatus.internalError)
            }
            try Self.append(caseResults, to: writer, after: results, of: cases.count,
                            logicalCPUs: environment.logicalCPUs)
            results += caseResults
        }
        try finish(writer, results, runSettings, logicalCPUs: environment.logicalCPUs)
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
