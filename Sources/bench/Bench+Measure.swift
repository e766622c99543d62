import ArgumentParser
import BenchCore
import BenchResults
import Foundation

extension Bench {
    /// Measures `cases` in order, appending each completed case to the CSV, then prints the summary.
    func measure(_ cases: [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)]) throws {
        let environment = RunEnvironment.current(benchVersion: BenchVersion.current)
        let path = try outputPath(environment)
        let writer = try ResultsWriter(path: path, environment: environment, settings: try runSettings(),
                                       overwrite: overwrite)
        if RunEnvironment.buildIsDebug {
            warn("""
            WARNING: this is a DEBUG build: timings are meaningless for comparison and are recorded as build=debug.
            WARNING: run `swift run -c release bench` instead.
            """)
        }
        let interruption = Interruption(
            onFirst: { warn("interrupt: stopping after the current sample (Ctrl-C again to stop at once)") },
            onSecond: {
                writer.withLock {
                    warn("interrupted: \(path) holds the \(writer.casesWritten) completed cases")
                    Glibc.exit(130)
                }
            }
        )

        let settings = self.settings
        let runner = CaseRunner(settings: settings)
        let progress = Progress(total: cases.count, logicalCPUs: environment.logicalCPUs)
        warn("bench: \(cases.count) cases, \(settings.samples) samples of ≥\(settings.sampleNanoseconds / 1_000_000) ms "
             + "each, writing \(path)")
        var results: [CaseResult] = []
        for (index, (benchmarkCase, benchmark)) in cases.enumerated() {
            progress.starting(benchmarkCase, index: index)
            let workload = benchmark.setup(benchmarkCase)
            let caseResults: [CaseResult]
            do {
                caseResults = try runner.measure(benchmarkCase, workload: workload) { !interruption.isRequested }
            } catch is MeasurementInterrupted {
                warn("interrupted: \(path) is a valid CSV of the \(writer.casesWritten) completed cases "
                     + "(of \(cases.count)); the case in progress was dropped")
                print(SummaryTable.render(results, logicalCPUs: environment.logicalCPUs))
                throw ExitCode(130)
            }
            for result in caseResults { try writer.append(result) }
            results += caseResults
        }
        print(SummaryTable.render(results, logicalCPUs: environment.logicalCPUs))
        warn("wrote \(path) (\(results.reduce(0) { $0 + $1.samples.count }) rows, \(cases.count) cases)")
    }

    /// The settings this command line runs with, as the CSV records them.
    func runSettings() throws -> RunSettings {
        RunSettings(measurement: settings, quick: quick, filter: filter ?? "",
                    threads: try ThreadList.parse(threads).map(String.init).joined(separator: ","))
    }

    /// `--output`, or a new file under Results/ named by the UTC start time and the short commit.
    func outputPath(_ environment: RunEnvironment) throws -> String {
        if let output { return output }
        let stamp = environment.startedAt.filter { $0.isNumber || $0 == "T" }.replacingOccurrences(of: "T", with: "-")
        let directory = "Results"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create \(directory)/ for the results: \(error.localizedDescription)")
        }
        return "\(directory)/\(stamp)-\(environment.shortCommit).csv"
    }
}

/// Writes a line to stderr.
func warn(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
