@testable import BenchCommandLine
import BenchCore
import BenchSuites
import Foundation
import Testing

/// A filtered timing run also measures the controls it leaves out: the CPU-bound harness cases at the run's thread
/// counts, once each, unless `--no-controls`; the subcommands that select cases with `--filter` do not add them.
/// Nothing here asserts a timing.
@Suite struct ControlsTests {
    /// The `path threads` of `cases`, sorted.
    static func names(_ cases: some Sequence<BenchmarkCase>) -> [String] {
        cases.map { "\($0.path) \($0.threads)" }.sorted()
    }

    /// The controls at `threads`, as `names` spells them.
    static func controls(at threads: [Int]) -> [String] {
        BenchmarkRegistry.cpuBoundHarnessPaths.flatMap { path in threads.map { "\(path) \($0)" } }.sorted()
    }

    @Test func aFilterThatLeavesOutTheHarnessGetsExactlyTheControlsAtTheRunsThreadCounts() throws {
        let bench = try Bench.parse(["--filter", "^once/hit/atomic-flag$", "--threads", "1,3"])
        let selected = try bench.selectedCases().map(\.benchmarkCase)
        let timed = try bench.timedCases()
        // The negative control: what the filter selects holds no control, so only the run can have added them.
        #expect(Self.names(selected) == ["once/hit/atomic-flag 1", "once/hit/atomic-flag 3"])
        #expect(Self.names(timed.controls) == Self.controls(at: [1, 3]))
        #expect(Self.names(timed.cases.map(\.benchmarkCase))
                == (Self.names(selected) + Self.controls(at: [1, 3])).sorted())
        #expect(timed.countText == "2 cases + 4 controls")
        // Registration order, as a full run lists them: the harness first.
        #expect(timed.cases.prefix(4).allSatisfy { timed.controls.contains($0.benchmarkCase) })
    }

    @Test func aFilterThatSelectsTheControlsAddsNothingTwice() throws {
        let both = try Bench.parse(["--filter", "^harness/(empty|spin)/", "--threads", "1,2"]).timedCases()
        #expect(both.controls.isEmpty)
        #expect(Self.names(both.cases.map(\.benchmarkCase)) == Self.controls(at: [1, 2]))
        #expect(both.countText == "4 cases")

        // One of them selected: only the other is added, and no case twice.
        let one = try Bench.parse(["--filter", "^harness/empty/", "--threads", "1,2"]).timedCases()
        #expect(Self.names(one.controls) == ["harness/spin/loop 1", "harness/spin/loop 2"])
        let names = Self.names(one.cases.map(\.benchmarkCase))
        #expect(names == Self.controls(at: [1, 2]) && Set(names).count == names.count)
    }

    @Test func noControlsAddsNothing() throws {
        let bench = try Bench.parse(["--filter", "^once/hit/atomic-flag$", "--threads", "1,3", "--no-controls"])
        let timed = try bench.timedCases()
        #expect(timed.controls.isEmpty)
        #expect(Self.names(timed.cases.map(\.benchmarkCase)) == ["once/hit/atomic-flag 1", "once/hit/atomic-flag 3"])
        #expect(timed.countText == "2 cases")
    }

    /// Without a filter every case is selected already, the controls among them.
    @Test func aRunWithoutAFilterHasNoneToAdd() throws {
        let timed = try Bench.parse(["--threads", "1"]).timedCases()
        #expect(timed.controls.isEmpty)
        #expect(Set(Self.controls(at: [1])).isSubset(of: Self.names(timed.cases.map(\.benchmarkCase))))
    }

    /// `bench worker` (bench-commits' paired runs) and `bench count` measure `selectedCases()`: no control.
    @Test func theSubcommandsThatSelectByFilterGetNoControls() throws {
        let bench = try Bench.parse(["--filter", "^once/hit/atomic-flag$", "--threads", "1,3"])
        #expect(Self.names(try bench.selectedCases().map(\.benchmarkCase)).allSatisfy { $0.hasPrefix("once/") })
        #expect(Self.names(try Bench.Count.cases(bench).map(\.benchmarkCase)) == ["once/hit/atomic-flag 1"])
    }

    /// `bench stress --no-controls` still runs no negative control, though the flag of that name is `bench`'s too.
    @Test func stressNoControlsStillLeavesOutItsNegativeControls() throws {
        let without = try #require(try Bench.parseAsRoot(["stress", "--no-controls"]) as? Bench.Stress)
        #expect(!without.runsControls)
        let with = try #require(try Bench.parseAsRoot(["stress"]) as? Bench.Stress)
        #expect(with.runsControls)
    }

    /// A round of an adaptive run selects again from the same command line: the open cases it is handed, by their
    /// unmarked `--list` line, are found among the controls too, and stay marked as controls.
    @Test func aRoundFindsItsOpenControls() throws {
        let path = BenchProcess.temporaryPath("open-controls")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "harness/spin/loop threads:1\nonce/hit/atomic-flag threads:1 tokens:1\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let bench = try Bench.parse(["--filter", "^once/hit/atomic-flag$", "--threads", "1"])
        let open = try bench.casesStillOpen(listedIn: path)
        #expect(Self.names(open.cases.map(\.benchmarkCase)) == ["harness/spin/loop 1", "once/hit/atomic-flag 1"])
        #expect(Self.names(open.controls) == ["harness/spin/loop 1"])
    }

    /// What a user sees: `--list` marks each control and counts them, and a run says it added them and writes
    /// their rows (suite `harness`) beside the selected case's.
    @Test func theListAndTheRunSayWhatWasAdded() async throws {
        let list = try await BenchProcess.debug.run(["--list", "--filter", "^once/hit/atomic-flag$", "--threads", "1"])
        #expect(list.status == 0, "stderr: \(list.standardError)")
        #expect(list.standardOutput.split(separator: "\n") == [
            "harness/empty/loop threads:1 (control)", "harness/spin/loop threads:1 (control)",
            "once/hit/atomic-flag threads:1 tokens:1",
            "1 case + 2 controls (--no-controls leaves the controls out)",
        ])

        let path = BenchProcess.temporaryPath("controls")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await BenchProcess.debug.run(["--rounds", "1", "--filter", "^once/hit/atomic-flag$", "--threads",
                                                    "1", "--samples", "1", "--sample-time", "1", "--output", path])
        #expect(run.status == 0, "stderr: \(run.standardError)")
        #expect(run.errorLines.contains { $0.hasPrefix("bench: 1 case + 2 controls, 1 sample of ") },
                "\(run.standardError)")
        #expect(run.errorLines.contains { $0.hasPrefix("[") && $0.contains("] harness/spin/loop threads:1 (control)") })
        let rows = try BenchProcess.rows(ofCSV: path).rows
        #expect(Set(rows.map { "\($0["suite"]!)/\($0["benchmark"]!)/\($0["variant"]!)" })
                == Set(["once/hit/atomic-flag"]).union(BenchmarkRegistry.cpuBoundHarnessPaths))
    }
}
