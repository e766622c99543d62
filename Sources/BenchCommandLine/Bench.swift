import ArgumentParser
import BenchCore
import BenchSuites
import Foundation
import StressChecks
import VariantRegistration

/// `bench`: times synchronization patterns on real threads and writes one CSV row per kept sample.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ProgramName.current,
        abstract: "Measure what Grand Central Dispatch patterns cost, on real threads, into a CSV of raw samples.",
        discussion: """
        Every case runs on real OS threads (never capped at the core count), meets at a start barrier, is \
        calibrated so that each sample lasts at least --sample-time, and keeps --samples samples after warm-up. \
        A run has rounds: each is a fresh process measuring the selected cases once, in an order shuffled by the \
        run's seed, and appending its rows (with their round) to the one CSV. With --rounds N every case gets N; \
        by default each case stops once its decisions are settled, after \(Bench.stoppingRule.minimumRounds) to \
        \(Bench.defaultRounds) rounds (docs/running.md#adaptive-rounds). \
        Rows are written as each case completes: Ctrl-C or SIGTERM stops at the next sample and leaves a valid \
        CSV of the completed cases (a second one stops at once); a run that completed no case leaves no file. \
        Every row says run_complete=false until the whole run has completed, when the file is rewritten with \
        true: the file of a stopped or killed run says it is incomplete. A round dies with the process that \
        started it, whatever ends that process (SIGKILL included), so nothing is written after the run ends. \
        Thread counts above the machine's logical CPUs oversubscribe it; they are marked in the progress and the \
        summary.

        Examples:
          \(ProgramName.current)                          every case, into Results/
          \(ProgramName.current) --rounds 10              every case 10 rounds: a run to gate on
          \(ProgramName.current) --quick                  smoke run: 2 rounds, too few to gate on
          \(ProgramName.current) --rounds 16              more processes: a finer gate
          \(ProgramName.current) --list --filter '^once/' the cases a run would measure
          \(ProgramName.current) --filter once --threads 1,4,16 --output /tmp/once.csv
          \(ProgramName.current) self-check               harness vs hand-written loops
        Run it as `swift run -c release \(ProgramName.current) ...`: a debug build's timings are meaningless.
        Options, files and stopping: docs/running.md; how it measures: docs/measuring.md.

        Exit status:
        \(ExitStatus.helpText)
        """,
        version: BenchVersion.current,
        subcommands: [SelfCheck.self, Count.self, CountWorker.self, Stress.self, Schema.self, Worker.self]
    )

    @Option(name: .long, help: ArgumentHelp(
        "Only cases whose suite/benchmark/variant matches this regular expression; a timing run also measures the "
            + "controls it leaves out (--no-controls).", valueName: "regex"))
    var filter: String?

    @Flag(name: .customLong("no-controls"), help: ArgumentHelp(
        "Measure only the cases --filter selects. Without it, a timing run whose filter leaves out harness/empty/loop "
            + "or harness/spin/loop measures them too, at each --threads count, as controls: the analysis tells from "
            + "them whether the machine was busy and how often a thread that cannot starve looks starved on it "
            + "(docs/running.md#what-a-run-does). --list marks them (control)."))
    var noControls = false

    // `.unconditional`: the argument after --threads, --samples or --sample-time is its value even when it looks
    // like an option (`-1`), so that the parser or validation can say what is wrong with it. The list is parsed
    // here, once, as the arguments are read: a bad one ends the command with ThreadList's message (exit status 64).
    @Option(name: .customLong("threads"), parsing: .unconditional, help: ArgumentHelp(
        "Comma-separated thread counts to sweep, each 1...\(ThreadList.maximum). Cases written for fixed thread "
            + "counts (once/race at 2 and 8, a handoff at 2) run only at those of their counts the list names; the "
            + "default (\(Bench.defaultThreads)) names them all.", valueName: "list"),
            transform: ThreadList.init(parsing:))
    var requestedThreads: ThreadList?

    /// The default of `--threads` for a timed run (`bench stress` has its own).
    static let defaultThreads = ThreadList(1, 2, 4, 8)

    /// The `--threads` list, or the default when none was given.
    var threads: ThreadList {
        get { requestedThreads ?? Self.defaultThreads }
        set { requestedThreads = newValue }
    }

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Samples kept per case and round (default \(MeasurementSettings.standard.samples), quick "
            + "\(MeasurementSettings.quick.samples)).", valueName: "n"))
    var samples: Int?

    @Option(name: .customLong("sample-time"), parsing: .unconditional, help: ArgumentHelp(
        "Least duration of one sample in milliseconds (default "
            + "\(MeasurementSettings.standard.sampleNanoseconds / 1_000_000), quick "
            + "\(MeasurementSettings.quick.sampleNanoseconds / 1_000_000)).", valueName: "ms"))
    var sampleTime: Int?

    @Flag(name: .long, help: ArgumentHelp(
        "Smoke run: 2 rounds of 1 sample of 2 ms after 1 warm-up sample; too few rounds to gate on."))
    var quick = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Fresh processes to measure every case in, one after the other, each in its own shuffled order, all "
            + "appending to one CSV: exactly this many for every case (quick \(Bench.quickRounds); 1 measures in "
            + "this process, in the listed order unless --seed is given). Without it, rounds are adaptive: every "
            + "case gets \(Bench.stoppingRule.minimumRounds) and at most \(Bench.defaultRounds), each stopping once "
            + "its decisions are settled (its interval clears the lines its scenario draws: the pick against the "
            + "runner-up, 3x the fastest); the rule and its error: docs/running.md#adaptive-rounds. A case's level "
            + "can differ from one process to the next (memory layout, GCD's thread pool), and only more processes "
            + "show by how much: scripts/analyze compare and gate judge the rounds, not the samples. Among the full "
            + "suite's cases they decide together, a change in one case alone needs 10 rounds a side (its U test "
            + "must reach 0.01 over their number): give --rounds \(Bench.defaultRounds) for a run to gate on. On a "
            + "shared host a case's cost also wanders for seconds at a time, so the defaults take one sample per "
            + "round: each case is measured at as many moments as there are rounds. A quick run's 2 rounds show "
            + "the noise but are too few to gate on. The rule: docs/comparison-rule.md.", valueName: "n"))
    var rounds: Int?

    /// The most rounds a case gets when `--rounds` is not given: the fewest that let `scripts/analyze gate` call a
    /// change in one case alone among the whole suite (docs/comparison-rule.md, "A lone change needs 10 rounds a
    /// side"). `--rounds 10` gives every case all of them.
    static let defaultRounds = 10
    static let quickRounds = 2
    /// When a case of an adaptive run (no `--rounds`, not `--quick`) stops.
    static let stoppingRule = StoppingRule(maximumRounds: defaultRounds)

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Seed of the shuffled case order (default: a random one when there are several rounds); recorded in "
            + "the run_seed column, so that a run can be repeated in the same order.", valueName: "n"))
    var seed: UInt64?

    @Option(name: .customLong("spin-scale"), parsing: .unconditional, help: ArgumentHelp(
        "Multiply the work of harness/spin, and of no other case, by this factor, recorded in the "
            + "run_spin_scale column: a change of known size for checking a gate "
            + "(scripts/bench-commits --check-gate).", valueName: "x"))
    var spinScale: Double = 1

    /// Which round of a `--rounds` run this process measures; set by the run's first process (or by
    /// scripts/bench-commits) for each fresh process it starts. Rows are appended to `--output`.
    @Option(name: .long, help: .hidden)
    var round: Int?

    /// A JSON file holding the run environment every round records (written by the first process to need it).
    @Option(name: .customLong("run-environment"), help: .hidden)
    var runEnvironment: String?

    /// In a round of an adaptive run, the fewest rounds a case of the run gets (recorded as `run_min_rounds`); set
    /// by the run's first process, which then marks the file complete itself.
    @Option(name: .customLong("min-rounds"), help: .hidden)
    var minimumRounds: Int?

    /// In a round of an adaptive run after the first look, a file naming the cases still open, one `--list` line
    /// each: the round measures only those (written by the run's first process, as an anonymous file).
    @Option(name: .customLong("open-cases"), help: .hidden)
    var openCases: String?

    /// In a round of an adaptive run, the file of the calibration plans the run's earlier rounds made
    /// (`RoundPlans`): the round runs a case by its plan there, and appends the plan of each case it calibrates
    /// (an anonymous file of the run's first process).
    @Option(name: .customLong("plans"), help: .hidden)
    var plans: String?

    // Parsed by SecondsArgument, so that `--hang-timeout ten` says seconds are expected; its default depends on
    // the sample time, so the help states it.
    @Option(name: .customLong("hang-timeout"), parsing: .unconditional, help: ArgumentHelp(
        "Seconds in which none of a case's threads completes an operation and bench itself makes no progress on "
            + "it, after which the case is abandoned as hung: reported on stderr, in the summary and in the CSV "
            + "(hung=true, no timing), not measured in later rounds, and the run goes on with the next case (its "
            + "round in a fresh process) and exits \(ExitStatus.suspectedDeadlock) at the end. A case that advances "
            + "is never cut short, however slowly. Default: \(Int(Bench.defaultHangTimeout)) s, or "
            + "\(Int(Bench.hangTimeoutSamples)) x --sample-time when that is longer; at least "
            + "\(Int(Bench.leastHangTimeoutSamples)) x --sample-time (a lockstep case publishes nothing for a whole "
            + "sample). docs/running.md#hung-cases.", valueName: "seconds"), transform: SecondsArgument.parse)
    var hangTimeout: Double?

    /// `--hang-timeout` when none is given, in seconds: far beyond the longest stretch a correct case at the default
    /// settings goes without visible progress (docs/running.md#hung-cases).
    static let defaultHangTimeout = 60.0
    /// With a longer `--sample-time`, the default is this many sample times: a lockstep case's threads publish
    /// nothing during a run, which calibration aims at 1.2 sample times and a run fast by accident can send up to
    /// `CalibrationStep.maximumGrowth` times further.
    static let hangTimeoutSamples = Double(CalibrationStep.maximumGrowth)
    /// The least `--hang-timeout`, in sample times: shorter, every correct lockstep case would be called hung.
    static let leastHangTimeoutSamples = 10.0

    /// The hang timeout this run uses, in seconds: `--hang-timeout`, or the default for its sample time.
    var hangTimeoutSeconds: Double {
        hangTimeout ?? max(Self.defaultHangTimeout, Self.hangTimeoutSamples * sampleSeconds)
    }

    /// The length of one sample as the options ask for it, in seconds.
    private var sampleSeconds: Double { Double(settings.sampleNanoseconds) / 1e9 }

    @Flag(name: .customLong("hang-control"), help: ArgumentHelp(
        "Also time wait/handoff/lost-wakeup, a handoff that loses its first wake-up for certain, to see "
            + "--hang-timeout abandon it and the run go on.", visibility: .hidden))
    var hangControl = false

    /// In a round whose case hung, the cases of the round already done (the last of them the hung one): the round
    /// replaced its process with a fresh one (this one), which measures the rest, so that no later case runs
    /// beside the hung case's threads.
    @Option(name: .customLong("after-hang"), help: .hidden)
    var afterHang: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Where to write the CSV (default Results/<UTC yyyymmdd-HHMMSS>-<short commit>.csv, then -2, -3, … "
            + "for runs started in the same second).", valueName: "path"))
    var output: String?

    @Flag(name: .long, help: "Replace the --output file if it exists (by default an existing file is an error).")
    var overwrite = false

    @Option(name: .long, help: ArgumentHelp(
        "The allocator of the timed run: system (glibc's malloc) or jemalloc (Debian's libjemalloc2, preloaded; "
            + "apt-get install libjemalloc-dev). Default: the one the process starts with. Recorded in the "
            + "allocator column.", valueName: "name"))
    var allocator: Allocator?

    @Flag(name: .long, help: "List the cases a run would measure, and time nothing.")
    var list = false

    @Option(name: .long, help: ArgumentHelp(
        "With --list: text (the cases) or md (every family's variant table, as in docs/suites.md). With bench "
            + "schema: json (the CSV schemas as JSON instead of Markdown)."))
    var format = ListFormat.text

    mutating func validate() throws {
        _ = try pathMatcher()
        if let samples, samples < 1 { throw ValidationError("--samples must be at least 1, not \(samples)") }
        if format == .md && !list { throw ValidationError("--format goes with --list") }
        if format == .json && list {
            throw ValidationError("--list prints text or md; --format json is bench schema's")
        }
        if let sampleTime, !(1...60_000).contains(sampleTime) {
            throw ValidationError("--sample-time must be 1 to 60000 milliseconds, not \(sampleTime)")
        }
        if let rounds, !(1...1_000).contains(rounds) {
            throw ValidationError("--rounds must be 1 to 1000, not \(rounds)")
        }
        if !(spinScale > 0 && spinScale <= 100) {
            throw ValidationError("--spin-scale must be above 0 and at most 100, not \(spinScale)")
        }
        if let round {
            guard let rounds, (1...rounds).contains(round), seed != nil, runEnvironment != nil, output != nil else {
                throw ValidationError("--round K needs --rounds N (K in 1...N), --seed, --run-environment and --output")
            }
        }
        if round == nil && (minimumRounds != nil || openCases != nil || plans != nil) {
            throw ValidationError("--min-rounds, --open-cases and --plans go with --round")
        }
        if let minimumRounds, !(1...(rounds ?? 1)).contains(minimumRounds) {
            throw ValidationError("--min-rounds must be 1 to --rounds, not \(minimumRounds)")
        }
        if let hangTimeout {
            guard hangTimeout.isFinite, hangTimeout > 0 else {
                throw ValidationError("--hang-timeout must be a positive number of seconds, not \(hangTimeout)")
            }
            let least = Self.leastHangTimeoutSamples * sampleSeconds
            guard hangTimeout >= least else {
                throw ValidationError("--hang-timeout must be at least \(Int(Self.leastHangTimeoutSamples)) sample "
                                      + "times (\(least) s here): a lockstep case's threads publish nothing for a "
                                      + "whole sample, not \(hangTimeout)")
            }
        }
        if let afterHang, round == nil || afterHang < 1 {
            throw ValidationError("--after-hang goes with --round, and is at least 1, not \(afterHang)")
        }
    }

    /// The rounds of the run: `--rounds`, or the default for the mode (in an adaptive run, the most a case gets).
    var roundCount: Int {
        rounds ?? (quick ? Self.quickRounds : Self.defaultRounds)
    }

    /// Whether this run's first process stops each case by the stopping rule: no `--rounds`, not `--quick`.
    var isAdaptive: Bool {
        rounds == nil && !quick && round == nil
    }

    func run() throws {
        // `bench schema` reads `--format json`; a run has no use for it.
        if format == .json { throw ValidationError("--format json goes with bench schema") }
        if list && format == .md { return print(CatalogTable.markdown()) }
        let timed = try openCases.map(casesStillOpen) ?? timedCases()
        if list {
            for (benchmarkCase, _) in timed.cases { print(timed.listLine(benchmarkCase)) }
            print(timed.countText + (timed.controls.isEmpty ? "" : " (--no-controls leaves the controls out)"))
            return
        }
        if round == nil && roundCount > 1 {
            try measureInRounds(timed)
        } else {
            try measure(inOrder(timed.cases), controls: timed.controls)
        }
    }

    /// A case's line, as `--open-cases` and the rounds' plans name it and `--list` prints it (a control with its
    /// mark after it, `TimedCases.listLine`): its description, then `from:<module>` when a package brought its
    /// variant (scripts/bench-commits reads the mark to learn which cases are the package's own).
    static func listLine(_ benchmarkCase: BenchmarkCase) -> String {
        benchmarkCase.origin == BenchmarkCase.builtInOrigin ? benchmarkCase.description
            : "\(benchmarkCase.description) from:\(benchmarkCase.origin)"
    }

    /// `cases` in the order this process measures them: shuffled by the seed and the round when a seed is set.
    func inOrder<Element>(_ cases: [Element]) -> [Element] {
        guard let seed else { return cases }
        return CaseOrder.shuffled(cases, seed: seed, round: round ?? 1)
    }

    /// The settings the options ask for.
    var settings: MeasurementSettings {
        var settings = quick ? MeasurementSettings.quick : .standard
        if let samples { settings.samples = samples }
        if let sampleTime { settings.sampleNanoseconds = UInt64(sampleTime) * 1_000_000 }
        return settings
    }

    /// The cases `--filter` and `--threads` select; an error when there are none. What `bench worker`, `bench
    /// count` and `bench count-worker` measure; a timing run adds its controls (`timedCases`).
    ///
    /// `--threads` applies to every case: one whose benchmark fixes its thread counts runs at those of them the
    /// list names, so `--threads 1` runs no two-thread handoff.
    func selectedCases() throws -> [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)] {
        let (matching, cases) = registeredCases(matching: try pathMatcher())
        guard !cases.isEmpty else {
            guard !matching.isEmpty else {
                throw BenchError("no case matches --filter '\(filter ?? "")' (see the cases with --list)")
            }
            let fixed = Set(matching.map(\.benchmarkCase.threads)).sorted().map(String.init).joined(separator: ",")
            throw BenchError("no case matches --filter '\(filter ?? "")' at --threads \(threads): the matching cases "
                             + "run only at \(fixed) threads")
        }
        return cases
    }

    /// The registered cases (with `--hang-control`'s) whose `suite/benchmark/variant` `matches`, in registration
    /// order: all of them, and those at thread counts `--threads` names.
    func registeredCases(matching matches: (String) -> Bool)
        -> (matching: [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)],
            atThreads: [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)]) {
        let counts = threads.counts
        var registry = Registrations.registry(spinScale: spinScale)
        if hangControl { registry.addHandoffBenchmark(variant: Self.hangControlVariant) { LostWakeupHandoff() } }
        let matching = registry.cases(threads: counts, matching: matches)
        return (matching, matching.filter { counts.contains($0.benchmarkCase.threads) })
    }

    /// The variant `--hang-control` adds to `wait/handoff`: StressChecks' `LostWakeupHandoff`, whose responder waits
    /// for a signal that was sent before it waits, so that both threads sleep for good in their first round trip.
    static let hangControlVariant = "lost-wakeup"

    /// The timed cases that `--open-cases` names at `path`: those an adaptive run's round measures.
    func casesStillOpen(listedIn path: String) throws -> TimedCases {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw BenchError("cannot read the open cases (\(path)): \(error)", exitCode: ExitStatus.internalError)
        }
        let named = Set(text.split(separator: "\n").map(String.init))
        let cases = try timedCases().filter { named.contains(Self.listLine($0)) }
        guard cases.cases.count == named.count else {
            throw BenchError("\(named.count - cases.cases.count) of the open cases in \(path) are not among the "
                             + "selected ones", exitCode: ExitStatus.internalError)
        }
        return cases
    }

    /// A predicate on `suite/benchmark/variant` from `--filter`.
    func pathMatcher() throws -> @Sendable (String) -> Bool {
        guard let filter else { return { _ in true } }
        guard !filter.isEmpty else {
            throw ValidationError("--filter is empty: give a regular expression such as '^once/', or leave --filter "
                                  + "out to run every case")
        }
        let regex = try FilterPattern.regex(filter)
        return { path in
            regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
        }
    }
}

/// A failure the user can act on, reported as one line, and the status the process exits with.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32
    init(_ description: String, exitCode: Int32 = ExitStatus.badInput) {
        self.description = description
        self.exitCode = exitCode
    }
}
