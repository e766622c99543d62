@testable import BenchCommandLine
import BenchCore
import BenchResults
import Foundation
import Testing

/// The end of a run of rounds: every round's evidence per case, in the suites' order.
@Suite struct RunSummaryTests {
    static let order = [
        BenchmarkCase(suite: "harness", benchmark: "empty", variant: "loop", threads: 1),
        BenchmarkCase(suite: "once", benchmark: "hit", variant: "lock", threads: 8, parameters: ["tokens": 10]),
    ]

    /// Rows of three rounds, two samples each, written in a shuffled order as rounds write them.
    static let csv = """
        suite,benchmark,variant,threads,params,round,ns_per_op
        once,hit,lock,8,tokens=10,1,20.0
        once,hit,lock,8,tokens=10,1,22.0
        harness,empty,loop,1,,1,1.0
        harness,empty,loop,1,,1,1.0
        harness,empty,loop,1,,2,2.0
        harness,empty,loop,1,,2,2.0
        once,hit,lock,8,tokens=10,2,30.0
        once,hit,lock,8,tokens=10,2,30.0
        harness,empty,loop,1,,3,1.5
        harness,empty,loop,1,,3,inf
        once,hit,lock,8,tokens=10,3,40.0
        once,hit,lock,8,tokens=10,3,40.0
        """

    @Test func eachCaseShowsItsRoundMediansInTheSuitesOrder() throws {
        let cases = try RunSummary.summarize(csv: Self.csv, order: Self.order)
        #expect(cases.map(\.name) == ["harness/empty/loop threads:1", "once/hit/lock threads:8 tokens:10"])
        #expect(cases[0].roundMedians == [1.0, 2.0, .infinity])
        #expect(cases[1].roundMedians == [21.0, 30.0, 40.0])
    }

    @Test func theTableGivesTheMedianOfRoundMediansTheirRangeAndSpread() throws {
        let lines = try RunSummary.render(csv: Self.csv, order: Self.order, logicalCPUs: 2).split(separator: "\n")
        func fields(_ line: Substring) -> [String] {
            line.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        #expect(fields(lines[0]) == ["case", "median ns/op", "round medians", "spread", "rounds"])
        #expect(fields(lines[1]) == ["harness/empty/loop threads:1", "2.00", "1.00–starved", "–", "3"])
        #expect(fields(lines[2]) == ["once/hit/lock threads:8 tokens:10 *", "30.0", "21.0–40.0", "±31.7%", "3"])
        #expect(lines.contains { $0.hasPrefix("* more threads than the 2 logical CPUs") })
        #expect(lines.contains { $0.hasPrefix("starved, in place of a number:") })
        let unstarved = Self.csv.replacingOccurrences(of: "inf", with: "1.5")
        let calm = try RunSummary.render(csv: unstarved, order: Self.order, logicalCPUs: 2)
        #expect(!calm.contains("starved"))
    }

    @Test func aRoleIsShownAfterTheParameters() throws {
        let csv = "suite,benchmark,variant,threads,params,round,ns_per_op\nisolation,roles,lock,2,role=read,1,5.0\n"
        let cases = try RunSummary.summarize(csv: csv, order: [])
        #expect(cases.map(\.name) == ["isolation/roles/lock threads:2 role:read"])
    }
}
