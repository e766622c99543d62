import BenchCore
import BenchSuites

/// The cases a timing run measures: those `--filter` and `--threads` select, and the run's controls among them.
///
/// The controls are the CPU-bound harness cases (`BenchmarkRegistry.cpuBoundHarnessPaths`) at the run's thread
/// counts that the filter leaves out, added so that every timing file holds them: the analysis reads from them
/// whether the machine was busy and how often a thread that cannot starve looked starved on it
/// (docs/running.md#what-a-run-does). They are cases like any other: rows of suite `harness`, in the registration
/// order, shuffled with the rest and stopped by the same rule.
struct TimedCases {
    /// Every case to measure, in registration order.
    let cases: [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)]
    /// The cases of `cases` that the run added as controls: none that the filter selects.
    let controls: Set<BenchmarkCase>

    /// How many cases the filter selected, and how many controls were added: `50 cases + 8 controls`, or
    /// `50 cases` when none were.
    var countText: String {
        let selected = plural(cases.count - controls.count, "case")
        return controls.isEmpty ? selected : "\(selected) + \(plural(controls.count, "control"))"
    }

    /// A case as `--list` prints it: `Bench.listLine`, and `(control)` after a control.
    func listLine(_ benchmarkCase: BenchmarkCase) -> String {
        Bench.listLine(benchmarkCase) + (controls.contains(benchmarkCase) ? " \(Self.controlMark)" : "")
    }

    /// What follows a control's line in `--list` (scripts/bench_commits/brought_in.py reads it) and in the progress.
    static let controlMark = "(control)"

    /// These cases less those `keep` rejects, the controls among them still marked.
    func filter(_ keep: (BenchmarkCase) -> Bool) -> TimedCases {
        TimedCases(cases: cases.filter { keep($0.benchmarkCase) }, controls: controls.filter(keep))
    }
}

extension Bench {
    /// The cases this timing run measures: `selectedCases()`, and, unless `--no-controls` is given, the CPU-bound
    /// harness cases at the `--threads` counts that the filter leaves out, as controls. Only the plain timing run
    /// (and its rounds, which select again from the same command line) adds them: `bench worker`, `bench count`,
    /// `bench stress` and `bench self-check` measure what they are asked for.
    func timedCases() throws -> TimedCases {
        let selected = try selectedCases()
        guard !noControls else { return TimedCases(cases: selected, controls: []) }
        let matches = try pathMatcher()
        let cases = registeredCases { matches($0) || BenchmarkRegistry.cpuBoundHarnessPaths.contains($0) }.atThreads
        return TimedCases(cases: cases, controls: Set(cases.map(\.benchmarkCase).filter { !matches($0.path) }))
    }
}
