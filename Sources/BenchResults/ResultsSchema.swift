import BenchCore

/// The results CSV, defined once: its version and its columns, in order, each with how it is filled.
///
/// One row per kept sample (per role, for cases whose threads play roles). Changing a column's meaning,
/// removing or reordering columns means a new `version`; the Python loader refuses versions it does not know.
public enum ResultsSchema {
    /// The value of every row's `schema_version`.
    ///
    /// - 1: the columns up to `mallocs`.
    /// - 2: appends `thread_ops_min` and `thread_ops_max` (so that unfairness shows) and `p50_ns`, `p90_ns`,
    ///   `p99_ns` (latency percentiles, empty for cases that record no latency).
    /// - 3: appends `round` (which fresh-process round a row came from; it joins a sample's identity),
    ///   `os_threads_start`, `os_threads_end` (the process's OS threads around the sample, empty when not
    ///   counted), the run's settings (`run_samples`, `run_warmup`, `run_sample_ns`, `run_quick`, `run_filter`,
    ///   `run_threads`, `run_rounds`, `run_seed`), `load_avg_1m` and `bench_version`; and `dirty` may be
    ///   `unknown` (git could not be read) besides `true` and `false`.
    /// - 4: appends `run_spin_scale` (the `--spin-scale` factor on `harness/spin`'s work; 1 unless a gate's
    ///   self-check planted a change).
    /// - 5: appends `run_complete` (`false` while the run is under way; the writer rewrites the whole file with
    ///   `true` once the whole run has completed, so a killed or interrupted run leaves `false`), `pair` and
    ///   `pair_order` (empty except in a paired comparison: the pair's index within the case and round, and
    ///   whether this build's sample of the pair ran `first` or `second`).
    public static let version = 5

    /// The column every file of the family (timing, counts, stress) ends its environment with: whether the whole
    /// run completed. `ResultsWriter.completeRun()` turns its `false` into `true`.
    public static let runCompleteColumn = "run_complete"
    /// `run_complete`'s value on every row written while the run is under way.
    public static let runIncomplete = "false"
    public static let runCompleted = "true"

    /// Where a sample stands in a paired comparison (two builds alternating sample by sample): the pair's index
    /// within its case and round, identical in the two builds' files, and whether this build's sample ran first.
    public struct SamplePair: Sendable, Equatable {
        public enum Order: String, Sendable { case first, second }
        public var index: Int
        public var order: Order

        public init(index: Int, order: Order) {
            self.index = index
            self.order = order
        }
    }

    /// What one row is made from.
    public struct RowSource {
        public var environment: RunEnvironment
        public var settings: RunSettings
        public var result: CaseResult
        public var sampleIndex: Int
        /// The `sample` number of the result's first sample: 0, unless earlier samples of the case (in this
        /// round) were written from other results, as `bench worker` does.
        public var firstSampleNumber = 0
        /// The sample's place in a paired comparison; nil in an ordinary run.
        public var pair: SamplePair? = nil
        public var sample: Sample { result.samples[sampleIndex] }
    }

    /// A column: its header name and how a row fills it.
    public struct Column: Sendable {
        public let name: String
        let value: @Sendable (RowSource) -> String
    }

    /// The columns, in file order.
    public static let columns: [Column] = [Column(name: "schema_version") { _ in String(version) }]
        + environmentColumns.map { column in Column(name: column.name) { column.value($0.environment) } }
        + caseColumns.map { column in Column(name: column.name) { column.value($0.result.benchmarkCase, $0.result.role) } }
        + [
        Column(name: "sample") { String($0.firstSampleNumber + $0.sampleIndex) },
        Column(name: "ops") { String($0.sample.operations) },
        Column(name: "elapsed_ns") { String($0.sample.elapsedNanoseconds) },
        Column(name: "ns_per_op") { decimal($0.sample.nanosecondsPerOperation) },
        Column(name: "ops_per_sec") { decimal($0.sample.operationsPerSecond) },
        Column(name: "cpu_user_ns") { String($0.sample.usage.userNanoseconds) },
        Column(name: "cpu_sys_ns") { String($0.sample.usage.systemNanoseconds) },
        Column(name: "ctx_voluntary") { String($0.sample.usage.voluntaryContextSwitches) },
        Column(name: "ctx_involuntary") { String($0.sample.usage.involuntaryContextSwitches) },
        // Always empty: `bench count` counts allocations, in a file of its own.
        Column(name: "mallocs") { _ in "" },
        Column(name: "thread_ops_min") { $0.sample.threadOperations.min().map(String.init) ?? "" },
        Column(name: "thread_ops_max") { $0.sample.threadOperations.max().map(String.init) ?? "" },
        Column(name: "p50_ns") { $0.sample.latency.map { String($0.p50) } ?? "" },
        Column(name: "p90_ns") { $0.sample.latency.map { String($0.p90) } ?? "" },
        Column(name: "p99_ns") { $0.sample.latency.map { String($0.p99) } ?? "" },
        // Version 3.
        Column(name: "round") { String($0.settings.round) },
        Column(name: "os_threads_start") { $0.sample.osThreadsAtStart.map(String.init) ?? "" },
        Column(name: "os_threads_end") { $0.sample.osThreadsAtEnd.map(String.init) ?? "" },
        Column(name: "run_samples") { String($0.settings.measurement.samples) },
        Column(name: "run_warmup") { String($0.settings.measurement.warmupSamples) },
        Column(name: "run_sample_ns") { String($0.settings.measurement.sampleNanoseconds) },
        Column(name: "run_quick") { String($0.settings.quick) },
        Column(name: "run_filter") { $0.settings.filter },
        Column(name: "run_threads") { $0.settings.threads },
        Column(name: "run_rounds") { String($0.settings.rounds) },
        Column(name: "run_seed") { $0.settings.seed },
        Column(name: "load_avg_1m") { $0.environment.loadAverage1m.map { String(format: "%.2f", $0) } ?? "" },
        Column(name: "bench_version") { $0.environment.benchVersion },
        // Version 4.
        Column(name: "run_spin_scale") { String($0.settings.spinScale) },
        // Version 5.
        Column(name: runCompleteColumn) { _ in runIncomplete },
        Column(name: "pair") { $0.pair.map { String($0.index) } ?? "" },
        Column(name: "pair_order") { $0.pair?.order.rawValue ?? "" },
    ]

    /// Where the run came from, in file order: the same columns on every row of a timing file and of a counts
    /// file (`CountsSchema`).
    public static let environmentColumns: [(name: String, value: @Sendable (RunEnvironment) -> String)] = [
        ("run_id", { $0.runID }),
        ("started_at", { $0.startedAt }),
        ("commit", { $0.commit }),
        ("dirty", { $0.dirty.csvField }),
        ("host", { $0.host }),
        ("os", { $0.os }),
        ("kernel", { $0.kernel }),
        ("cpu_model", { $0.cpuModel }),
        ("logical_cpus", { String($0.logicalCPUs) }),
        ("swift_version", { $0.swiftVersion }),
        ("build", { $0.build }),
        ("allocator", { $0.allocator }),
    ]

    /// What identifies a case (and the role of a row's threads, inside `params`), in file order; shared with
    /// `CountsSchema`.
    public static let caseColumns: [(name: String, value: @Sendable (BenchmarkCase, _ role: String?) -> String)] = [
        ("suite", { benchmarkCase, _ in benchmarkCase.suite }),
        ("benchmark", { benchmarkCase, _ in benchmarkCase.benchmark }),
        ("variant", { benchmarkCase, _ in benchmarkCase.variant }),
        ("threads", { benchmarkCase, _ in String(benchmarkCase.threads) }),
        ("params", { benchmarkCase, role in benchmarkCase.parameterString(role: role) }),
    ]

    /// The header record's fields.
    public static var header: [String] { columns.map(\.name) }

    /// Every row of one case result, in sample order, numbered from `firstSampleNumber`; `pairs`, when given,
    /// holds each sample's place in a paired comparison (one per sample).
    public static func rows(environment: RunEnvironment, settings: RunSettings, result: CaseResult,
                            firstSampleNumber: Int = 0, pairs: [SamplePair]? = nil) -> [[String]] {
        precondition(pairs == nil || pairs?.count == result.samples.count, "one pair per sample")
        return result.samples.indices.map { index in
            let source = RowSource(environment: environment, settings: settings, result: result, sampleIndex: index,
                                   firstSampleNumber: firstSampleNumber, pair: pairs?[index])
            return columns.map { $0.value(source) }
        }
    }

    /// A number with enough digits for sub-nanosecond costs and no exponent notation; `inf` for the cost of
    /// an operation in a sample that completed none (a starved role).
    static func decimal(_ value: Double) -> String {
        if value == .infinity { return "inf" }
        guard value.isFinite else { return "" }
        return String(format: "%.4f", value)
    }
}
