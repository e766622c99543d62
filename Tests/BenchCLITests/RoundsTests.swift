import BenchCore
@testable import BenchCommandLine
@testable import BenchResults
import Foundation
import Testing

/// `bench --rounds N`: N fresh processes, one file, one run environment, a seeded order per round.
@Suite struct RoundsTests {
    static let cases = ["--filter", "^harness/(empty|opaque-call)/", "--threads", "1", "--samples", "2",
                        "--sample-time", "1", "--no-controls"]

    @Test func roundsAreFreshProcessesAppendingToOneFileOfOneRun() async throws {
        let path = BenchProcess.temporaryPath("rounds")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BenchProcess.debug.run(Self.cases + ["--rounds", "3", "--seed", "42", "--output", path])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let (header, rows) = try BenchProcess.rows(ofCSV: path)
        #expect(header == ResultsSchema.header)
        #expect(rows.count == 12, "3 rounds × 2 cases × 2 samples")
        let fourRowsARound: [String] = ["1", "2", "3"].flatMap { round in [String](repeating: round, count: 4) }
        #expect(rows.map { $0["round"]! }.sorted() == fourRowsARound)
        #expect(rows.allSatisfy { $0["run_rounds"] == "3" && $0["run_seed"] == "42" })
        #expect(rows.allSatisfy { $0["run_complete"] == "true" }, "the last round completed the run")
        // One run: every column the loader requires to be the same on every row is.
        for column in ["run_id", "started_at", "commit", "dirty", "host", "load_avg_1m", "run_samples"] {
            #expect(Set(rows.map { $0[column]! }).count == 1, "\(column) differs between rounds")
        }
        // Each round is its own process, with its own OS threads counted from scratch.
        #expect(outcome.errorLines.filter { $0.contains("round") && $0.contains("appended") }.count == 3)
        // The summary covers every round, in the suites' order, and ends with the file and the next command.
        let printed = outcome.standardOutput.split(separator: "\n")
        let empty = try #require(printed.first { $0.hasPrefix("harness/empty/loop threads:1") })
        #expect(empty.hasSuffix("  3"), "three rounds: \(empty)")
        #expect(printed.firstIndex { $0.hasPrefix("harness/empty/") }! < printed.firstIndex { $0.hasPrefix("harness/opaque-call/") }!)
        #expect(Array(printed.suffix(2)) == ["wrote \(path) (3 rounds of 2 cases, seed 42)",
                                             "next: scripts/analyze report \(path)"])
    }

    @Test func theSeedFixesEachRoundsOrderAndRoundsDiffer() async throws {
        func order(round: Int, seed: String) async throws -> [String] {
            let path = BenchProcess.temporaryPath("order")
            let environment = BenchProcess.temporaryPath("environment")
            defer {
                try? FileManager.default.removeItem(atPath: path)
                try? FileManager.default.removeItem(atPath: environment)
            }
            let outcome = try await BenchProcess.debug.run(
                ["--filter", "^harness/", "--threads", "1,2", "--samples", "1", "--sample-time", "1", "--rounds", "9",
                 "--round", String(round), "--seed", seed, "--run-environment", environment, "--output", path])
            #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
            let rows = try BenchProcess.rows(ofCSV: path).rows
            #expect(rows.allSatisfy { $0["round"] == String(round) })
            #expect(rows.allSatisfy { $0["run_complete"] == "false" }, "one round of 9 does not complete the run")
            var seen: [String] = []
            for row in rows {
                let name = "\(row["benchmark"]!) \(row["threads"]!) \(row["params"]!)"
                if seen.last != name { seen.append(name) }
            }
            return seen
        }
        let first = try await order(round: 1, seed: "7")
        #expect(try await order(round: 1, seed: "7") == first)
        #expect(try await order(round: 2, seed: "7") != first)
        #expect(try await order(round: 2, seed: "7").sorted() == first.sorted())
    }

    /// The last round completes the run only when the file holds every round: run alone, it says the run is not.
    @Test func aLastRoundAloneLeavesTheRunIncomplete() async throws {
        let path = BenchProcess.temporaryPath("alone")
        let environment = BenchProcess.temporaryPath("environment")
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: environment)
        }
        let outcome = try await BenchProcess.debug.run(
            Self.cases + ["--rounds", "2", "--round", "2", "--seed", "1", "--run-environment", environment,
                          "--output", path])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        #expect(outcome.standardError.contains("has no rows of round(s) 1: the run is incomplete"))
        let rows = try BenchProcess.rows(ofCSV: path).rows
        #expect(!rows.isEmpty && rows.allSatisfy { $0["run_complete"] == "false" })
    }

    /// Issue 20 (7): the stop message names one completed round as one ("round 1", not "rounds 1–1").
    @Test func theStopMessageCountsTheCompletedRounds() throws {
        let path = BenchProcess.temporaryPath("kept")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "rows\r\n".write(toFile: path, atomically: true, encoding: .utf8)
        let bench = try Bench.parse([])
        #expect(bench.kept(path: path, rounds: 0) == "\(path) holds the cases round 1 completed")
        #expect(bench.kept(path: path, rounds: 1) == "\(path) holds the rows of round 1 and the cases round 2 completed")
        #expect(bench.kept(path: path, rounds: 3)
                == "\(path) holds the rows of rounds 1–3 and the cases round 4 completed")
    }

    @Test func aRoundRefusesAFileOfAnotherSchema() async throws {
        let path = BenchProcess.temporaryPath("other")
        let environment = BenchProcess.temporaryPath("environment")
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: environment)
        }
        try "schema_version,something\r\n1,2\r\n".write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await BenchProcess.debug.run(
            Self.cases + ["--rounds", "2", "--round", "2", "--seed", "1", "--run-environment", environment,
                          "--output", path])
        #expect(outcome.status == 73, "stderr: \(outcome.standardError)")
        #expect(outcome.standardError.contains("its header is not this bench's"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "schema_version,something\r\n1,2\r\n")
    }

    /// How many times `arguments` give the option `name`, as `--name value` or `--name=value`.
    static func times(_ name: String, in arguments: [String]) -> Int {
        arguments.filter { $0 == name || $0.hasPrefix(name + "=") }.count
    }

    /// A round's process gets each option its run sets once, with the run's value, however the command line gave
    /// it (`--rounds 3`, `--seed=7`); the command line's other arguments are kept as given.
    @Test func aRoundsArgumentsCarryEachRunOptionOnce() throws {
        let commandLine = ["--filter", "^harness/", "--rounds", "3", "--threads", "1,2", "--seed=7", "--output",
                           "run.csv", "--quick"]
        let run: [(name: String, value: String)] = [
            ("--rounds", "3"), ("--seed", "7"), ("--run-environment", "/dev/fd/5"), ("--output", "/work/run.csv"),
            ("--round", "2"),
        ]
        let round = Bench.roundArguments(commandLine, setting: run)
        #expect(round == ["--filter", "^harness/", "--threads", "1,2", "--quick", "--rounds", "3", "--seed", "7",
                          "--run-environment", "/dev/fd/5", "--output", "/work/run.csv", "--round", "2"])
        for option in run {
            #expect(Self.times(option.name, in: round) == 1, "\(option.name)")
        }
        let parsed = try Bench.parse(round)
        #expect(parsed.rounds == 3 && parsed.round == 2 && parsed.seed == 7 && parsed.output == "/work/run.csv")
        // The control: the run's options appended to the command line, as a round used to get them, give
        // --rounds, --seed and --output twice.
        let appended = commandLine + run.flatMap { [$0.name, $0.value] }
        #expect(["--rounds", "--seed", "--output"].map { Self.times($0, in: appended) } == [2, 2, 2])
    }

    @Test(arguments: [
        ["--round", "1"],
        ["--rounds", "2", "--round", "3", "--seed", "1", "--run-environment", "/tmp/x", "--output", "/tmp/y"],
        ["--rounds", "0"],
        ["--spin-scale", "0"],
        ["--spin-scale", "-1"],
    ])
    func badRoundOptionsAreRefusedInOneLine(arguments: [String]) async throws {
        let outcome = try await BenchProcess.debug.run(["--filter", "^harness/empty/"] + arguments)
        #expect(outcome.status == 64, "stderr: \(outcome.standardError)")
        #expect(outcome.errorLines.first?.hasPrefix("bench: error:") == true)
    }

    /// SIGTERM to the first process reaches the round in progress (in its own process group, so only by being
    /// passed on); the run stops with 143 and the file holds whole rows or is gone.
    @Test func aStopSignalIsPassedToTheRoundInProgress() async throws {
        let path = BenchProcess.temporaryPath("stop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (process, _, error) = try BenchProcess.debug.start(
            ["--filter", "^harness/", "--threads", "1,2", "--samples", "20", "--sample-time", "5", "--rounds", "3",
             "--output", path])
        await onPlainThread {
            _ = BenchProcess.read(error, until: "round 1 of 3")
            process.terminate()
            process.waitUntilExit()
        }
        #expect(process.terminationStatus == 143)
        if FileManager.default.fileExists(atPath: path) {
            let (header, rows) = try BenchProcess.rows(ofCSV: path)
            #expect(header == ResultsSchema.header)
            #expect(rows.allSatisfy { $0["round"] == "1" }, "no round started after the signal")
            #expect(rows.allSatisfy { $0["run_complete"] == "false" }, "a stopped run is not complete")
        }
    }

    @Test func theSpinScaleIsARunSettingNotANewCase() async throws {
        let path = BenchProcess.temporaryPath("spin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BenchProcess.debug.run(
            ["--filter", "^harness/spin/", "--threads", "1", "--samples", "1", "--sample-time", "1", "--rounds", "1",
             "--spin-scale", "1.25", "--no-controls", "--output", path])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let rows = try BenchProcess.rows(ofCSV: path).rows
        #expect(rows.count == 1)
        #expect(rows.first?["run_spin_scale"] == "1.25")
        #expect(rows.first.map { [$0["suite"]!, $0["benchmark"]!, $0["variant"]!, $0["params"]!] }
                == ["harness", "spin", "loop", ""])
    }
}
