@testable import BenchCommandLine
import Foundation
import Testing

/// Bad input ends the run with a non-zero status and one clear line on stderr: never a trap, a stack trace or
/// a usage dump.
@Suite struct BadInputTests {
    /// Arguments, what the one line says, and the exit status (64: bad input, 73: the file cannot be created).
    static let cases: [(arguments: [String], mentions: String, status: Int32)] = [
        (["--threads", "0"], "'0' is not a thread count (a case needs at least 1 thread)", 64),
        (["--threads", "x"], "'x' is not a thread count (not a whole number)", 64),
        (["--threads", "a,b"], "The value 'a,b' is invalid for '--threads <list>': 'a' is not a thread count", 64),
        (["--threads", "1,,2"], "'' is not a thread count (nothing between two commas", 64),
        (["--threads", "600"], "'600' is not a thread count (at most 512 threads)", 64),
        // Issue 14 (17): `-1` is the value of --threads, not an option, and the message says what is wrong.
        (["--threads", "-1"], "The value '-1' is invalid for '--threads <list>': '-1' is not a thread count (", 64),
        (["--threads", "1,-4"], "The value '1,-4' is invalid for '--threads <list>': '-4' is not a thread count", 64),
        (["--threads=1,0"], "The value '1,0' is invalid for '--threads <list>': '0' is not a thread count", 64),
        (["count", "--threads", "0"], "'0' is not a thread count", 64),
        (["--filter", "(unclosed"], "not a valid regular expression", 64),
        // Issue 44 (8): the message says why the expression is not valid.
        (["--filter", "^once/(hit"], "--filter: '^once/(hit' is not a valid regular expression: expected ')'", 64),
        // Issue 14 (17): an empty filter is named as such, not as a bad regular expression.
        (["--filter", ""], "--filter is empty: give a regular expression", 64),
        (["--filter", "no-such-case"], "no case matches", 64),
        (["--filter", "^wait/handoff/", "--threads", "1"], "the matching cases run only at 2 threads", 64),
        (["--samples", "0"], "--samples must be at least 1", 64),
        (["--samples", "-1"], "--samples must be at least 1, not -1", 64),
        (["--sample-time", "0"], "--sample-time must be", 64),
        (["--sample-time", "-5"], "--sample-time must be 1 to 60000 milliseconds, not -5", 64),
        (["--bogus"], "--bogus", 64),
        (["--hang-timeout", "0"], "--hang-timeout must be a positive number of seconds, not 0.0", 64),
        (["--hang-timeout", "ten"], "expected a number of seconds, such as 10 or 2.5", 64),
        // Shorter than a few samples, every correct lockstep case would be called hung.
        (["--hang-timeout", "0.05"], "--hang-timeout must be at least 10 sample times (0.08 s here)", 64),
        (["--after-hang", "1"], "--after-hang goes with --round", 64),
        (["self-check", "--repetitions", "0"], "--repetitions must be at least 1", 64),
        // Issue 20 (7): a negative count is named as invalid, not as missing; --iterations and --quick conflict.
        (["count", "--iterations", "-5"], "--iterations must be at least 1, not -5", 64),
        (["--quick", "count", "--iterations", "1"], "--iterations and --quick exclude each other", 64),
        (["count", "--quick", "--iterations", "1"], "--iterations and --quick exclude each other", 64),
        (["--filter", "^harness/empty/", "--threads", "1", "--output", "/nonexistent-dir/out.csv"],
         "cannot write results to /nonexistent-dir/out.csv", 73),
    ]

    @Test(arguments: cases.indices)
    func rejectedWithOneLine(index: Int) async throws {
        let (arguments, mentions, status) = Self.cases[index]
        let outcome = try await BenchProcess.debug.run(arguments)
        #expect(outcome.status == status)
        #expect(outcome.errorLines.count == 1, "stderr: \(outcome.standardError)")
        #expect(outcome.standardError.hasPrefix("bench: error: "))
        #expect(outcome.standardError.contains(mentions), "stderr: \(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty)
    }

    /// Issue 14 (17): an --output that names a directory is called a directory, with or without --overwrite,
    /// and --overwrite is not suggested (it would not help).
    @Test(arguments: [false, true])
    func anOutputDirectoryIsNamedAsOne(overwrite: Bool) async throws {
        let directory = try BenchProcess.temporaryDirectory("output-dir")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let arguments = ["--filter", "^harness/empty/", "--threads", "1", "--output", directory]
        let outcome = try await BenchProcess.debug.run(arguments + (overwrite ? ["--overwrite"] : []))
        #expect(outcome.status == 73)
        #expect(outcome.errorLines == ["bench: error: cannot write results to \(directory): it is a directory "
                                       + "(name a file, such as \(directory)/results.csv)"])
        #expect(!outcome.standardError.contains("--overwrite"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func anExistingOutputFileIsNotOverwritten() async throws {
        let path = BenchProcess.temporaryPath("existing")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "precious\n".write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await BenchProcess.debug.run(["--filter", "^harness/empty/", "--threads", "1", "--output", path])
        #expect(outcome.status == 73)
        #expect(outcome.standardError.contains("already exists (choose another --output, or pass --overwrite)"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
    }

    @Test func listPrintsCasesAndTimesNothing() async throws {
        let outcome = try await BenchProcess.debug.run(["--list", "--filter", "^harness/", "--threads", "1,3"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.contains("harness/empty/loop threads:3"))
        #expect(lines.last == "\(lines.count - 1) cases")
    }

    @Test func helpAnswersTheOptions() async throws {
        let outcome = try await BenchProcess.debug.run(["--help"])
        #expect(outcome.status == 0)
        for option in ["--filter", "--threads", "--samples", "--sample-time", "--quick", "--output", "--list",
                       "--version"] {
            #expect(outcome.standardOutput.contains(option))
        }
    }

    /// Issue 14 (14): every exit status is explained in --help, SIGTERM's among them.
    @Test func helpListsEveryExitStatus() async throws {
        let help = try await BenchProcess.debug.run(["--help"]).standardOutput
        #expect(help.contains("Ctrl-C or SIGTERM stops at the next sample"))
        for (status, meaning) in ExitStatus.all {
            #expect(help.contains("  \(String(status).padding(toLength: 5, withPad: " ", startingAt: 0))\(meaning)"))
        }
        #expect(ExitStatus.all.map(\.status) == [0, 1, 3, 64, 69, 70, 73, 74, 130, 143])
    }

    /// docs/exit-codes.md's table of exit statuses lists the statuses `bench` has, in order, no more, no fewer.
    @Test func theExitCodesPageListsEveryStatus() throws {
        let page = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/exit-codes.md").path,
                              encoding: .utf8)
        let section = try #require(page.components(separatedBy: "## Exit statuses of `bench`\n").dropFirst().first)
        let table = section.components(separatedBy: "\n\n").first ?? ""
        let statuses = table.split(separator: "\n").compactMap { line -> Int32? in
            guard line.hasPrefix("| ") else { return nil }
            return Int32(line.dropFirst(2).prefix { $0 != " " })
        }
        #expect(statuses == ExitStatus.all.map(\.status))
    }

    /// Issue 14 (14): `bench --version` prints the version the CSV records as bench_version.
    @Test func versionPrintsTheToolsVersion() async throws {
        let outcome = try await BenchProcess.debug.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == BenchVersion.current + "\n")
        #expect(BenchVersion.current.wholeMatch(of: /\d+\.\d+\.\d+/) != nil)
    }
}
