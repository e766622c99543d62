import BenchCore
@testable import BenchResults
import Foundation
import Testing

/// What becomes of the results file when a run does not go to plan: a full disk, a stop before the first case
/// completed, several runs started in one second.
@Suite(.serialized) struct ResultsFileTests {
    /// Two samples of each harness case at one and two threads: 8 cases, 16 rows (no control added).
    static let eightSmallCases = [
        "--rounds", "1", "--filter", "^harness/(empty|opaque-call|lazy-static|mutex-pair)/", "--threads", "1,2",
        "--samples", "2", "--sample-time", "1", "--no-controls",
    ]

    /// Issue 14 (5): a write that fails (here EFBIG, from a file size limit of 6 × 512 bytes: room for the header
    /// and a few cases, not for all 16 rows) leaves the file ending at the last whole row, summarizes the kept
    /// cases, says how many were kept and exits 74.
    @Test func aFullDiskLeavesTheCompletedCasesWhole() async throws {
        let path = BenchProcess.temporaryPath("full")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BenchProcess.debug.run(Self.eightSmallCases + ["--output", path],
                                                 shellSetup: "trap '' XFSZ; ulimit -f 6")
        #expect(outcome.status == 74, "stderr: \(outcome.standardError)")
        let error = outcome.errorLines.last ?? ""
        #expect(error.hasPrefix("bench: error: cannot write results to \(path): File too large"), "\(error)")
        #expect(error.contains("ends at the last whole row"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.utf8.last == UInt8(ascii: "\n"), "the file ends with a whole row")
        let records = try CSVFormat.decode(text)
        #expect(records.first == ResultsSchema.header)
        #expect(records.allSatisfy { $0.count == ResultsSchema.header.count })
        let rows = records.count - 1
        #expect(rows > 0 && rows < 16 && rows % 2 == 0, "whole cases only, and not all of them: \(rows) rows")
        #expect(error.contains("it keeps the \(rows / 2) completed cases (of 8)"), "\(error)")
        #expect(outcome.standardOutput.contains("harness/empty/loop threads:1"), "the kept cases are summarized")
    }

    /// A write that fails for the first case leaves no file behind.
    @Test func aFullDiskBeforeTheFirstCaseLeavesNoFile() async throws {
        let path = BenchProcess.temporaryPath("full-at-once")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BenchProcess.debug.run(
            ["--filter", "^harness/empty/", "--threads", "1", "--samples", "1", "--sample-time", "1",
             "--output", path],
            shellSetup: "trap '' XFSZ; ulimit -f 1")
        #expect(outcome.status == 74, "stderr: \(outcome.standardError)")
        #expect(outcome.standardError.contains("no case was kept, so the file was removed"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Issue 14 (7): a stop before the first case completed leaves no file, in particular none holding only a
    /// header, so that Results/ holds only files with rows. (The first case samples for a second or more; the
    /// signal arrives as soon as it has begun.)
    @Test(arguments: [SIGINT, SIGTERM])
    func aStopBeforeTheFirstCaseLeavesNoFile(signal: Int32) async throws {
        let directory = try BenchProcess.temporaryDirectory("early-stop")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (process, output, error) = try BenchProcess.debug.start(
            ["--filter", "^harness/empty/", "--threads", "1", "--samples", "60", "--sample-time", "20", "--no-controls"],
            in: directory)
        let errorText = await onPlainThread { () -> String in
            var errorText = BenchProcess.read(error, until: "[1/1]")
            Thread.sleep(forTimeInterval: 0.1)
            kill(process.processIdentifier, signal)
            errorText += String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            _ = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return errorText
        }

        #expect(process.terminationStatus == 128 + signal, "stderr: \(errorText)")
        #expect(errorText.contains("before any case completed: removed Results/"), "stderr: \(errorText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/Results") == [])
    }

    /// Issue 14 (8): runs started in the same second without --output all succeed, each into a file of its own.
    @Test func runsStartedTogetherGetFilesOfTheirOwn() async throws {
        let directory = try BenchProcess.temporaryDirectory("same-second")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let arguments = ["--rounds", "1", "--filter", "^harness/empty/", "--threads", "1", "--samples", "1",
                         "--sample-time", "1", "--no-controls"]
        let started = try (0..<3).map { _ in
            try BenchProcess.debug.start(arguments, in: directory, environment: ["BENCH_COMMIT": "abcdef0123"])
        }
        for (process, output, error) in started {
            let errorText = await onPlainThread { () -> String in
                _ = output.fileHandleForReading.readDataToEndOfFile()
                let errorText = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return errorText
            }
            #expect(process.terminationStatus == 0, "stderr: \(errorText)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/Results").sorted()
        #expect(files.count == 3, "\(files)")
        for file in files {
            #expect(file.wholeMatch(of: /\d{8}-\d{6}-abcdef0(-[23])?\.csv/) != nil, "\(file)")
            let (_, rows) = try BenchProcess.rows(ofCSV: directory + "/Results/" + file)
            #expect(rows.count == 1)
        }
        #expect(Set(try files.map { try BenchProcess.rows(ofCSV: directory + "/Results/" + $0).rows[0]["run_id"] })
            .count == 3)
    }
}
