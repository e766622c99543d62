import Foundation
import Testing

/// A package that brings its own patterns runs the command line under its own name: usage and help name the
/// executable that was run, and a run's last line names DispatchBench's scripts/analyze as a path from where it
/// was run, not this repository's relative path.
@Suite struct ProgramNameTests {
    @Test func helpNamesTheExecutableThatWasRun() async throws {
        let directory = try BenchProcess.temporaryDirectory("program-name")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let renamed = directory + "/LockLab"
        try FileManager.default.createSymbolicLink(atPath: renamed,
                                                   withDestinationPath: BenchProcess.debug.executable.path)
        let mine = try await BenchProcess(executable: URL(fileURLWithPath: renamed)).run(["stress", "--help"])
        #expect(mine.status == 0, "stderr: \(mine.standardError)")
        #expect(mine.standardOutput.contains("USAGE: LockLab stress ["))
        #expect(!mine.standardOutput.contains("bench stress"))
        // The control: the built-in executable keeps its own name.
        let ours = try await BenchProcess.debug.run(["stress", "--help"])
        #expect(ours.standardOutput.contains("USAGE: bench stress ["))
    }

    /// Issue 60: an error begins with the name of the executable that ran, not `bench`'s.
    @Test func errorsNameTheExecutableThatWasRun() async throws {
        let directory = try BenchProcess.temporaryDirectory("program-name-error")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let renamed = directory + "/LockLab"
        try FileManager.default.createSymbolicLink(atPath: renamed,
                                                   withDestinationPath: BenchProcess.debug.executable.path)
        let mine = try await BenchProcess(executable: URL(fileURLWithPath: renamed)).run(["--threads", "0"])
        #expect(mine.status == 64, "bad input")
        #expect(mine.errorLines.count == 1, "stderr: \(mine.standardError)")
        #expect(mine.standardError.hasPrefix("LockLab: error: The value '0' is invalid for '--threads"), "\(mine.standardError)")
        // The control: the built-in executable keeps its own name.
        let ours = try await BenchProcess.debug.run(["--threads", "0"])
        #expect(ours.standardError.hasPrefix("bench: error: The value '0' is invalid for '--threads"), "\(ours.standardError)")
    }

    @Test func theNextCommandIsAPathFromTheWorkingDirectory() async throws {
        let directory = try BenchProcess.temporaryDirectory("next")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try await BenchProcess.debug.run(RoundsTests.cases + ["--rounds", "1", "--output", "out.csv"],
                                                       in: directory)
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        // Outside the checkout: the absolute path of its scripts/analyze, which exists.
        let next = try #require(outcome.standardOutput.split(separator: "\n").last)
        #expect(next == "next: \(checkout)/scripts/analyze report out.csv")
        #expect(FileManager.default.isExecutableFile(atPath: checkout + "/scripts/analyze"))
    }
}
