import BenchCore
@testable import BenchCommandLine
@testable import BenchResults
import Foundation
import StressChecks
import Testing
import VariantRegistration

/// `bench stress` as a user runs it: its exit statuses, its CSV, and the watchdog ending a run whose check
/// deadlocks. Short runs of a few cheap checks; no timing is asserted, only a generous bound on wall time for
/// the watchdog (the point of it is that the run ends).
///
/// Each child process is waited for on a plain thread (`onPlainThread`): a test blocked for seconds on one of the
/// cooperative pool's two threads would starve the actor-store checks running beside it.
@Suite(.serialized) struct StressTests {
    /// Cheap checks of each family, and one control of each.
    static let filter = "once/(dispatch-once|unsynced-tracker)/|isolation/(mutex|racy-store)/lost-writes|fan-out/(semaphore|early-return)/"

    @Test func aCleanRunExitsZeroAndWritesEveryOutcomeWithItsGrade() async throws {
        let path = BenchProcess.temporaryPath("stress")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BenchProcess.debug.run(["stress", "--filter", Self.filter, "--threads", "1,4",
                                                       "--duration", "1", "--output", path])
        #expect(outcome.status == ExitStatus.success, "\(outcome.standardError)")
        #expect(outcome.standardOutput.split(separator: "\n").last?.hasPrefix("PASS: 0 forbidden outcomes in ") == true)
        #expect(outcome.standardOutput.contains("control/once/unsynced-tracker/race threads:4: "))
        #expect(outcome.standardOutput.contains("caught after"))
        #expect(outcome.standardError.contains("[1/"), "progress on stderr")

        let rows = try CSVFormat.decode(String(contentsOfFile: path, encoding: .utf8))
        #expect(rows.first == StressSchema.header)
        let records = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(StressSchema.header, $0)) }
        #expect(records.allSatisfy { $0["stress_schema_version"] == String(StressSchema.version) })
        #expect(records.allSatisfy { $0["run_complete"] == "true" }, "the run completed")
        let variants = records.filter { $0["is_control"] == "false" }
        #expect(Set(variants.compactMap { $0["threads"] }) == ["1", "4"])
        #expect(variants.allSatisfy { $0["grade"] != "forbidden" })
        #expect(variants.contains { $0["check"] == "once/dispatch-once/race" && $0["outcome"] == "block-ran-once" })
        let controls = records.filter { $0["is_control"] == "true" }
        // Each selected check's controls: those of the same check, the filter's own matches among them.
        #expect(Set(controls.compactMap { $0["check"] }) == [
            "control/once/unsynced-tracker/race", "control/once/early-return/race", "control/once/unguarded-tracker/race",
            "control/isolation/racy-store/lost-writes", "control/isolation/copy-outside-lock/lost-writes",
            "control/wait/fan-out/early-return/exactly-once", "control/wait/fan-out/ignores-timeout/timeout",
        ])
        #expect(controls.contains { $0["grade"] == "forbidden" && $0["seconds_to_first_forbidden"] != "" })
    }

    /// Issue 20 (4): a filter anchored on a family (`^once/`) brings the controls of the checks it selects, whose
    /// names start with `control/`; --no-controls leaves them out.
    @Test func aFamilyFilterBringsTheControlsOfItsChecks() async throws {
        let listed = try await BenchProcess.debug.run(["stress", "--filter", "^once/", "--list-checks"])
        #expect(listed.status == 0, "\(listed.standardError)")
        let lines = listed.standardOutput.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("control/") }.sorted()
                == ["control/once/early-return/race", "control/once/unguarded-tracker/race",
                    "control/once/unsynced-tracker/race"])
        #expect(lines.last == "9 checks, 3 controls")
        // Issue 60: a built-in variant's checks carry no origin mark (a brought-in one's: VariantRegistrationTests).
        #expect(!lines.contains { $0.contains("from:") })
        let without = try await BenchProcess.debug.run(["stress", "--filter", "^once/", "--list-checks", "--no-controls"])
        #expect(without.standardOutput.split(separator: "\n").last == "9 checks, 0 controls")
        // A check's controls only: isolation's do not come with once's checks.
        let lazy = try await BenchProcess.debug.run(["stress", "--filter", "^once/lazy-static/", "--list-checks"])
        #expect(lazy.standardOutput.split(separator: "\n").last == "1 checks, 3 controls")
    }

    /// Issue 72: `--list-checks` says, per kind of check, what a trial is, its minimum, the racy control that
    /// measured it (or that none did), and what a thread count means to it.
    @Test func listChecksSaysWhatATrialAndAThreadCountMean() async throws {
        let listed = try await BenchProcess.debug.run(["stress", "--filter", "^wait/handoff/|^isolation/mutex/",
                                                      "--list-checks"])
        #expect(listed.status == 0, "\(listed.standardError)")
        let text = listed.standardOutput
        #expect(text.contains("  wait/handoff/no-lost-wake-up: a trial is one round trip; minimum "
                              + "\(StressCatalog.handoffPower.minimumTrials) (measured against "
                              + "control/wait/handoff/unlocked-signal/no-lost-wake-up); threads N: 2 threads hand off"))
        #expect(text.contains("  isolation/torn-reads: a trial is one write; minimum 1 (no racy control measures it)"))
    }

    /// Issue 72: the verdict's `next:` reads the newest timing file beside the stress file with it, as
    /// bring-your-own.md's steps do; a directory with none, or only another kind of CSV, gives none.
    @Test func theNextCommandNamesTheTimingFileBesideTheStressFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("next-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stress = (directory as NSString).appendingPathComponent("stress.csv")
        try CSVFormat.encode(StressSchema.header).write(toFile: stress, atomically: true, encoding: .utf8)
        #expect(Bench.Stress.timingFile(besides: stress) == nil, "a stress file is no timing file")
        let timing = (directory as NSString).appendingPathComponent("mine.csv")
        try (CSVFormat.encode(ResultsSchema.header) + "1,2\r\n").write(toFile: timing, atomically: true, encoding: .utf8)
        #expect(Bench.Stress.timingFile(besides: stress) == timing)
    }

    @Test func aCheckIsNamedWithoutItsVariant() {
        #expect(Bench.Stress.checkIdentity("once/lazy-static/race") == "once/race")
        #expect(Bench.Stress.checkIdentity("control/once/unsynced-tracker/race") == "once/race")
        #expect(Bench.Stress.checkIdentity("wait/fan-out/group/exactly-once") == "wait/fan-out/exactly-once")
        #expect(Bench.Stress.checkIdentity("control/wait/fan-out/early-return/exactly-once") == "wait/fan-out/exactly-once")
        #expect(Bench.Stress.checkIdentity("isolation/mutex/lost-writes") != Bench.Stress.checkIdentity("isolation/mutex/torn-reads"))
    }

    /// Issue 44: `bench help stress` names the grades as the CSV's grade column spells them.
    @Test func theHelpNamesTheGradesAsTheCSVDoes() {
        let abstract = Bench.Stress.configuration.abstract
        for grade in OutcomeGrade.allCases { #expect(abstract.contains(grade.rawValue)) }
        #expect(abstract.contains("acceptable-interesting"))
        #expect(!abstract.contains(" interesting "))
    }

    /// Issue 20 (3): a stress run stopped by SIGINT writes the outcomes so far, marked as a run that did not
    /// complete (run_complete false), so that a report cannot read them as a whole run.
    @Test func anInterruptedRunMarksItsFileIncomplete() async throws {
        let path = BenchProcess.temporaryPath("stress")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let status = try await onPlainThread { () -> Int32 in
            let (process, _, error) = try BenchProcess.debug.start(
                ["stress", "--filter", "^once/(lazy-static|dispatch-once)/", "--threads", "1,2", "--duration", "8",
                 "--output", path])
            // The first slot's progress line, then its first iterations: stop after it has written something.
            _ = BenchProcess.read(error, until: "[2/")
            process.interrupt()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(status == 130)
        let rows = try CSVFormat.decode(String(contentsOfFile: path, encoding: .utf8))
        let column = try #require(rows.first?.firstIndex(of: "run_complete"))
        #expect(rows.count > 1 && rows.dropFirst().allSatisfy { $0[column] == "false" })
    }

    @Test func noControlsRunsOnlyTheVariants() async throws {
        let path = BenchProcess.temporaryPath("stress")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await BenchProcess.debug.run(["stress", "--filter", "once/dispatch-once/", "--threads", "2",
                                                       "--duration", "0.2", "--no-controls", "--output", path])
        #expect(outcome.status == ExitStatus.success, "\(outcome.standardError)")
        #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("control/"))
    }

    /// Issue 72: the watchdog abandons a check that deadlocks, by name, and the run goes on: the checks after it
    /// run, the file is complete, and stdout ends with the verdict line naming what was abandoned (exit 3). A check
    /// whose threads advance slowly (a ticket lock whose holders sleep, an iteration four times the watchdog's time)
    /// is reported as slow with its rate, never abandoned. No timing is asserted beyond a generous bound on the run.
    @Test func aDeadlockedCheckIsAbandonedAndASlowOneIsNot() async throws {
        let path = BenchProcess.temporaryPath("stress")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let watchdog = 2.0
        let started = Date()
        let outcome = try await BenchProcess.debug.run(["stress", "--filter", "^once/dispatch-once/", "--threads", "2",
                                                       "--duration", "1", "--slow-control", "--deadlock-control",
                                                       "--watchdog", String(watchdog), "--output", path])
        let elapsed = Date().timeIntervalSince(started)
        #expect(outcome.status == ExitStatus.suspectedDeadlock, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("suspected deadlock: control/deadlock/lock-order-inversion threads:2"))
        #expect(elapsed < 60, "the run must end within a bounded time, took \(elapsed) s")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        let verdict = try #require(lines.last)
        #expect(verdict.hasPrefix("FAIL: "), "the verdict is the last line: \(verdict)")
        #expect(verdict.contains("control/deadlock/lock-order-inversion threads:2 was abandoned"))
        #expect(!verdict.contains("sleeping-ticket-lock"), "a slow check is no failure: \(verdict)")
        let slow = try #require(lines.first { $0.hasPrefix("watchdog/sleeping-ticket-lock/progress threads:2:") })
        #expect(slow.contains("SLOW, not stuck") && !slow.contains("ABANDONED"), "\(slow)")

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("no-progress-suspected-deadlock,forbidden"))
        #expect(text.contains("iteration-slower-than-watchdog,acceptable-interesting"))
        // The controls after the abandoned one ran, and the file is a complete run's.
        #expect(text.contains("control/once/unsynced-tracker/race,true,4,"))
        let rows = try CSVFormat.decode(text)
        let column = try #require(rows.first?.firstIndex(of: "run_complete"))
        #expect(rows.count > 1 && rows.dropFirst().allSatisfy { $0[column] == "true" })
    }

    /// SIGTERM (what CI sends on cancel) stops the soak after the current iteration, the outcomes so far written.
    @Test func sigtermStopsWithTheOutcomesSoFarWritten() async throws {
        let path = BenchProcess.temporaryPath("stress")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, errorText) = try await onPlainThread { () throws -> (Int32, String) in
            let (process, output, error) = try BenchProcess.debug.start(
                ["stress", "--filter", "once/dispatch-once/", "--threads", "1,2", "--duration", "8", "--no-controls",
                 "--output", path])
            var errorText = BenchProcess.read(error, until: "[2/")
            kill(process.processIdentifier, SIGTERM)
            errorText += String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            _ = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, errorText)
        }
        #expect(status == ExitStatus.terminated, "stderr: \(errorText)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("once/dispatch-once/race,false,1,"), "the first slot's outcomes are kept")
    }

    @Test(arguments: [
        (["stress", "--filter", "no-such-check"], "no stress check matches"),
        (["stress", "--duration", "0"], "--duration must be a positive number"),
        // Issue 44 (8): a value that is not a number is refused with what is expected.
        (["stress", "--duration", "ten"], "expected a number of seconds, such as 10 or 2.5"),
        (["stress", "--watchdog", "-1"], "--watchdog must be a positive number"),
        (["stress", "--threads", "0"], "invalid for '--threads <list>': '0' is not a thread count"),
        (["stress", "--filter", "("], "is not a valid regular expression"),
    ])
    func badInputExits64(arguments: [String], message: String) async throws {
        let outcome = try await BenchProcess.debug.run(arguments)
        #expect(outcome.status == ExitStatus.badInput)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }

    /// Exit 1's two causes, from results (no broken product variant exists to run).
    @Test func aForbiddenOutcomeOrAnUncaughtControlFailsTheRun() throws {
        let variant = try #require(Registrations.stressVariants(adding: []).first)
        let control = try #require(StressCatalog.controls.first)
        var clean = StressResult(slot: StressSlot(check: variant, threads: 2))
        clean.counts.record(.ranOnce, times: 10)
        clean.counts.trials = variant.power.minimumTrials
        var broken = clean
        broken.counts.record(.ranMoreThanOnce)
        var caught = StressResult(slot: StressSlot(check: control, threads: 4))
        caught.secondsToFirstForbidden = 0.01
        caught.trialsToFirstForbidden = 1
        let uncaught = StressResult(slot: StressSlot(check: control, threads: 4))

        #expect(StressReport.failures([clean, caught]).isEmpty)
        #expect(StressReport.failures([broken]) == ["\(variant.name) threads:2 showed 1 forbidden outcome"])
        #expect(StressReport.failures([uncaught]) == ["\(control.name) threads:4 was never caught"])
        #expect(StressReport.render([uncaught]).contains("NEVER CAUGHT"))

        // The last line says PASS only when nothing failed, and names what did.
        #expect(StressReport.verdict([clean, caught], path: "x.csv", report: "scripts/analyze report x.csv")
                == "PASS: 0 forbidden outcomes in 1 check; "
                + "1 of 1 negative control caught (each at the thread count that can catch it, not --threads); wrote x.csv; "
                + "next: scripts/analyze report x.csv")
        let failed = StressReport.verdict([broken, uncaught], path: "x.csv", report: "r")
        #expect(failed.hasPrefix("FAIL: 1 forbidden outcome in 1 check; 0 of 1 negative control caught"))
        #expect(failed.contains("\(variant.name) threads:2 showed 1 forbidden outcome; \(control.name) threads:4 was "
                                + "never caught"))
        // A failed check is named as failed, not also as not proven, even below its minimum.
        var brokenEarly = broken
        brokenEarly.counts.trials = 1
        #expect(!StressReport.verdict([brokenEarly], path: "x.csv", report: "r").contains("not proven"))
    }

    /// Issue 72: a variant whose check ran fewer trials than its minimum passes (nothing forbidden was seen) but is
    /// named not proven, in its line and the verdict; at the minimum it is not. A racy control caught only beyond
    /// the minimum is named too; one caught within it is not.
    @Test func fewerTrialsThanTheMinimumIsNotProven() throws {
        let variant = try #require(Registrations.stressVariants(adding: []).first { $0.power.minimumTrials > 1 })
        let racy = try #require(StressCatalog.controls.first { $0.control == .racy })
        var short = StressResult(slot: StressSlot(check: variant, threads: 2))
        short.counts.record(.ranOnce, times: 10)
        short.counts.trials = variant.power.minimumTrials - 1
        var enough = short
        enough.counts.trials = variant.power.minimumTrials
        var late = StressResult(slot: StressSlot(check: racy, threads: racy.controlThreads))
        late.secondsToFirstForbidden = 1
        late.trialsToFirstForbidden = racy.power.minimumTrials + 1
        var early = late
        early.trialsToFirstForbidden = racy.power.minimumTrials

        #expect(StressReport.failures([short, late]).isEmpty, "neither is a failure")
        #expect(StressReport.render([short]).contains("NOT PROVEN"))
        #expect(!StressReport.render([enough]).contains("NOT PROVEN"))
        let verdict = StressReport.verdict([short, late], path: "x.csv", report: "r")
        #expect(verdict.hasPrefix("PASS"))
        #expect(verdict.contains("not proven (below the minimum trials): \(variant.name) threads:2"))
        #expect(verdict.contains("racy controls caught only beyond the minimum, or not at all: \(late.slot.label)"))
        // A racy control never caught is named the same way, and is no failure; a deterministic one fails the run.
        let missed = StressResult(slot: StressSlot(check: racy, threads: racy.controlThreads))
        #expect(StressReport.failures([missed]).isEmpty)
        #expect(StressReport.verdict([missed], path: "x.csv", report: "r").contains("not at all: \(missed.slot.label)"))
        #expect(StressReport.render([missed]).contains("NOT CAUGHT in its budget"))
        let fine = StressReport.verdict([enough, early], path: "x.csv", report: "r")
        #expect(!fine.contains("not proven") && !fine.contains("beyond the minimum"))
    }

    /// Issue 72: an abandoned check fails the run by name; a slow one does not, and says its rate.
    @Test func anAbandonedCheckFailsAndASlowOneDoesNot() throws {
        let variant = try #require(Registrations.stressVariants(adding: []).first)
        var slow = StressResult(slot: StressSlot(check: variant, threads: 16))
        slow.counts.record(.ranOnce)
        slow.counts.trials = variant.power.minimumTrials
        slow.slowIterations = 1
        slow.slowestRate = 123
        var stuck = StressResult(slot: StressSlot(check: variant, threads: 8))
        stuck.abandoned = true
        #expect(StressReport.failures([slow]).isEmpty)
        #expect(StressReport.render([slow]).contains("SLOW, not stuck: 1 iteration longer than the watchdog's time, "
                                                      + "its threads advancing at 123 operations/s"))
        #expect(StressReport.failures([stuck]) == ["\(variant.name) threads:8 was abandoned (no progress: suspected "
                                                    + "deadlock)"])
        #expect(stuck.rows().first?.outcome == "no-progress-suspected-deadlock")
        #expect(slow.rows().contains { $0.outcome == "iteration-slower-than-watchdog" && $0.grade == "acceptable-interesting" })
    }
}

/// Issue 72: how long the runner runs a slot, from results it makes itself.
@Suite struct StressSlotLengthTests {
    /// Runs `checks` at 1 thread each, with a share of the duration too short for a second iteration, into a file
    /// removed afterwards.
    static func run(_ checks: [StressCase], watchdogSeconds: Double) throws -> [StressResult] {
        let path = BenchProcess.temporaryPath("stress")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let environment = RunEnvironment.current(benchVersion: "test")
        let writer = try ResultsWriter(path: path, environment: environment,
                                       settings: RunSettings(measurement: .standard, filter: "", threads: "1"),
                                       overwrite: false)
        return StressRunner(slots: checks.map { StressSlot(check: $0, threads: 1) }, duration: 0.000_001,
                            controlSeconds: 1, environment: environment, writer: writer,
                            watchdogSeconds: watchdogSeconds).run()
    }

    /// A variant's check that shows a forbidden outcome ends its slot there, below its minimum trials: a broken
    /// handoff that loses a wake-up leaves two threads behind in every iteration that shows it, and ran for more than
    /// ten minutes toward a minimum it could never reach. The control: a clean check runs on to its minimum.
    @Test func aForbiddenOutcomeEndsAVariantsSlotAndACleanOneRunsToItsMinimum() throws {
        let power = CheckPower(trial: "trial", minimumTrials: 50, threads: "any")
        let broken = StressCase("test/broken/check", power) { _ in
            var counts = OutcomeCounts()
            counts.record(.signalLost)
            return counts
        }
        let clean = StressCase("test/clean/check", power) { _ in
            var counts = OutcomeCounts()
            counts.record(.roundTripCompleted)
            return counts
        }
        let results = try Self.run([broken, clean], watchdogSeconds: 10)
        #expect(results.map(\.iterations) == [1, 50])
        #expect(results[0].counts.forbidden == 1 && !results[0].reachedMinimum)
        #expect(results[1].reachedMinimum)
    }

    /// A check so slow that reaching its minimum would take minutes starts no iteration past its share plus
    /// `overrunLimits` watchdog times: it ends below its minimum, not proven, instead of holding the run. The
    /// control: a minimum within reach is reached (above). Here the watchdog is 1 s, so the limit is 3 s, and a
    /// minimum of a million 1 ms iterations is far out of it. (A watchdog of 0.05 s abandoned the check once, in a
    /// `scripts/test` whose other tests and pytest kept its thread off a CPU for that long: no beat is no progress.)
    @Test func aSlotBelowItsMinimumEndsPastItsShareAndTheOverrun() throws {
        let power = CheckPower(trial: "trial", minimumTrials: 1_000_000, threads: "any")
        let slow = StressCase("test/slow/check", power) { _ in
            Thread.sleep(forTimeInterval: 0.001)
            StressPulse.beat()
            var counts = OutcomeCounts()
            counts.record(.roundTripCompleted)
            return counts
        }
        let result = try #require(try Self.run([slow], watchdogSeconds: 1).first)
        #expect(!result.reachedMinimum && !result.abandoned)
        #expect(result.iterations >= 1 && result.iterations < 1_000_000)
        #expect(StressReport.notProven([result]) == ["test/slow/check threads:1"])
    }
}
