import BenchCore
import Foundation

/// The outcomes CSV that `bench stress` writes, defined once: one row per (check, threads, outcome) with how many
/// times the outcome was observed and its grade. Versioned on its own (`stress_schema_version`), since its rows
/// are outcomes, not samples; the environment columns are the timing file's (`ResultsSchema.environmentColumns`).
package enum StressSchema {
    /// Bumped whenever a column is added, removed, renamed or changes meaning.
    ///
    /// - 1: the environment, `bench_version` and the outcome columns.
    /// - 2: appends `run_complete` (`ResultsSchema.runCompleteColumn`, the same rule as the timing file's).
    /// - 3: appends `variant_origin`, as in the timing file.
    /// - 4: appends `trials`, `minimum_trials`, `control_kind` and `trials_to_first_forbidden`: a check's power
    ///   against races, stated per thread count.
    /// - 5: appends `trial` and `threads_meaning`: what the check counts as a trial, and what a thread count means
    ///   to it.
    package static let version = 5

    /// What one row is made from: plain values, so that this schema does not depend on the checks.
    package struct Row: Sendable, Equatable {
        /// `family/variant/check`; a negative control's starts with `control/`.
        package var check: String
        package var isControl: Bool
        /// `built-in`, or the module that brought the checked variant.
        package var origin: String
        package var threads: Int
        /// Iterations of the check run at this thread count.
        package var iterations: Int
        package var seconds: Double
        package var outcome: String
        /// `acceptable`, `acceptable-interesting` or `forbidden`.
        package var grade: String
        package var count: Int
        /// For a control: seconds from its start to its first forbidden outcome; nil when never caught (and for
        /// variants).
        package var secondsToFirstForbidden: Double?
        /// Racing windows the check made at this thread count, over all its iterations (`StressCase`).
        package var trials: Int
        /// The trials the check must make at each thread count before a variant counts as proven by it.
        package var minimumTrials: Int
        /// A control's kind, `deterministic` or `racy`; empty for a variant.
        package var controlKind: String
        /// For a control: trials made up to and including the iteration of its first forbidden outcome; nil when
        /// never caught (and for variants).
        package var trialsToFirstForbidden: Int?
        /// What the check counts as one trial (`round trip`).
        package var trial: String
        /// What a thread count means to the check (`2 threads hand off; N - 2 more spin beside them`).
        package var threadsMeaning: String

        package init(check: String, isControl: Bool, origin: String = BenchmarkCase.builtInOrigin, threads: Int, iterations: Int,
                    seconds: Double, outcome: String, grade: String, count: Int,
                    secondsToFirstForbidden: Double? = nil, trials: Int = 0, minimumTrials: Int = 0,
                    controlKind: String = "", trialsToFirstForbidden: Int? = nil, trial: String = "",
                    threadsMeaning: String = "") {
            self.check = check
            self.isControl = isControl
            self.origin = origin
            self.threads = threads
            self.iterations = iterations
            self.seconds = seconds
            self.outcome = outcome
            self.grade = grade
            self.count = count
            self.secondsToFirstForbidden = secondsToFirstForbidden
            self.trials = trials
            self.minimumTrials = minimumTrials
            self.controlKind = controlKind
            self.trialsToFirstForbidden = trialsToFirstForbidden
            self.trial = trial
            self.threadsMeaning = threadsMeaning
        }
    }

    /// What one row's fields are made from.
    package typealias Source = (row: Row, environment: RunEnvironment)

    /// The columns, in file order: its own version, the timing file's environment and `bench_version` (as of
    /// version 1, with the types they have now), the outcome columns, `run_complete` (version 2) and
    /// `variant_origin` (version 3), the power columns (version 4).
    package static let columns: [SchemaColumn<Source>] =
        [SchemaColumn<Source>("stress_schema_version", .int, since: 1, .run) { _ in String(version) }]
        + (ResultsSchema.environmentColumns + [ResultsSchema.benchVersionColumn]).map { column in
            column.redefined { $0.introduced(at: 1) }.reading { (source: Source) in source.environment }
        }
        + outcomeColumns.map { column in column.reading { (source: Source) in source.row } }
        + [ResultsSchema.completionColumn.redefined { $0.introduced(at: 2) }
            .reading { (source: Source) in source.environment }]
        + [SchemaColumn<Source>("variant_origin", .string, since: 3, .variant) { $0.row.origin }]
        + powerColumns.map { column in column.reading { (source: Source) in source.row } }

    /// The outcome columns, after the environment and `bench_version`.
    static let outcomeColumns: [SchemaColumn<Row>] = [
        .init("check", .string, since: 1) { $0.check },
        .init("is_control", .bool, since: 1) { $0.isControl ? "true" : "false" },
        .init("threads", .int, since: 1) { String($0.threads) },
        .init("iterations", .int, since: 1) { String($0.iterations) },
        .init("seconds", .float, since: 1) { String(format: "%.3f", $0.seconds) },
        .init("outcome", .string, since: 1) { $0.outcome },
        .init("grade", .string, since: 1) { $0.grade },
        .init("count", .int, since: 1) { String($0.count) },
        .init("seconds_to_first_forbidden", .optionalFloat, since: 1) {
            $0.secondsToFirstForbidden.map { String(format: "%.3f", $0) } ?? ""
        },
    ]

    /// What a check's run proves against races (version 4): its trials beside the minimum a variant needs, and
    /// for a control, its kind and how many trials it took to be caught; what a trial is and what a thread count
    /// means to the check (version 5).
    static let powerColumns: [SchemaColumn<Row>] = [
        .init("trials", .int, since: 4) { String($0.trials) },
        .init("minimum_trials", .int, since: 4) { String($0.minimumTrials) },
        .init("control_kind", .string, since: 4) { $0.controlKind },
        .init("trials_to_first_forbidden", .optionalInt, since: 4) { $0.trialsToFirstForbidden.map(String.init) ?? "" },
        .init("trial", .string, since: 5) { $0.trial },
        .init("threads_meaning", .string, since: 5) { $0.threadsMeaning },
    ]

    /// The stress file as a reader needs it.
    package static let file = FileSchema(kind: .stress, version: version, columns: columns.map(\.definition))

    /// The header record's fields.
    package static var header: [String] { columns.map(\.name) }

    /// One row's fields, in header order.
    package static func fields(_ row: Row, environment: RunEnvironment) -> [String] {
        columns.map { $0.value((row, environment)) }
    }
}
