import BenchCore
@testable import BenchCommandLine
@testable import BenchResults
import Foundation
import Testing

/// Issue 72: a timed run survives a variant that hangs. `--hang-control` adds `wait/handoff/lost-wakeup`, a handoff
/// whose responder waits for a signal sent before it waits, so that both threads sleep for good in their first
/// round trip; it runs beside a cheap harness case, first in its round, with a short `--hang-timeout`. The run must
/// end, name the case as hung (stderr, summary, CSV), give it no timing, and measure the other case in every round.
/// The same run without the control reports nothing hung. No timing is asserted: only a generous bound on the
/// wall time (the point is that the run ends; a run past it is killed, so that a watchdog that fails fails the test
/// rather than hanging it), and the hang is for certain, whatever the machine's speed.
@Suite(.serialized) struct HangTests {
    static let control = "wait/handoff/lost-wakeup threads:2"
    static let harness = "harness/empty/loop threads:2"
    static let cases = ["--filter", "^harness/empty/|^wait/handoff/lost-wakeup$", "--threads", "2",
                        "--hang-timeout", String(hangTimeout), "--no-controls"]
    /// The hang timeout: a hundred times the longest step the harness case takes in a debug build, and the hang is
    /// for good, so that it is the control, and only the control, that is called hung.
    static let hangTimeout = 2
    /// A run ends within this many seconds, far beyond what it needs (one hang timeout, a few short samples); one
    /// still going then is killed.
    static let wallBound = 120.0

    /// Runs the debug `bench` with `arguments`, killed (SIGKILL, which its rounds die with) if it outlives
    /// `wallBound`; what it printed and how many seconds it took.
    static func run(_ arguments: [String]) async throws -> (outcome: BenchProcess.Outcome, seconds: Double) {
        try await onPlainThread {
            let started = Date()
            let (process, output, error) = try BenchProcess.debug.start(arguments)
            let pid = process.processIdentifier
            let killer = DispatchWorkItem { kill(pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + wallBound, execute: killer)
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            let errorData = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            killer.cancel()
            return (BenchProcess.Outcome(status: process.terminationStatus,
                                         standardOutput: String(decoding: outputData, as: UTF8.self),
                                         standardError: String(decoding: errorData, as: UTF8.self)),
                    Date().timeIntervalSince(started))
        }
    }

    /// The first seed whose first round measures the control first (of the two cases, in `--list` order: the
    /// harness case, then the control), so that the round has a case to go on with after the hang.
    static let seed: UInt64 = (1...).first { CaseOrder.shuffled([harness, control], seed: $0, round: 1).first == control }!

    @Test func theListedCasesAreTheHarnessThenTheControl() async throws {
        let outcome = try await BenchProcess.debug.run(["--hang-control", "--list"] + Self.cases)
        let listed: [String] = outcome.standardOutput.split(separator: "\n").dropLast().map(String.init)
        #expect(listed == [Self.harness, Self.control])
    }

    /// In rounds (what `bench` runs by default), the round goes on in a fresh process after the hang, and the
    /// later round leaves the hung case out.
    @Test func aHandoffThatLosesItsWakeUpIsAbandonedAsHungAndTheRunGoesOn() async throws {
        let path = BenchProcess.temporaryPath("hang")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (outcome, seconds) = try await Self.run(["--hang-control"] + Self.cases
                                                    + ["--rounds", "2", "--seed", String(Self.seed), "--output", path])
        #expect(seconds < Self.wallBound, "the run must end within a bounded time, took \(seconds) s")
        #expect(outcome.status == ExitStatus.suspectedDeadlock, "stderr: \(outcome.standardError)")
        #expect(outcome.standardError.contains("hung: \(Self.control) made no progress for "))
        #expect(outcome.standardError.contains("going on with case 2 of 2 in a fresh process"))
        let ending = "bench: error: 1 case hung: \(Self.control) (no progress for --hang-timeout; rows hung=true, no timing)"
        #expect(outcome.errorLines.last.map(String.init) == ending)
        Self.expectSummary(outcome.standardOutput, rounds: 2)

        let (header, rows) = try BenchProcess.rows(ofCSV: path)
        #expect(header == ResultsSchema.header)
        #expect(rows.allSatisfy { $0["run_complete"] == "true" }, "the run completed, the hung case included")
        Self.expectHungRow(rows, round: "1")
        Self.expectMeasured(rows, rounds: ["1", "2"])
    }

    /// With `--rounds 1` the run measures in one process, and goes on in it after the hang.
    @Test func aSingleProcessRunGoesOnInTheSameProcess() async throws {
        let path = BenchProcess.temporaryPath("hang-one")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (outcome, seconds) = try await Self.run(["--hang-control"] + Self.cases
                                                    + ["--rounds", "1", "--seed", String(Self.seed), "--output", path])
        #expect(seconds < Self.wallBound, "the run must end within a bounded time, took \(seconds) s")
        #expect(outcome.status == ExitStatus.suspectedDeadlock, "stderr: \(outcome.standardError)")
        let progress = outcome.errorLines.filter { $0.hasPrefix("[") }
        #expect(progress.count == 2 && progress[0].hasPrefix("[1/2] \(Self.control)"), "the control first: \(progress)")
        #expect(outcome.standardError.contains("hung: \(Self.control) made no progress for "))
        #expect(!outcome.standardError.contains("fresh process"))
        #expect(outcome.standardOutput.split(separator: "\n").contains { $0.hasPrefix(Self.control) && $0.contains(" hung ") })

        let (_, rows) = try BenchProcess.rows(ofCSV: path)
        Self.expectHungRow(rows, round: "1")
        Self.expectMeasured(rows, rounds: ["1"])
    }

    /// The negative control: the same run without the hanging handoff reports nothing hung.
    @Test func withoutTheControlNothingIsHung() async throws {
        let path = BenchProcess.temporaryPath("no-hang")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (outcome, _) = try await Self.run(Self.cases + ["--rounds", "2", "--seed", String(Self.seed),
                                                            "--output", path])
        #expect(outcome.status == ExitStatus.success, "stderr: \(outcome.standardError)")
        #expect(!outcome.standardError.contains("hung"))
        #expect(!outcome.standardOutput.contains("hung"))
        let (_, rows) = try BenchProcess.rows(ofCSV: path)
        #expect(!rows.isEmpty && rows.allSatisfy { $0["hung"] == "false" })
        Self.expectMeasured(rows, rounds: ["1", "2"])
    }

    /// The summary's line for the control says `hung` in place of a number, and a note says what that means.
    static func expectSummary(_ output: String, rounds: Int) {
        let lines = output.split(separator: "\n")
        let line = lines.first { $0.hasPrefix(control) }
        #expect(line.map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first } == "hung",
                "summary: \(output)")
        #expect(lines.contains { $0.hasPrefix("hung, in place of a number:") })
        let measured = lines.first { $0.hasPrefix(harness) }
        #expect(measured?.hasSuffix("  \(rounds)") == true, "the harness case in every round: \(output)")
    }

    /// The control has one row, in `round`, marked hung, with no operation and no finite timing.
    static func expectHungRow(_ rows: [[String: String]], round: String) {
        let hung = rows.filter { $0["variant"] == "lost-wakeup" }
        #expect(hung.count == 1, "one row for the hung case: \(hung)")
        #expect(hung.allSatisfy { $0["hung"] == "true" && $0["round"] == round && $0["ops"] == "0" })
        #expect(hung.allSatisfy { $0["ns_per_op"] == "inf" && $0["ops_per_sec"].flatMap(Double.init) == 0 })
        #expect(hung.allSatisfy { ($0["elapsed_ns"].flatMap(UInt64.init) ?? 0) >= UInt64(hangTimeout) * 1_000_000_000 },
                "watched for the hang timeout at least")
    }

    /// The harness case has one measured row, not hung, in each of `rounds`. Its sample is timed (`ns_per_op` is
    /// `elapsed_ns / ops`), or starved: on a loaded machine one of its two threads can get no CPU for the whole
    /// 8 ms sample, and then the row has no operation and `ns_per_op` `inf`, as bench writes such a sample (seen
    /// under `scripts/test`'s own load). A case stuck behind the hung one would be called hung instead.
    static func expectMeasured(_ rows: [[String: String]], rounds: [String]) {
        let measured = rows.filter { $0["variant"] == "loop" }
        #expect(measured.map { $0["round"]! }.sorted() == rounds)
        for row in measured {
            let ops = row["ops"].flatMap(Int.init) ?? -1, elapsed = row["elapsed_ns"].flatMap(Double.init) ?? 0
            let nsPerOp = row["ns_per_op"].flatMap(Double.init) ?? .nan
            #expect(row["hung"] == "false", "\(row)")
            if ops == 0 {
                #expect(nsPerOp == .infinity, "a sample without an operation is starved: \(row)")
            } else {
                #expect(ops > 0 && nsPerOp.isFinite && nsPerOp > 0, "\(row)")
                #expect(abs(nsPerOp - elapsed / Double(ops)) <= 0.001 + 1e-6 * nsPerOp, "ns_per_op is elapsed_ns / ops")
            }
        }
    }
}
