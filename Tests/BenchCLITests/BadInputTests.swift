@testable import bench
import Foundation
import Testing

/// Bad input ends the run with a non-zero status and one clear line on stderr: never a trap, a stack trace or
/// a usage dump.
@Suite struct BadInputTests {
    static let cases: [(arguments: [String], mentions: String)] = [
        (["--threads", "0"], "'0' is not a thread count"),
        (["--threads", "x"], "'x' is not a thread count"),
        (["--threads", "1,,2"], "'' is not a thread count"),
        (["--filter", "(unclosed"], "not a valid regular expression"),
        (["--filter", "no-such-case"], "no case matches"),
        (["--filter", "^wait/handoff/", "--threads", "1"], "the matching cases run only at 2 threads"),
        (["--samples", "0"], "--samples must be at least 1"),
        (["--sample-time", "0"], "--sample-time must be"),
        (["--bogus"], "--bogus"),
        (["self-check", "--repetitions", "0"], "--repetitions must be at least 1"),
        (["--filter", "^harness/empty/", "--threads", "1", "--output", "/nonexistent-dir/out.csv"],
         "cannot write results to /nonexistent-dir/out.csv"),
    ]

    @Test(arguments: cases.indices)
    func rejectedWithOneLine(index: Int) throws {
        let (arguments, mentions) = Self.cases[index]
        let outcome = try BenchProcess.debug.run(arguments)
        #expect(outcome.status != 0)
        #expect(outcome.errorLines.count == 1, "stderr: \(outcome.standardError)")
        #expect(outcome.standardError.hasPrefix("bench: error: "))
        #expect(outcome.standardError.contains(mentions), "stderr: \(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test func anExistingOutputFileIsNotOverwritten() throws {
        let path = BenchProcess.temporaryPath("existing")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "precious\n".write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try BenchProcess.debug.run(["--filter", "^harness/empty/", "--threads", "1", "--output", path])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("already exists"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
    }

    @Test func listPrintsCasesAndTimesNothing() throws {
        let outcome = try BenchProcess.debug.run(["--list", "--filter", "^harness/", "--threads", "1,3"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.contains("harness/empty/loop threads:3"))
        #expect(lines.last == "\(lines.count - 1) cases")
    }

    @Test func helpAnswersTheOptions() throws {
        let outcome = try BenchProcess.debug.run(["--help"])
        #expect(outcome.status == 0)
        for option in ["--filter", "--threads", "--samples", "--sample-time", "--quick", "--output", "--list",
                       "--version"] {
            #expect(outcome.standardOutput.contains(option))
        }
    }

    /// Issue 14 (14): every exit status is explained in --help, SIGTERM's among them.
    @Test func helpListsEveryExitStatus() throws {
        let help = try BenchProcess.debug.run(["--help"]).standardOutput
        #expect(help.contains("Ctrl-C or SIGTERM stops at the next sample"))
        for (status, meaning) in ExitStatus.all {
            #expect(help.contains("  \(String(status).padding(toLength: 5, withPad: " ", startingAt: 0))\(meaning)"))
        }
        #expect(ExitStatus.all.map(\.status) == [0, 1, 64, 70, 73, 74, 130, 143])
    }

    /// Issue 14 (14): `bench --version` prints the version the CSV records as bench_version.
    @Test func versionPrintsTheToolsVersion() throws {
        let outcome = try BenchProcess.debug.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == BenchVersion.current + "\n")
        #expect(BenchVersion.current.wholeMatch(of: /\d+\.\d+\.\d+/) != nil)
    }
}
