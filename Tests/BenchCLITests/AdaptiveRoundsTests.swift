import BenchCore
@testable import BenchCommandLine
@testable import BenchResults
import Foundation
import Testing

/// `bench` without `--rounds`: adaptive rounds, each case stopping by the stopping rule between its minimum and
/// the cap; with `--rounds N`, exactly N for every case. Nothing here depends on what was timed: the harness cases
/// take part in no decision, so an adaptive run stops them at the minimum whatever they measured.
///
/// `cases` selects two harness cases, and the run adds `harness/spin/loop` as its control: a case like the others,
/// in the rounds, the stopping rule and the plans alike.
@Suite struct AdaptiveRoundsTests {
    static let cases = ["--filter", "^harness/(empty|opaque-call)/", "--threads", "1", "--samples", "1",
                        "--sample-time", "1"]

    /// The rounds each case of a results file has, by `suite/benchmark/variant threads params`.
    static func roundsPerCase(_ rows: [[String: String]]) -> [String: Set<Int>] {
        var rounds: [String: Set<Int>] = [:]
        for row in rows {
            rounds["\(row["suite"]!)/\(row["benchmark"]!)/\(row["variant"]!) \(row["threads"]!) \(row["params"]!)",
                   default: []].insert(Int(row["round"]!)!)
        }
        return rounds
    }

    /// `--rounds 6` is more than an adaptive run gives these cases (5): every case gets all 6 all the same, and
    /// the file says every case got them all (`run_min_rounds` = `run_rounds`).
    @Test func forcedRoundsGiveEveryCaseExactlyThatMany() async throws {
        let path = BenchProcess.temporaryPath("forced")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BenchProcess.debug.run(Self.cases + ["--rounds", "6", "--output", path])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let rows = try BenchProcess.rows(ofCSV: path).rows
        let rounds = Self.roundsPerCase(rows)
        #expect(rounds.count == 3, "the two selected cases and the control: \(rounds.keys.sorted())")
        #expect(rounds.values.allSatisfy { $0 == Set(1...6) }, "\(rounds)")
        #expect(rows.allSatisfy { $0["run_rounds"] == "6" && $0["run_min_rounds"] == "6" && $0["run_complete"] == "true" })
        #expect(!outcome.standardError.contains("adaptive"))
        #expect(outcome.standardOutput.contains("(6 rounds of 2 cases + 1 control, seed "))
    }

    /// The same cases without `--rounds`: they take part in no decision, so each stops at the rule's minimum;
    /// no further round starts, and the first process marks the file complete.
    @Test func anAdaptiveRunStopsCasesInNoDecisionAtTheMinimum() async throws {
        let path = BenchProcess.temporaryPath("adaptive")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BenchProcess.debug.run(Self.cases + ["--seed", "3", "--output", path])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let minimum = Bench.stoppingRule.minimumRounds
        let rows = try BenchProcess.rows(ofCSV: path).rows
        #expect(Self.roundsPerCase(rows).values.allSatisfy { $0 == Set(1...minimum) })
        #expect(rows.allSatisfy {
            $0["run_rounds"] == String(Bench.defaultRounds) && $0["run_min_rounds"] == String(minimum)
                && $0["run_complete"] == "true"
        })
        #expect(outcome.errorLines.contains { $0 == "after round \(minimum): every case is settled; no further round" })
        #expect(!outcome.standardError.contains("round \(minimum + 1) of"))
        #expect(outcome.standardOutput.contains(
            "(adaptive rounds of 2 cases + 1 control: 3 cases stopped at \(minimum) rounds; seed 3)"))
    }

    /// A round of an adaptive run measures only the cases `--open-cases` names, and even as the cap's round it
    /// leaves marking the file complete to the run's first process.
    @Test func aRoundMeasuresOnlyTheOpenCasesAndLeavesTheRunOpen() async throws {
        let path = BenchProcess.temporaryPath("open")
        let environment = BenchProcess.temporaryPath("environment")
        let list = BenchProcess.temporaryPath("open-cases")
        defer {
            for file in [path, environment, list] { try? FileManager.default.removeItem(atPath: file) }
        }
        try "harness/opaque-call/call threads:1\n".write(toFile: list, atomically: true, encoding: .utf8)
        let outcome = try await BenchProcess.debug.run(
            Self.cases + ["--rounds", "10", "--round", "10", "--min-rounds", "5", "--seed", "1",
                          "--run-environment", environment, "--output", path, "--open-cases", list])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let rows = try BenchProcess.rows(ofCSV: path).rows
        #expect(Set(rows.map { "\($0["benchmark"]!)/\($0["variant"]!)" }) == ["opaque-call/call"])
        #expect(rows.allSatisfy { $0["round"] == "10" && $0["run_min_rounds"] == "5" && $0["run_complete"] == "false" })
        #expect(!outcome.standardError.contains("the run is incomplete"), "not the round's to judge")
    }

    /// A name the selection does not hold is an internal error, not a silently smaller round.
    @Test func anOpenCaseOutsideTheSelectionIsRefused() async throws {
        let path = BenchProcess.temporaryPath("unknown")
        let environment = BenchProcess.temporaryPath("environment")
        let list = BenchProcess.temporaryPath("open-cases")
        defer {
            for file in [path, environment, list] { try? FileManager.default.removeItem(atPath: file) }
        }
        try "harness/opaque-call/call threads:1\nonce/hit/nothing threads:1\n".write(toFile: list, atomically: true,
                                                                                   encoding: .utf8)
        let outcome = try await BenchProcess.debug.run(
            Self.cases + ["--rounds", "10", "--round", "6", "--min-rounds", "5", "--seed", "1",
                          "--run-environment", environment, "--output", path, "--open-cases", list])
        #expect(outcome.status == ExitStatus.internalError, "stderr: \(outcome.standardError)")
        #expect(outcome.standardError.contains("1 of the open cases"))
    }

    /// The arguments of round `round` of an adaptive run of `cases` whose plans are at `plans`.
    static func roundArguments(_ cases: [String], round: Int, plans: String, environment: String,
                               output: String) -> [String] {
        cases + ["--rounds", "10", "--round", String(round), "--min-rounds", "5", "--seed", "1",
                 "--run-environment", environment, "--output", output, "--plans", plans]
    }

    /// A round calibrates a case the plans file has no plan for, and appends the plan it ran by, one line a case.
    @Test func aRoundRecordsThePlanOfEachCaseItCalibrates() async throws {
        let path = BenchProcess.temporaryPath("recorded")
        let environment = BenchProcess.temporaryPath("environment")
        let plans = BenchProcess.temporaryPath("plans")
        defer {
            for file in [path, environment, plans] { try? FileManager.default.removeItem(atPath: file) }
        }
        try "".write(toFile: plans, atomically: true, encoding: .utf8)
        let outcome = try await BenchProcess.debug.run(
            Self.roundArguments(Self.cases, round: 1, plans: plans, environment: environment, output: path))
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let lines = try String(contentsOfFile: plans, encoding: .utf8).split(separator: "\n")
        #expect(Set(lines.map { $0.split(separator: "\t")[0] })
                == ["harness/empty/loop threads:1", "harness/opaque-call/call threads:1",
                    "harness/spin/loop threads:1"], "\(lines)")
        for line in lines {
            let plan = try JSONDecoder().decode(CaseRunner.SamplePlan.self, from: Data(line.split(separator: "\t")[1].utf8))
            guard case .timed(let batches, _) = plan else { Issue.record("not a timed plan: \(line)"); continue }
            #expect(batches.count == 1)
        }
    }

    /// A round runs a case by the plan the file holds for it, and appends nothing for it: a lockstep count of
    /// 3,000 gives three times the operations of a count of 1,000, each as many as the plan says.
    @Test func aRoundRunsACaseByThePlanAnEarlierRoundMade() async throws {
        var operations: [Int: Set<String>] = [:]
        for iterations in [1_000, 3_000] {
            let path = BenchProcess.temporaryPath("planned")
            let environment = BenchProcess.temporaryPath("environment")
            let plans = BenchProcess.temporaryPath("plans")
            defer {
                for file in [path, environment, plans] { try? FileManager.default.removeItem(atPath: file) }
            }
            let line = "once/first/atomic-flag threads:1 tokens:100\t{\"lockstep\":{\"iterations\":\(iterations)}}\n"
            try line.write(toFile: plans, atomically: true, encoding: .utf8)
            let outcome = try await BenchProcess.debug.run(Self.roundArguments(
                ["--filter", "^once/first/atomic-flag$", "--threads", "1", "--sample-time", "1", "--no-controls"],
                round: 2, plans: plans, environment: environment, output: path))
            #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
            operations[iterations] = Set(try BenchProcess.rows(ofCSV: path).rows.map { $0["ops"]! })
            #expect(try String(contentsOfFile: plans, encoding: .utf8) == line, "a planned case appends no plan")
        }
        let fewer = try #require(operations[1_000]?.first.flatMap { Int($0) })
        #expect(operations[1_000] == [String(fewer)] && fewer > 0)
        #expect(operations[3_000] == [String(3 * fewer)], "\(operations)")
    }

    @Test(arguments: [
        ["--min-rounds", "5"],
        ["--open-cases", "/tmp/x"],
        ["--plans", "/tmp/x"],
        ["--rounds", "4", "--round", "1", "--min-rounds", "5", "--seed", "1", "--run-environment", "/tmp/x",
         "--output", "/tmp/y"],
    ])
    func roundOptionsOutsideARoundAreRefused(arguments: [String]) async throws {
        let outcome = try await BenchProcess.debug.run(["--filter", "^harness/empty/"] + arguments)
        #expect(outcome.status == 64, "stderr: \(outcome.standardError)")
        #expect(outcome.errorLines.first?.hasPrefix("bench: error:") == true)
    }

    // MARK: What the first process reads back (no process, no timing)

    static let once = ["a", "b", "c"].map {
        BenchmarkCase(suite: "once", benchmark: "hit", variant: $0, threads: 1, parameters: ["tokens": 1])
    }
    static let floor = BenchmarkCase(suite: "harness", benchmark: "empty", variant: "loop", threads: 1)

    /// A CSV of the columns `RunSummary` reads: one sample a round, `medians[k]` in round k + 1.
    static func csv(_ cases: [(BenchmarkCase, [Double])]) -> String {
        var text = "suite,benchmark,variant,threads,params,round,ns_per_op\n"
        for (benchmarkCase, medians) in cases {
            for (index, median) in medians.enumerated() {
                text += "\(benchmarkCase.suite),\(benchmarkCase.benchmark),\(benchmarkCase.variant),"
                    + "\(benchmarkCase.threads),\(benchmarkCase.parameterString()),\(index + 1),\(median)\n"
            }
        }
        return text
    }

    /// Two once variants 30× apart settle after 5 rounds, and so does the floor; a third equal to the fastest
    /// keeps both open (the pick is not known), and a case with no rows is open.
    @Test func theFirstProcessPassesOnlyTheCasesTheRuleLeavesOpen() throws {
        let fast = [1.0, 1.2, 0.9, 1.1, 1.0], slow = fast.map { $0 * 30 }
        let rule = Bench.stoppingRule
        let noDecision: Set<String> = [Self.floor.path]
        let settled = Self.csv([(Self.once[0], fast), (Self.once[1], slow), (Self.floor, [1, 9, 1, 9, 5])])
        #expect(try Bench.stillOpen(csv: settled, cases: [Self.floor] + Array(Self.once.prefix(2)), rule: rule,
                                    inNoDecision: noDecision, logicalCPUs: 2).isEmpty)
        let tied = Self.csv([(Self.once[0], fast), (Self.once[1], slow), (Self.once[2], fast.reversed())])
        #expect(try Bench.stillOpen(csv: tied, cases: Self.once, rule: rule, inNoDecision: noDecision, logicalCPUs: 2)
                == [Self.once[0], Self.once[2]])
        #expect(try Bench.stillOpen(csv: settled, cases: [Self.floor] + Self.once, rule: rule,
                                    inNoDecision: noDecision, logicalCPUs: 2) == [Self.once[2]])
        // The negative control for the floor: taken as a case that decides, alone it still settles, but beside
        // an equal one it does not.
        let floors = [Self.floor, BenchmarkCase(suite: "harness", benchmark: "empty", variant: "loop2", threads: 1)]
        let equalFloors = Self.csv([(floors[0], [1, 9, 1, 9, 5]), (floors[1], [1, 9, 1, 9, 5])])
        #expect(try Bench.stillOpen(csv: equalFloors, cases: floors, rule: rule, inNoDecision: [], logicalCPUs: 2)
                == floors)
        #expect(try Bench.stillOpen(csv: equalFloors, cases: floors, rule: rule,
                                    inNoDecision: Set(floors.map(\.path)), logicalCPUs: 2).isEmpty)
    }

    /// Three once variants at 2 threads: a fastest, b twice it, c wholly above 3× a but straddling 3× b. Where a's
    /// slowest thread did a tenth of its busiest one's operations (unfair: the report disqualifies it, so b is the
    /// pick), c stays open; where a is fair, c is settled against a alone. The signs are read from the file's
    /// thread_ops columns.
    @Test func aCaseStaysOpenBesideAPickTheReportMayMakeInsteadOfTheFastest() throws {
        let cases = ["a", "b", "c"].map {
            BenchmarkCase(suite: "once", benchmark: "hit", variant: $0, threads: 2, parameters: ["tokens": 1])
        }
        let medians: [[Double]] = [[1.0, 1.1, 1.2, 1.1, 1.0], [2.0, 2.1, 2.2, 2.1, 2.0], [3.7, 4.5, 6.0, 8.0, 9.0]]
        func csv(fewestOfA: Int) -> String {
            var text = "suite,benchmark,variant,threads,params,round,ns_per_op,thread_ops_min,thread_ops_max\n"
            for (benchmarkCase, rounds) in zip(cases, medians) {
                for (index, median) in rounds.enumerated() {
                    let fewest = benchmarkCase.variant == "a" ? fewestOfA : 100
                    text += "once,hit,\(benchmarkCase.variant),2,\(benchmarkCase.parameterString()),\(index + 1),"
                        + "\(median),\(fewest),100\n"
                }
            }
            return text
        }
        let rule = Bench.stoppingRule
        #expect(try Bench.stillOpen(csv: csv(fewestOfA: 10), cases: cases, rule: rule, inNoDecision: [],
                                    logicalCPUs: 2) == [cases[2]])
        // Negative controls: a fair; and a unfair where the report does not judge fairness (2 threads, 1 CPU).
        #expect(try Bench.stillOpen(csv: csv(fewestOfA: 100), cases: cases, rule: rule, inNoDecision: [],
                                    logicalCPUs: 2).isEmpty)
        #expect(try Bench.stillOpen(csv: csv(fewestOfA: 10), cases: cases, rule: rule, inNoDecision: [],
                                    logicalCPUs: 1).isEmpty)
    }

    @Test func theEndOfAnAdaptiveRunSaysHowManyRoundsTheCasesGot() throws {
        let csv = Self.csv([(Self.once[0], [1, 1, 1, 1, 1]), (Self.once[1], [2, 2, 2, 2, 2]),
                            (Self.once[2], Array(repeating: 3, count: 10))])
        let summaries = try RunSummary.summarize(csv: csv, order: Self.once)
        #expect(Bench.roundsText(summaries) == "2 cases stopped at 5 rounds, 1 at 10")
    }
}
