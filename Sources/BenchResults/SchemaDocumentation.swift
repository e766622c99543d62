import BenchCore

/// The CSV schemas as a Markdown page, `docs/csv-schema.md`: every column of the three files `bench` writes
/// (`ResultsSchema`, `CountsSchema`, `StressSchema`), in file order, with what it holds and the version that added
/// it. The columns and their versions come from the schemas themselves; only the words are kept here, by column
/// name, so a column added to a schema without words renders as undocumented and `SchemaDocumentationTests` fails.
/// `SchemaJSON` gives the same words to `scripts/analyze`.
///
/// `swift run bench schema > docs/csv-schema.md` regenerates the page; the test demands the committed page be
/// `markdown()` to the character.
package enum SchemaDocumentation {
    /// What a column without an entry renders as: a visible gap, never a silent omission.
    package static let undocumentedMarker = "**undocumented**"

    /// The page: a header saying how it is made, then one table per file.
    package static func markdown() -> String {
        var lines = [
            "# The CSV files",
            "",
            "<!-- Generated from ResultsSchema, CountsSchema and StressSchema (Sources/BenchResults) by",
            "     `swift run bench schema > docs/csv-schema.md`; SchemaDocumentationTests fails when this page and the",
            "     code disagree. Edit the words in Sources/BenchResults/SchemaDocumentation.swift, not here. -->",
            "",
            "Every file is RFC 4180 CSV with CRLF line ends and a header row first. A column's meaning does not change and",
            "no column is removed or reordered without a new version; new columns are appended with a version bump.",
            "`scripts/analyze` names the versions it reads and refuses others with a clear message. The loader tells",
            "the three kinds apart by their headers.",
            "",
            "## Timing file (`bench`), `schema_version` \(ResultsSchema.version)",
            "",
            "`Results/<UTC yyyymmdd-HHMMSS>-<short commit>.csv`: one row per kept sample (and per role, for cases whose",
            "threads play roles). The environment and `run_*` columns are the same on every row of a run.",
            "",
        ]
        lines += table(ResultsSchema.file)
        lines += [
            "",
            "## Counts file (`bench count`), `schema_version` \(ResultsSchema.version)",
            "",
            "`Results/counts-<UTC yyyymmdd-HHMMSS>-<short commit>.csv`: one row per counted case (always one thread).",
            "The same schema family and version number as the timing file; its environment and case columns mean what",
            "they mean there, and it has `instructions_per_op` and no `ns_per_op`.",
            "",
        ]
        lines += table(CountsSchema.file)
        lines += [
            "",
            "## Stress file (`bench stress`), `stress_schema_version` \(StressSchema.version)",
            "",
            "`Results/stress-<UTC yyyymmdd-HHMMSS>-<short commit>.csv`: one row per check, thread count and outcome.",
            "Versioned on its own; its environment columns mean what they mean in the timing file.",
            "",
        ]
        lines += table(StressSchema.file)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The columns of the three files that have no words, as `file: column`.
    package static func undocumentedColumns() -> [String] {
        FileSchema.all.flatMap { file in
            file.columns.filter { meaning(of: $0.name, in: file.kind) == nil }.map { "\(file.kind): \($0.name)" }
        }
    }

    /// What `column` of a file of `kind` holds: the file's own words for it, else the timing file's (whose
    /// environment and case columns the other files share); nil when neither has words for it.
    package static func meaning(of column: String, in kind: FileSchema.Kind) -> String? {
        let own: [String: String] = switch kind {
        case .timing: timing
        case .counts: counts
        case .stress: stress
        }
        return own[column] ?? timing[column]
    }

    /// A Markdown table of `file`'s columns, each with its words and the version that added it.
    static func table(_ file: FileSchema) -> [String] {
        table(file.columns) { meaning(of: $0, in: file.kind) }
    }

    /// A Markdown table of `columns`, each with the words `meaning` gives it.
    static func table(_ columns: [ColumnDefinition], meaning: (String) -> String?) -> [String] {
        ["| column | holds | since version |", "| --- | --- | ---: |"] + columns.map { column in
            guard let words = meaning(column.name) else {
                return "| `\(column.name)` | \(undocumentedMarker) | |"
            }
            return "| `\(column.name)` | \(words) | \(column.since) |"
        }
    }

    /// The words for the timing file's columns, and for the environment, case and `run_complete` columns the other
    /// two files share.
    static let timing: [String: String] = [
        "schema_version": "the file's schema version; the Python loader refuses versions it does not know",
        "run_id": "a UUID shared by every row of one run",
        "started_at": "when the run started, ISO 8601 UTC (`2026-11-21T23:45:01Z`)",
        "commit": "the working tree's `git rev-parse HEAD`; `BENCH_COMMIT` overrides it; `unknown` when git "
                  + "cannot be read",
        "dirty": "`true` when tracked files differ from `commit`, `false` when none does; since version 3 "
                 + "also `unknown` when git cannot be read (not a checkout, dubious ownership)",
        "host": "the host name",
        "os": "`PRETTY_NAME` of `/etc/os-release`",
        "kernel": "`uname -r`",
        "cpu_model": "the first `model name` of `/proc/cpuinfo`",
        "logical_cpus": "active logical CPUs; thread counts above it oversubscribe the machine",
        "swift_version": "the compiler's version (`swift --version`)",
        "build": "`release` or `debug`",
        "allocator": "`system` (glibc malloc) or `jemalloc` (`bench --allocator`); in a counts file "
                     + "`jemalloc`, the allocation pass's",
        "suite": "the case's suite, e.g. `once`; `--filter` matches `suite/benchmark/variant`",
        "benchmark": "the case's benchmark, e.g. `hit`",
        "variant": "the case's variant, its CSV id, e.g. `array-tracker`",
        "threads": "threads in the case",
        "params": "the case's other parameters as `key=value` joined by `;`, sorted by key, empty when none "
                  + "(`role=read;…` for role rows)",
        "sample": "index of the kept sample within its case and round, from 0",
        "ops": "operations completed in the sample by all threads (of the row's role)",
        "elapsed_ns": "the sample's measured wall time: the synchronized window, from opening it (every "
                      + "thread already running) to closing it; for a lockstep case, from releasing the threads "
                      + "until the last one finished (and any drain)",
        "ns_per_op": "`elapsed_ns / ops`; `inf` when the sample completed no operation (starved)",
        "ops_per_sec": "`ops / elapsed_ns × 10⁹`",
        "cpu_user_ns": "user CPU time the whole process used during the sample",
        "cpu_sys_ns": "system CPU time the whole process used during the sample",
        "ctx_voluntary": "voluntary context switches during the sample (blocking waits)",
        "ctx_involuntary": "involuntary context switches during the sample (preemptions)",
        "mallocs": "always empty: allocations are counted by `bench count`, in its own file "
                   + "(`allocations_per_op`)",
        "thread_ops_min": "the fewest operations one thread (of the row's role) completed",
        "thread_ops_max": "the most operations one thread (of the row's role) completed",
        "p50_ns": "median latency of the sample's recorded operations (HdrHistogram, 3 significant digits); "
                  + "empty for cases that record none",
        "p90_ns": "90th percentile latency, as `p50_ns`",
        "p99_ns": "99th percentile latency, as `p50_ns`",
        "round": "the fresh-process round the row came from, from 1 (`bench --rounds`); (case, `params`, "
                 + "`round`, `sample`) is unique in a file; the loader takes 1 for older files",
        "os_threads_start": "the process's OS threads (entries of `/proc/self/task`) when the sample "
                            + "started; empty when not counted",
        "os_threads_end": "the process's OS threads when the sample ended; empty when not counted",
        "run_samples": "the run's setting: kept samples per case and round",
        "run_warmup": "the run's setting: warm-up samples per case and round",
        "run_sample_ns": "the run's setting: least sample duration in ns",
        "run_quick": "`true` when `--quick` was given",
        "run_filter": "the `--filter` regular expression, empty when none",
        "run_threads": "the `--threads` list in the order given, e.g. `1,2,4,8`",
        "run_rounds": "rounds in the run; in an adaptive run (`bench` without `--rounds`), the most a case gets",
        "run_seed": "the seed of the shuffled case order; empty when the order was not shuffled "
                    + "(`--rounds 1` without `--seed`)",
        "load_avg_1m": "the 1-minute load average (`/proc/loadavg`) when the run started; empty when unknown",
        "bench_version": "the version of `bench` that wrote the row (`bench --version`)",
        "run_spin_scale": "the `--spin-scale` factor on `harness/spin/loop`'s work, `1.0` unless a gate's "
                          + "self-check planted a change; the loader reads 1 for older files",
        "run_complete": "`false` on every row written while the run is under way; when, and only when, the whole "
                        + "run has completed, the file is rewritten atomically with `true`: a file with any `false` is "
                        + "incomplete (killed or interrupted)",
        "pair": "empty in an ordinary run; in a paired comparison (two builds alternating sample by "
                + "sample), the pair's index within the case and round, from 0, the same in both builds' files",
        "pair_order": "empty in an ordinary run; in a paired comparison, `first` or `second`: whether this "
                      + "build's sample of the pair ran first",
        "variant_origin": "`built-in` for DispatchBench's own variants; for a variant a package brought "
                          + "(docs/bring-your-own.md), the Swift module that brought it, e.g. `MyBench`",
        "run_min_rounds": "the fewest rounds a case of the run gets: `run_rounds` when every case gets them all "
                          + "(`--rounds`, `--quick`); less in an adaptive run, where each case stops between the two "
                          + "once the stopping rule settles it (docs/running.md#adaptive-rounds); the loader reads "
                          + "`run_rounds` for older files",
        "sched_threads": "how many threads the `sched_` columns sum: the row's measured threads (those of its role); "
                         + "empty where the platform keeps no per-thread scheduler statistics (not Linux, no "
                         + "`/proc/self/task/<id>/schedstat`), as are the other three",
        "sched_running_ns": "nanoseconds those threads ran on a CPU during the sample, summed (each thread's CPU-time "
                            + "clock, read just before the sample's timed region and just after it)",
        "sched_runqueue_ns": "nanoseconds those threads were runnable but waited on a run queue for a CPU, summed "
                             + "(schedstat's run delay, counted as a thread is switched in); `sched_threads` × "
                             + "`elapsed_ns` minus this and `sched_running_ns` is the time they were blocked",
        "sched_switches_in": "times those threads were switched in during the sample, summed (schedstat's third field: "
                             + "after each sleep and each preemption)",
        "hung": "`true` on the row (one per role) of a case `bench` abandoned as hung: none of its threads completed "
                + "an operation, and the harness made no progress on it, for `--hang-timeout` seconds "
                + "(docs/running.md#hung-cases). That row is no sample: `ops` is 0 and `ns_per_op` `inf`, so a reader "
                + "that ignores this column reads the case as starved, never as fast; `elapsed_ns` is how long it was "
                + "watched making no progress, the `cpu_` and `ctx_` columns what the process did in that time (next to "
                + "no CPU when the case's threads are blocked, as in a lost wake-up), the `sched_` columns where the "
                + "case's threads' time went, the `steal_` columns what the hypervisor stole from their CPUs "
                + "meanwhile; `batch_ops` is empty. Later rounds do not measure the case again. `false` on every "
                + "measured sample",
        "batch_ops": "for a case of timed pacing, how many operations a thread of the row (those of its role) "
                     + "publishes at a time, the largest over the row's threads: its batch (the iterations it runs "
                     + "between two publications of its count, calibrated to at least \(CaseRunner.batchNanoseconds) "
                     + "ns of one thread's work alone, or 1 where the case starves a thread: docs/measuring.md) × the "
                     + "case's operations per iteration. A thread's operations in "
                     + "a sample are the change in the count it published, read as the window opens and as it closes, "
                     + "so they move by whole batches and leave out a batch still running at the close: a thread with "
                     + "0 completed no batch in the sample, which is not the same as doing nothing when a batch "
                     + "outlasts the sample. Empty for lockstep pacing (every thread's count is exact at the sample's "
                     + "end) and on a `hung` row",
        "steal_ns": "nanoseconds the hypervisor stole during the sample from the CPUs the row's threads (those of its "
                    + "role) were on, summed over those CPUs: the difference in the `steal` value (the 8th) of each "
                    + "CPU's `cpuN` line of `/proc/stat`, read just before the sample's timed region and just after it "
                    + "(on a `hung` row, at the watchdog's looks that began and ended the span). The CPUs are those "
                    + "any of the threads was last on (field 39, `processor`, of `/proc/self/task/<id>/stat`) at "
                    + "either reading. The kernel publishes steal in ticks of 1/USER_HZ s (`sysconf(_SC_CLK_TCK)`, 100 "
                    + "on Linux), converted here to ns, so a sample's figure is a multiple of 10 ms (each CPU's count "
                    + "is cut to whole ticks at both readings) and only averages right over many samples. Empty where "
                    + "the platform gives no figure (not Linux, no `/proc/stat`, a kernel whose `cpuN` lines have no "
                    + "steal field, a thread's stat unreadable), as is `steal_cpus`",
        "steal_cpus": "how many CPUs `steal_ns` sums: the distinct CPUs the row's threads were last on as the sample "
                      + "opened and as it closed (a thread that moved in between counts both; a CPU it visited only in "
                      + "between is not seen); empty when `steal_ns` is",
    ]

    /// The words for the counts file's own columns.
    static let counts: [String: String] = [
        "iterations": "iterations of the counted run",
        "operations": "operations those iterations performed",
        "instructions": "instructions callgrind counted in the counted run, collecting only around its loop",
        "instructions_per_op": "`instructions / operations`",
        "allocations": "allocations jemalloc counted in the counted run (small plus large `nmalloc`, thread "
                       + "cache off)",
        "allocations_per_op": "`allocations / operations`",
    ]

    /// The words for the stress file's own columns (and those it names as the timing file does but means
    /// otherwise: `threads`, `iterations`).
    static let stress: [String: String] = [
        "stress_schema_version": "the stress file's own schema version",
        "check": "`family/variant/check`; a negative control's starts with `control/`",
        "is_control": "`true` for a negative control (a deliberately broken variant the check must catch)",
        "threads": "threads the check ran at",
        "iterations": "iterations of the check at this thread count",
        "seconds": "seconds the check ran at this thread count",
        "outcome": "what an iteration observed, by id (`block-ran-once`, `no-progress-suspected-deadlock`, …)",
        "grade": "`acceptable`, `acceptable-interesting` or `forbidden`",
        "count": "how many times the outcome was observed",
        "seconds_to_first_forbidden": "for a control: seconds from its start to its first forbidden "
                                      + "outcome; empty when never caught, and for variants",
        "trials": "racing windows the check made at this thread count, over all its iterations (a once race's "
            + "tokens, a store's writes, a throttle's tasks, a handoff's round trips: `bench stress --list-checks`)",
        "minimum_trials": "the trials a check must make at a thread count before a variant counts as proven by it "
            + "there; a report marks a variant whose checks made fewer `not proven`",
        "control_kind": "for a control: `deterministic` (caught in its first iteration at any speed) or `racy` "
            + "(broken by a race of the kind people write, caught only as often as the check has power); empty "
            + "for variants",
        "trials_to_first_forbidden": "for a control: trials made up to the iteration of its first forbidden "
            + "outcome (a racy control caught within `minimum_trials` shows the check's power); empty when never "
            + "caught, and for variants",
        "trial": "what the check counts as one trial (`round trip`, `write`), as `--list-checks` says",
        "threads_meaning": "what a thread count N means to the check (`2 threads hand off; N - 2 more (when N > 2) "
            + "spin beside them, …`), as `--list-checks` says",
    ]
}
