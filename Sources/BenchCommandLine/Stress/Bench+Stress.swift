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
            threads, at each --threads count, for an equal share of --duration and at least the check's minimum \
            trials (its racing windows: tokens raced, writes, tasks, round trips), and reports every outcome it \
            observed with its grade. A variant whose check ran fewer trials than its minimum is not proven by it. \
            Then runs each negative control (a deliberately broken variant) at its own thread count until the \
            same check observes a forbidden outcome, for at most \(Int(Stress.controlBudget)) s, and reports how \
            fast it was caught: a deterministic control shows that the check sees its defect, a racy one (broken \
            by a race people write) that the check catches such a race within its minimum trials.

            --list-checks says, for each check, what a trial is, its minimum, and what a thread count means to it \
            (the handoff check's pair runs beside N - 2 spinning threads, say). The default thread counts come \
            from this machine's CPUs: 1, the CPU count, and twice it (the run's first line names the counts \
            that oversubscribe the machine).

            A check none of whose threads advances for --watchdog seconds is abandoned as a suspected deadlock (its \
            threads left behind) and the run goes on with the next check; one whose threads still advance is never \
            cut short, and is reported as slow with its rate. Ctrl-C or SIGTERM ends the run after the current \
            iteration with the outcomes so far written.

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
              1    a variant showed a forbidden outcome, or a deterministic control was never caught
              3    a check was abandoned: no thread advanced for --watchdog seconds (suspected deadlock); the \
                   other checks ran, and the verdict line names it
              64   bad input; 73, 74 the file could not be created or written
              130  stopped by SIGINT; 143 by SIGTERM (the outcomes so far are written)
            """
        )

        /// Seconds a negative control may run before it counts as never caught.
        static let controlBudget = 10.0

        /// `bench`'s own options, which `bench stress` takes too: `--filter` (on check names), `--threads` (default
        /// `defaultThreads` here), `--output`, `--overwrite`.
        @ParentCommand var bench: Bench

        /// 1, this machine's CPUs, and twice them (oversubscribed): where a race can show on this machine, and
        /// where a preempted holder makes it show more.
        static var defaultThreads: ThreadList { ThreadList(forCPUs: ProcessInfo.processInfo.activeProcessorCount) }

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
            "Seconds in which no thread of a check advances after which it is abandoned as a suspected deadlock. "
                + SecondsArgument.defaultText(defaultWatchdog), valueName: "seconds"), transform: SecondsArgument.parse)
        var watchdog = defaultWatchdog

        @Flag(inversion: .prefixedNo, help: "Run the negative controls of the selected checks, which must be caught.")
        var controls = true

        /// Whether the run includes the negative controls. `bench`'s own `--no-controls` (a timing run's) has the
        /// same name and is parsed first, so `bench stress --no-controls` sets `bench.noControls`, not `controls`:
        /// the run reads both.
        var runsControls: Bool { controls && !bench.noControls }

        @Flag(name: .customLong("deadlock-control"), help: ArgumentHelp(
            "Also run a control that deadlocks for certain, to see the watchdog abandon it.", visibility: .hidden))
        var deadlockControl = false

        @Flag(name: .customLong("slow-control"), help: ArgumentHelp(
            "Also run a check that is slow for certain and never stuck, to see the watchdog call it slow.",
            visibility: .hidden))
        var slowControl = false

        @Flag(name: .customLong("list-checks"), help: ArgumentHelp(
            "List the checks and controls a run would run (a brought-in variant's marked from:<module>), then what "
                + "each check counts as a trial, its minimum, and what a thread count means to it; run nothing."))
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
                + (slowControl ? [StressCatalog.slow] : [])
            let selectedChecks = Set(variants.map { Self.checkIdentity($0.name) })
            // The deadlock control first, so that the checks after it show the run going on past an abandoned one.
            let controlCases = (deadlockControl ? [StressCatalog.deadlock] : [])
                + (runsControls ? StressCatalog.controls.filter {
                    matches($0.name) || selectedChecks.contains(Self.checkIdentity($0.name))
                } : [])
            guard !variants.isEmpty || !controlCases.isEmpty else {
                throw BenchError("no stress check matches --filter '\(filter ?? "")' (see them with --list-checks)")
            }
            if listChecks {
                for check in variants + controlCases { print(Self.listLine(check)) }
                for line in Self.powerLines(variants + controlCases) { print(line) }
                return print("\(variants.count) checks, \(controlCases.count) controls")
            }
            let slots = variants.flatMap { check in counts.map { StressSlot(check: check, threads: $0) } }
                + controlCases.map { StressSlot(check: $0, threads: $0.controlThreads) }
            let environment = RunEnvironment.current(benchVersion: BenchVersion.current)
            let settings = RunSettings(measurement: .standard, filter: filter ?? "",
                                       threads: threads.description)
            let writer = try Bench.resultsWriter(output: bench.output, overwrite: bench.overwrite, environment, settings,
                                                 kind: "stress-")
            let runner = StressRunner(slots: slots, duration: duration, controlSeconds: Self.controlBudget,
                                      environment: environment, writer: writer, watchdogSeconds: watchdog)
            let cpus = environment.logicalCPUs
            let oversubscribed = counts.filter { $0 > cpus }
            warn("\(ProgramName.current) stress: \(variants.count) checks at threads \(threads)"
                 + (oversubscribed.isEmpty ? "" : " (\(oversubscribed.map(String.init).joined(separator: ",")) "
                    + "oversubscribe the \(cpus) CPUs)")
                 + ", \(controlCases.count) controls, ~\(Progress.duration(duration)) plus controls and minimum "
                 + "trials, writing \(writer.path)")
            let results = runner.run()
            print(StressReport.render(results))
            if let signal = runner.stoppingSignal {
                throw BenchError("stopped by \(Interruption.name(signal)): wrote the outcomes of \(results.count) "
                                 + "checks to \(writer.path)", exitCode: Interruption.exitStatus(signal))
            }
            try writer.completeRun()
            warn("wrote \(writer.path) (\(writer.rowsWritten) rows)")
            // The verdict is the last line, on stdout after everything else, and the exit status says the same.
            let timing = Self.timingFile(besides: writer.path)
            print(StressReport.verdict(results, path: writer.path, report: ProgramName.analyzeCommand + " report "
                                       + ([timing, writer.path].compactMap { $0 }).joined(separator: " ")))
            fflush(nil)
            if results.contains(where: \.abandoned) { throw BenchError("", exitCode: ExitStatus.suspectedDeadlock) }
            if !StressReport.failures(results).isEmpty { throw BenchError("", exitCode: ExitStatus.checkFailed) }
        }

        /// After the list of `--list-checks`: per kind of check (`once/race`), what a trial is, the minimum a
        /// variant must reach at each thread count, the racy control that measures it, and what N threads mean.
        static func powerLines(_ checks: [StressCase]) -> [String] {
            var seen: Set<String> = []
            var lines = ["What each check counts as a trial, its minimum at each thread count, and what N threads mean:"]
            for check in checks where seen.insert(checkIdentity(check.name)).inserted {
                let power = check.power
                lines.append("  \(checkIdentity(check.name)): a trial is one \(power.trial); minimum "
                             + "\(power.minimumTrials) "
                             + (power.racyControl.map { "(measured against \($0))" }
                                ?? "(no racy control measures it)")
                             + "; threads N: \(power.threads)")
            }
            return lines
        }

        /// The newest timing file (a `bench` CSV of this schema, by its header) in the directory `stressPath` is
        /// written to, for the verdict's `next:` command, as bring-your-own.md's steps read both; nil when none.
        static func timingFile(besides stressPath: String) -> String? {
            let directory = (stressPath as NSString).deletingLastPathComponent
            let listed = directory.isEmpty ? "." : directory
            let header = CSVFormat.encode(ResultsSchema.header)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: listed)) ?? []
            let timing = files.filter { $0.hasSuffix(".csv") }.compactMap { name -> (String, Date)? in
                let path = directory.isEmpty ? name : (directory as NSString).appendingPathComponent(name)
                guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
                defer { try? handle.close() }
                let start = String(decoding: handle.readData(ofLength: header.utf8.count), as: UTF8.self)
                let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
                return start == header ? (path, modified ?? .distantPast) : nil
            }
            return timing.max { $0.1 < $1.1 }?.0
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
