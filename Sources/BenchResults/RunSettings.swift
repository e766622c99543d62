import BenchCore

/// What the command line asked of a run, recorded on every row (the `run_*` columns) so that a results file
/// says how it was measured: two files taken with different settings are not comparable sample for sample.
package struct RunSettings: Sendable, Equatable {
    /// Samples kept and discarded per case, and the least duration of one.
    package var measurement: MeasurementSettings
    /// Whether `--quick` was given.
    package var quick: Bool
    /// The `--filter` regular expression; empty when none was given.
    package var filter: String
    /// The `--threads` list, comma-separated, in the order given (`1,2,4,8`).
    package var threads: String
    /// The fresh-process round these rows come from, 1-based; 1 for a single-process run.
    package var round: Int
    /// Rounds in the run; 1 for a single-process run. In an adaptive run, the most a case gets.
    package var rounds: Int
    /// In an adaptive run (`bench` without `--rounds`), the fewest rounds a case gets: each case stops between
    /// these and `rounds` once the stopping rule (`StoppingRule`) settles it. Nil when every case gets `rounds`.
    package var adaptiveMinimum: Int?
    /// The seed that shuffled the case order; empty when the order was not shuffled.
    package var seed: String
    /// The fewest rounds a case of the run gets (the `run_min_rounds` column): `rounds`, unless the run is
    /// adaptive.
    package var minimumRounds: Int { adaptiveMinimum ?? rounds }

    /// The factor `--spin-scale` applies to the work of `harness/spin` (and to nothing else); 1 by default.
    package var spinScale: Double

    package init(measurement: MeasurementSettings, quick: Bool = false, filter: String = "", threads: String,
                round: Int = 1, rounds: Int = 1, adaptiveMinimum: Int? = nil, seed: String = "",
                spinScale: Double = 1) {
        self.measurement = measurement
        self.quick = quick
        self.filter = filter
        self.threads = threads
        self.round = round
        self.rounds = rounds
        self.adaptiveMinimum = adaptiveMinimum
        self.seed = seed
        self.spinScale = spinScale
    }
}
