import BenchCore

/// The results CSV, defined once: its version and its columns, in order, each with how it is filled.
///
/// One row per kept sample (per role, for cases whose threads play roles). Changing a column's meaning,
/// removing or reordering columns means a new `version`; the Python loader refuses versions it does not know.
package enum ResultsSchema {
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
    /// - 6: appends `variant_origin`: `built-in` for DispatchBench's own variants, else the module that brought
    ///   the variant (docs/bring-your-own.md).
    /// - 7: appends `run_min_rounds`: the fewest rounds a case gets. Equal to `run_rounds` when every case gets
    ///   them all; less in an adaptive run, where each case stops between the two once the stopping rule
    ///   settles it, so that a complete file may hold fewer than `run_rounds` rounds.
    /// - 8: appends `sched_threads`, `sched_running_ns`, `sched_runqueue_ns` and `sched_switches_in`: where the
    ///   row's measured threads' time went during the sample, summed over them (`ThreadSchedule`: on a CPU,
    ///   waiting on a run queue, switched in; the rest of threads × wall time they were blocked). Empty where
    ///   the platform keeps no per-thread scheduler statistics.
    /// - 9: appends `hung`: `true` on the row (one per role) of a case abandoned because it made no progress for
    ///   the hang timeout (`bench --hang-timeout`); that row is no sample but the span it was watched making no
    ///   progress, with no operation, so `ns_per_op` is `inf` and a reader that knows nothing of `hung` reads the
    ///   case as starved, never as fast. `false` on every measured sample.
    /// - 10: appends `batch_ops` (the most operations one of the row's threads publishes at a time, for timed
    ///   pacing, so that a count of 0 in a sample shorter than a batch is told from a thread that did nothing; empty
    ///   for lockstep pacing and on a hung row), `steal_ns` and `steal_cpus` (the time the hypervisor stole during
    ///   the sample from the CPUs the row's threads were on, from `/proc/stat`, and how many CPUs that sums; empty
    ///   where the platform gives no figure).
    package static let version = 10

    /// The column every file of the family (timing, counts, stress) ends its environment with: whether the whole
    /// run completed. `ResultsWriter.completeRun()` turns its `false` into `true`.
    package static let runCompleteColumn = "run_complete"
    /// `run_complete`'s value on every row written while the run is under way.
    package static let runIncomplete = "false"
    package static let runCompleted = "true"

    /// Where a sample stands in a paired comparison (two builds alternating sample by sample): the pair's index
    /// within its case and round, identical in the two builds' files, and whether this build's sample ran first.
    package struct SamplePair: Sendable, Equatable {
        package enum Order: String, Sendable { case first, second }
        package var index: Int
        package var order: Order

        package init(index: Int, order: Order) {
            self.index = index
            self.order = order
        }
    }

    /// What one row is made from.
    package struct RowSource {
        package var environment: RunEnvironment
        package var settings: RunSettings
        package var result: CaseResult
        package var sampleIndex: Int
        /// The `sample` number of the result's first sample: 0, unless earlier samples of the case (in this
        /// round) were written from other results, as `bench worker` does.
        package var firstSampleNumber = 0
        /// The sample's place in a paired comparison; nil in an ordinary run.
        package var pair: SamplePair? = nil
        package var sample: Sample { result.samples[sampleIndex] }
    }

    /// A column of the timing file.
    package typealias Column = SchemaColumn<RowSource>

    /// What identifies a case: the case and the role of a row's threads (nil when they play none).
    package typealias CaseSource = (benchmarkCase: BenchmarkCase, role: String?)

    /// The columns, in file order, each with the version that added it.
    package static let columns: [Column] = [versionColumn.reading { $0.environment }]
        + environmentColumns.map { column in column.reading { $0.environment } }
        + caseColumns.map { column in column.reading { ($0.result.benchmarkCase, $0.result.role) } }
        + sampleColumns

    /// The columns after the case: the sample's, the run's settings and the later environment columns.
    static let sampleColumns: [Column] = [
        Column("sample", .int, since: 1) { String($0.firstSampleNumber + $0.sampleIndex) },
        Column("ops", .int, since: 1) { String($0.sample.operations) },
        Column("elapsed_ns", .int, since: 1) { String($0.sample.elapsedNanoseconds) },
        Column("ns_per_op", .floatOrInf, since: 1) { decimal($0.sample.nanosecondsPerOperation) },
        Column("ops_per_sec", .float, since: 1) { decimal($0.sample.operationsPerSecond) },
        Column("cpu_user_ns", .int, since: 1) { String($0.sample.usage.userNanoseconds) },
        Column("cpu_sys_ns", .int, since: 1) { String($0.sample.usage.systemNanoseconds) },
        Column("ctx_voluntary", .int, since: 1) { String($0.sample.usage.voluntaryContextSwitches) },
        Column("ctx_involuntary", .int, since: 1) { String($0.sample.usage.involuntaryContextSwitches) },
        // Always empty: `bench count` counts allocations, in a file of its own.
        Column("mallocs", .optionalInt, since: 1) { _ in "" },
        // Integers, read as numbers (as the analysis always has).
        Column("thread_ops_min", .optionalFloat, since: 2) { $0.sample.threadOperations.min().map(String.init) ?? "" },
        Column("thread_ops_max", .optionalFloat, since: 2) { $0.sample.threadOperations.max().map(String.init) ?? "" },
        Column("p50_ns", .optionalFloat, since: 2) { $0.sample.latency.map { String($0.p50) } ?? "" },
        Column("p90_ns", .optionalFloat, since: 2) { $0.sample.latency.map { String($0.p90) } ?? "" },
        Column("p99_ns", .optionalFloat, since: 2) { $0.sample.latency.map { String($0.p99) } ?? "" },
        Column("round", .int, since: 3) { String($0.settings.round) },
        Column("os_threads_start", .optionalInt, since: 3) { $0.sample.osThreadsAtStart.map(String.init) ?? "" },
        Column("os_threads_end", .optionalInt, since: 3) { $0.sample.osThreadsAtEnd.map(String.init) ?? "" },
        Column("run_samples", .int, since: 3, .run) { String($0.settings.measurement.samples) },
        Column("run_warmup", .int, since: 3, .run) { String($0.settings.measurement.warmupSamples) },
        Column("run_sample_ns", .int, since: 3, .run) { String($0.settings.measurement.sampleNanoseconds) },
        Column("run_quick", .bool, since: 3, .run) { String($0.settings.quick) },
        Column("run_filter", .string, since: 3, .run) { $0.settings.filter },
        Column("run_threads", .string, since: 3, .run) { $0.settings.threads },
        Column("run_rounds", .int, since: 3, .run) { String($0.settings.rounds) },
        Column("run_seed", .string, since: 3, .run) { $0.settings.seed },
        Column("load_avg_1m", .optionalFloat, since: 3, .run) {
            $0.environment.loadAverage1m.map { String(format: "%.2f", $0) } ?? ""
        },
        benchVersionColumn.reading { $0.environment },
        Column("run_spin_scale", .float, since: 4, .run) { String($0.settings.spinScale) },
        completionColumn.reading { $0.environment },
        Column("pair", .optionalInt, since: 5) { $0.pair.map { String($0.index) } ?? "" },
        Column("pair_order", .pairOrder, since: 5) { $0.pair?.order.rawValue ?? "" },
        originColumn.reading { ($0.result.benchmarkCase, $0.result.role) },
        Column("run_min_rounds", .int, since: 7, .run) { String($0.settings.minimumRounds) },
        Column("sched_threads", .optionalInt, since: 8) { $0.sample.schedule.map { String($0.threads) } ?? "" },
        Column("sched_running_ns", .optionalInt, since: 8) {
            $0.sample.schedule.map { String($0.runningNanoseconds) } ?? ""
        },
        Column("sched_runqueue_ns", .optionalInt, since: 8) {
            $0.sample.schedule.map { String($0.runQueueNanoseconds) } ?? ""
        },
        Column("sched_switches_in", .optionalInt, since: 8) { $0.sample.schedule.map { String($0.switchesIn) } ?? "" },
        Column("hung", .bool, since: 9) { String($0.result.hung) },
        Column("batch_ops", .optionalInt, since: 10) { $0.sample.batchOperations.map(String.init) ?? "" },
        Column("steal_ns", .optionalInt, since: 10) { $0.sample.stolen.map { String($0.nanoseconds) } ?? "" },
        Column("steal_cpus", .optionalInt, since: 10) { $0.sample.stolen.map { String($0.cpus) } ?? "" },
    ]

    /// `schema_version`, the first column of the family's files (timing and counts).
    package static let versionColumn = SchemaColumn<RunEnvironment>("schema_version", .int, since: 1, .run) { _ in
        String(version)
    }

    /// Where the run came from, in file order: the same columns on every row of a timing file and of a counts
    /// file (`CountsSchema`), and of a stress file (`StressSchema`). Versions are the family's (`version`).
    package static let environmentColumns: [SchemaColumn<RunEnvironment>] = [
        .init("run_id", .string, since: 1, .run) { $0.runID },
        .init("started_at", .timestamp, since: 1, .run) { $0.startedAt },
        .init("commit", .string, since: 1, .run) { $0.commit },
        // `unknown` since version 3 (git could not be read).
        .init(ColumnDefinition("dirty", types: [(1, .bool), (3, .boolOrUnknown)], scope: .run)) { $0.dirty.csvField },
        .init("host", .string, since: 1, .run) { $0.host },
        .init("os", .string, since: 1, .run) { $0.os },
        .init("kernel", .string, since: 1, .run) { $0.kernel },
        .init("cpu_model", .string, since: 1, .run) { $0.cpuModel },
        .init("logical_cpus", .int, since: 1, .run) { String($0.logicalCPUs) },
        .init("swift_version", .string, since: 1, .run) { $0.swiftVersion },
        .init("build", .string, since: 1, .run) { $0.build },
        .init("allocator", .string, since: 1, .run) { $0.allocator },
    ]

    /// The version of `bench` that wrote the file: a run column of every file of the family, after the
    /// environment (and the run's settings, in a timing file).
    package static let benchVersionColumn = SchemaColumn<RunEnvironment>("bench_version", .string, since: 3, .run) {
        $0.benchVersion
    }

    /// `run_complete` (`runCompleteColumn`): `runIncomplete` on every row as it is written, until
    /// `ResultsWriter.completeRun()` rewrites the file. Counts files take it as it is; stress files number it anew.
    package static let completionColumn = SchemaColumn<RunEnvironment>(runCompleteColumn, .bool, since: 5,
                                                                      .completion) { _ in runIncomplete }

    /// What identifies a case (and the role of a row's threads, inside `params`), in file order; shared with
    /// `CountsSchema`.
    package static let caseColumns: [SchemaColumn<CaseSource>] = [
        .init("suite", .string, since: 1, .benchmarkCase) { $0.benchmarkCase.suite },
        .init("benchmark", .string, since: 1, .benchmarkCase) { $0.benchmarkCase.benchmark },
        .init("variant", .string, since: 1, .benchmarkCase) { $0.benchmarkCase.variant },
        .init("threads", .int, since: 1, .benchmarkCase) { String($0.benchmarkCase.threads) },
        .init("params", .params, since: 1, .benchmarkCase) { $0.benchmarkCase.parameterString(role: $0.role) },
    ]

    /// Where the case's variant comes from (`BenchmarkCase.origin`): appended to the timing and counts files in
    /// version 6, after their other columns.
    package static let originColumn = SchemaColumn<CaseSource>("variant_origin", .string, since: 6, .variant) {
        $0.benchmarkCase.origin
    }

    /// The timing file as a reader needs it.
    package static let file = FileSchema(kind: .timing, version: version, columns: columns.map(\.definition))

    /// The header record's fields.
    package static var header: [String] { columns.map(\.name) }

    /// Every row of one case result, in sample order, numbered from `firstSampleNumber`; `pairs`, when given,
    /// holds each sample's place in a paired comparison (one per sample).
    package static func rows(environment: RunEnvironment, settings: RunSettings, result: CaseResult,
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
