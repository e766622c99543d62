import BenchCore
@testable import BenchResults
import Foundation
import Testing

/// Whole runs of the built tool: what lands in the CSV, Ctrl-C, and the harness floor in a release build.
@Suite(.serialized) struct RunTests {
    @Test func aRunWritesOneRowPerSampleAndASummary() async throws {
        let path = BenchProcess.temporaryPath("run")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BenchProcess.debug.run(
            ["--rounds", "1", "--filter", "^harness/(empty|mutex-pair)/", "--threads", "1,3", "--samples", "3", "--sample-time", "1",
             "--no-controls", "--output", path])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        #expect(outcome.standardError.contains("DEBUG build"), "a debug build warns loudly")
        #expect(outcome.standardOutput.contains("harness/mutex-pair/pthread-mutex threads:3 *"))
        let records = try CSVFormat.decode(String(contentsOfFile: path, encoding: .utf8))
        #expect(records[0] == ResultsSchema.header)
        #expect(records.count == 13, "the header, then 4 cases × 3 samples")
        let rows = records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(records[0], $0)) }
        let version = String(ResultsSchema.version)
        #expect(rows.allSatisfy { (row: [String: String]) in row["build"] == "debug" && row["schema_version"] == version })
        #expect(Set(rows.map { $0["threads"]! }) == Set(["1", "3"]))
    }

    /// Ctrl-C, and (issue 14 (10)) SIGTERM, which CI sends when it cancels a job: the run stops at the next
    /// sample boundary, says so, prints the summary of the completed cases, leaves a valid CSV of them and exits
    /// 128 + the signal (130, 143).
    @Test(arguments: [SIGINT, SIGTERM])
    func aStopSignalLeavesAValidCSVOfTheCompletedCases(signal: Int32) async throws {
        let path = BenchProcess.temporaryPath("interrupted")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let samples = 40
        let (process, output, error) = try BenchProcess.debug.start(
            ["--rounds", "1", "--filter", "^harness/", "--threads", "1,2", "--samples", "\(samples)", "--sample-time", "5",
             "--output", path])
        let (errorText, outputText) = await onPlainThread { () -> (String, String) in
            // Wait until the first case's rows are on disk, then stop the run mid-way.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                if text.utf8.lazy.filter({ $0 == UInt8(ascii: "\n") }).count > samples { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            kill(process.processIdentifier, signal)
            let errorText = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let outputText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (errorText, outputText)
        }

        #expect(process.terminationStatus == 128 + signal)
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(errorText.contains("\(name): stopping after the current sample"), "stderr: \(errorText)")
        #expect(errorText.contains("interrupted by \(name): \(path) is a valid CSV"), "stderr: \(errorText)")
        #expect(outputText.contains("harness/empty/loop threads:1"), "the summary of the completed cases")
        let records = try CSVFormat.decode(String(contentsOfFile: path, encoding: .utf8))
        #expect(records[0] == ResultsSchema.header)
        let rows = records.dropFirst()
        #expect(rows.allSatisfy { $0.count == ResultsSchema.header.count })
        #expect(!rows.isEmpty && rows.count % samples == 0, "whole cases only: \(rows.count) rows")
        #expect(rows.count < 8 * samples, "the run stopped before its end")
    }
}

/// What a run records about itself besides the samples: its settings and the version of the tool.
@Suite struct RunRecordTests {
    /// Issue 14 (4): the command line's settings are on every row, so that a file says how it was measured.
    @Test func theRunSettingsAreRecordedOnEveryRow() async throws {
        let path = BenchProcess.temporaryPath("settings")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BenchProcess.debug.run(
            ["--rounds", "1", "--filter", "^harness/(empty|opaque-call)/", "--threads", "1", "--samples", "1",
             "--sample-time", "1", "--no-controls", "--output", path])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let version = try await BenchProcess.debug.run(["--version"])
        #expect(version.status == 0)
        let (header, rows) = try BenchProcess.rows(ofCSV: path)
        #expect(header == ResultsSchema.header)
        #expect(rows.count == 2)
        for row in rows {
            #expect(row["schema_version"] == String(ResultsSchema.version))
            #expect(row["round"] == "1")
            #expect(row["run_samples"] == "1")
            #expect(row["run_warmup"] == "1")
            #expect(row["run_sample_ns"] == "1000000")
            #expect(row["run_quick"] == "false")
            #expect(row["run_filter"] == "^harness/(empty|opaque-call)/")
            #expect(row["run_threads"] == "1")
            #expect(row["run_rounds"] == "1")
            #expect(row["run_seed"] == "")
            #expect(row["load_avg_1m"].flatMap(Double.init) != nil, "the load average at start: \(row)")
            #expect(row["bench_version"] == version.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(["true", "false", "unknown"].contains(row["dirty"]))
        }
    }

    @Test func quickAndAReorderedThreadListAreRecorded() async throws {
        let path = BenchProcess.temporaryPath("quick")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BenchProcess.debug.run(
            ["--quick", "--rounds", "1", "--filter", "^harness/empty/", "--threads", "2, 1", "--samples", "1",
             "--no-controls", "--output", path])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let (_, rows) = try BenchProcess.rows(ofCSV: path)
        #expect(rows.count == 2)
        #expect(rows.allSatisfy {
            $0["run_quick"] == "true" && $0["run_warmup"] == "1" && $0["run_sample_ns"] == "2000000"
                && $0["run_threads"] == "2,1" && $0["run_samples"] == "1"
        })
    }
}
