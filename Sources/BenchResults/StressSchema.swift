import Foundation

/// The outcomes CSV that `bench stress` writes, defined once: one row per (check, threads, outcome) with how many
/// times the outcome was observed and its grade. Versioned on its own (`stress_schema_version`), since its rows
/// are outcomes, not samples; the environment columns are the timing file's (`ResultsSchema.environmentColumns`).
public enum StressSchema {
    /// Bumped whenever a column is added, removed, renamed or changes meaning.
    ///
    /// - 1: the environment, `bench_version` and the outcome columns.
    /// - 2: appends `run_complete` (`ResultsSchema.runCompleteColumn`, the same rule as the timing file's).
    public static let version = 2

    /// What one row is made from: plain values, so that this schema does not depend on the checks.
    public struct Row: Sendable, Equatable {
        /// `family/variant/check`; a negative control's starts with `control/`.
        public var check: String
        public var isControl: Bool
        public var threads: Int
        /// Iterations of the check run at this thread count.
        public var iterations: Int
        public var seconds: Double
        public var outcome: String
        /// `acceptable`, `acceptable-interesting` or `forbidden`.
        public var grade: String
        public var count: Int
        /// For a control: seconds from its start to its first forbidden outcome; nil when never caught (and for
        /// variants).
        public var secondsToFirstForbidden: Double?

        public init(check: String, isControl: Bool, threads: Int, iterations: Int, seconds: Double, outcome: String,
                    grade: String, count: Int, secondsToFirstForbidden: Double? = nil) {
            self.check = check
            self.isControl = isControl
            self.threads = threads
            self.iterations = iterations
            self.seconds = seconds
            self.outcome = outcome
            self.grade = grade
            self.count = count
            self.secondsToFirstForbidden = secondsToFirstForbidden
        }
    }

    /// The outcome columns, after the environment and `bench_version`.
    static let outcomeColumns: [(name: String, value: @Sendable (Row) -> String)] = [
        ("check", { $0.check }),
        ("is_control", { $0.isControl ? "true" : "false" }),
        ("threads", { String($0.threads) }),
        ("iterations", { String($0.iterations) }),
        ("seconds", { String(format: "%.3f", $0.seconds) }),
        ("outcome", { $0.outcome }),
        ("grade", { $0.grade }),
        ("count", { String($0.count) }),
        ("seconds_to_first_forbidden", { $0.secondsToFirstForbidden.map { String(format: "%.3f", $0) } ?? "" }),
    ]

    /// The header record's fields.
    public static var header: [String] {
        ["stress_schema_version"] + ResultsSchema.environmentColumns.map(\.name) + ["bench_version"]
            + outcomeColumns.map(\.name) + [ResultsSchema.runCompleteColumn]
    }

    /// One row's fields, in header order.
    public static func fields(_ row: Row, environment: RunEnvironment) -> [String] {
        [String(version)] + ResultsSchema.environmentColumns.map { $0.value(environment) } + [environment.benchVersion]
            + outcomeColumns.map { $0.value(row) } + [ResultsSchema.runIncomplete]
    }
}
