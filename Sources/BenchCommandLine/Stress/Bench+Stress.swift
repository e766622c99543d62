import ArgumentParser
import BenchCore
import BenchResults
import Foundation
import StressChecks
import Synchronization
import VariantRegistration

extension Bench {
    /// `bench stress`: the stress checks of `swift test` as a soak, reporting every observed outcome graded as
    /// jcstress grades them, with the negative controls run to prove the checks still have teeth.
    struct Stress: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stress",
            abstract: "Run the stress checks as a soak: outcomes graded "
                + "\(OutcomeGrade.allCases.dropLast().map(\.rawValue).joined(separator: ", ")) or "
                + "\(OutcomeGrade.allCases.last!.rawValue).",
            usage: "\(ProgramName.current) stress [--filter <regex>] [--threads <list>] [--duration <seconds>] [--watchdog <seconds>] "
                + "[--no-controls] [--output <path>] [--overwrite] [--list-checks]",
            discussion: """
            Runs each selected check (family/variant/check, as --list-checks prints) again and again on real \
            threads, at each --threads count, for an equal share of --duration (at least one iteration each), \
            and reports every outcome it observed with its grade. Then runs each negative control (a \
            deliberately broken variant) at its own thread count until the same check observes a forbidden \
            outcome, for at most \(Int(Stress.controlBudget)) s, and reports how fast it was caught.

            A check that makes no progress for --watchdog seconds is reported by name as a suspected deadlock \
            and the run ends (its threads are abandoned, not stopped). Ctrl-C or SIGTERM ends the run after the \
            current iteration with the outcomes so far written.

            --filter selects checks by name; each selected check brings its negative controls, those that \
            go through the same check (control/once/unsynced-tracker/race comes with once/lazy-static/race), \
            since a check that passes proves something only when its controls show that it can fail. A \
            control the filter matches by name runs too. --no-controls runs none: the run then shows nothing \
            about whether its checks can fail.

            Takes bench's --filter (a regular expression on the check names), --threads (default \
            \(Stress.defaultThreads)), --output and --overwrite. Writes \
            Results/stress-<UTC stamp>-<short commit>.csv (or --output): one row per check, thread count \
            and outcome, with its count and grade; control rows have is_control true. More: docs/stress.md.

            Exit status:
              0    no forbidden outcome, every control caught
              1    a variant showed a forbidden outcome, or a control was never caught
              3    a check made no progress for --watchdog seconds (suspected deadlock)
              64   bad input; 73, 74 the file could not be created or written
              130  stopped by SIGINT; 143 by SIGTERM (the outcomes so far are written)
            """
        )

        /// Seconds a negative control may run before it counts as never caught.
        static let controlBudget = 10.0

        /// `bench`'s own options, which `bench stress` takes too: `--filter` (on check names), `--threads` (default
        /// `defaultThreads` here), `--output`, `--overwrite`.
        @ParentCommand var bench: Bench

        static let defaultThreads = ThreadList(1, 2, 4, 8, 16, 32)

        var filter: String? { bench.filter }
        var threads: ThreadList { bench.requestedThreads ?? Self.defaultThreads }

        static let defaultDuration = 60.0
        static let defaultWatchdog = 10.0

        // Parsed by SecondsArgument, so that `--duration ten` says seconds are expected; a transform hides the
        // default from the help, so the help states it.
        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
            "Seconds for the variants' checks in all, shared equally by check and thread count (controls come on "
                + "top, each until caught). \(SecondsArgument.defaultText(defaultDuration))", valueName: "seconds"),
                transform: SecondsArgument.parse)
        var duration = defaultDuration

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
            "Seconds without an iteration completing after which a check is a suspected deadlock. "
                + SecondsArgument.defaultText(defaultWatchdog), valueName: "seconds"), transform: SecondsArgument.parse)
        var watchdog = defaultWatchdog

        @Flag(inversion: .prefixedNo, help: "Run the negative controls of the selected checks, which must be caught.")
        var controls = true

        @Flag(name: .customLong("deadlock-control"), help: ArgumentHelp(
            "Also run a control that deadlocks for certain, to see the watchdog end the run.", visibility: .hidden))
        var deadlockControl = false

        @Flag(name: .customLong("list-checks"), help: ArgumentHelp(
            "List the checks and controls a run would run, a brought-in variant's marked from:<module>, and run "
                + "nothing."))
        var listChecks = false

        func validate() throws {
            _ = try matcher()
            guard duration > 0, duration.isFinite else {
                throw ValidationError("--duration must be a positive number of seconds, not \(duration)")
            }
            guard watchdog > 0, watchdog.isFinite else {
                throw ValidationError("--watchdog must be a positive number of seconds, not \(watchdog)")
            }
        }

        func run() throws {
            let counts = threads.counts
            let matches = try matcher()
            let variants = Registrations.stressVariants().filter { matches($0.name) }
            let selectedChecks = Set(variants.map { Self.checkIdentity($0.name) })
            let controlCases = (controls ? StressCatalog.controls.filter {
                matches($0.name) || selectedChecks.contains(Self.checkIdentity($0.name))
            } : []) + (deadlockControl ? [StressCatalog.deadlock] : [])
            guard !variants.isEmpty || !controlCases.isEmpty else {
                throw BenchError("no stress check matches --filter '\(filter ?? "")' (see them with --list-checks)")
            }
            if listChecks {
                for check in variants + controlCases { print(Self.listLine(check)) }
                return print("\(variants.count) checks, \(controlCases.count) controls")
            }
            let slots = variants.flatMap { check in counts.map { StressSlot(check: check, threads: $0) } }
                + controlCases.map { StressSlot(check: $0, threads: $0.controlThreads) }
            let environment = RunEnvironment.current(benchVersion: BenchVersion.current)
            let settings = RunSettings(measurement: .standard, filter: filter ?? "",
                                       threads: threads.description)
            let writer = try Bench.resultsWriter(output: bench.output, overwrite: bench.overwrite, environment, settings,
                                                 kind: "stress-")
            let runner = StressRunner(slots: slots, duration: duration, environment: environment, writer: writer,
                                      watchdogSeconds: watchdog)
            warn("\(ProgramName.current) stress: \(variants.count) checks at threads \(threads), "
                 + "\(controlCases.count) controls, ~\(Progress.duration(duration)) plus controls, "
                 + "writing \(writer.path)")
            let results = runner.run()
            print(StressReport.render(results))
            if let signal = runner.stoppingSignal {
                throw BenchError("stopped by \(Interruption.name(signal)): wrote the outcomes of \(results.count) "
                                 + "checks to \(writer.path)", exitCode: Interruption.exitStatus(signal))
            }
            try writer.completeRun()
            warn("wrote \(writer.path) (\(writer.rowsWritten) rows)")
            // The verdict is the last line, on stdout after everything else, and the exit status says the same.
            print(StressReport.verdict(results, path: writer.path))
            fflush(nil)
            if !StressReport.failures(results).isEmpty { throw BenchError("", exitCode: ExitStatus.checkFailed) }
        }

        /// A check as `--list-checks` prints it: its name, then `from:<module>` when a package brought its
        /// variant, as `bench --list` marks a case and the stress file's `variant_origin` says.
        static func listLine(_ check: StressCase) -> String {
            check.origin == BenchmarkCase.builtInOrigin ? check.name : "\(check.name) from:\(check.origin)"
        }

        /// What a check name says about the check, without the variant it runs on: `once/race` for
        /// `once/lazy-static/race` and for its control `control/once/unsynced-tracker/race`
        /// (`family[/pattern]/variant/check`: the variant is the next-to-last part).
        static func checkIdentity(_ name: String) -> String {
            var parts = name.split(separator: "/", omittingEmptySubsequences: false)
            if parts.first == "control" { parts.removeFirst() }
            if parts.count >= 2 { parts.remove(at: parts.count - 2) }
            return parts.joined(separator: "/")
        }

        /// A predicate on the check names from `--filter`.
        func matcher() throws -> @Sendable (String) -> Bool {
            guard let filter else { return { _ in true } }
            guard !filter.isEmpty else {
                throw ValidationError("--filter: '\(filter)' is not a valid regular expression")
            }
            let regex = try FilterPattern.regex(filter)
            return { name in regex.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil }
        }
    }
}
