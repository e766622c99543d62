/// The CSV schemas as a Markdown page, `docs/csv-schema.md`: every column of the three files `bench` writes
/// (`ResultsSchema`, `CountsSchema`, `StressSchema`), in file order, with what it holds and the version that added
/// it. The column lists come from the schemas themselves; only the words are kept here, by column name, so a
/// column added to a schema without words renders as undocumented and `SchemaDocumentationTests` fails.
///
/// `swift run bench schema > docs/csv-schema.md` regenerates the page; the test demands the committed page be
/// `markdown()` to the character.
public enum SchemaDocumentation {
    /// What one column holds and the schema version that added it.
    public struct Entry: Sendable {
        public let meaning: String
        public let since: Int

        init(_ since: Int, _ meaning: String) {
            self.meaning = meaning
            self.since = since
        }
    }

    /// What a column without an entry renders as: a visible gap, never a silent omission.
    public static let undocumentedMarker = "**undocumented**"

    /// The page: a header saying how it is made, then one table per file.
    public static func markdown() -> String {
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
        lines += table(ResultsSchema.header) { timing[$0] }
        lines += [
            "",
            "## Counts file (`bench count`), `schema_version` \(ResultsSchema.version)",
            "",
            "`Results/counts-<UTC yyyymmdd-HHMMSS>-<short commit>.csv`: one row per counted case (always one thread).",
            "The same schema family and version number as the timing file; its environment and case columns mean what",
            "they mean there, and it has `instructions_per_op` and no `ns_per_op`.",
            "",
        ]
        lines += table(CountsSchema.header) { counts[$0] ?? timing[$0].map { Entry(countsFirstVersion, $0.meaning) } }
        lines += [
            "",
            "## Stress file (`bench stress`), `stress_schema_version` \(StressSchema.version)",
            "",
            "`Results/stress-<UTC yyyymmdd-HHMMSS>-<short commit>.csv`: one row per check, thread count and outcome.",
            "Versioned on its own; its environment columns mean what they mean in the timing file.",
            "",
        ]
        lines += table(StressSchema.header) { stress[$0] ?? timing[$0].map { Entry(1, $0.meaning) } }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The columns of the three headers that have no words, as `file: column`.
    public static func undocumentedColumns() -> [String] {
        ResultsSchema.header.filter { timing[$0] == nil }.map { "timing: \($0)" }
            + CountsSchema.header.filter { counts[$0] == nil && timing[$0] == nil }.map { "counts: \($0)" }
            + StressSchema.header.filter { stress[$0] == nil && timing[$0] == nil }.map { "stress: \($0)" }
    }

    /// A Markdown table of `columns`, each with the entry `entry` gives it.
    static func table(_ columns: [String], entry: (String) -> Entry?) -> [String] {
        ["| column | holds | since version |", "| --- | --- | ---: |"] + columns.map { name in
            guard let entry = entry(name) else { return "| `\(name)` | \(undocumentedMarker) | |" }
            return "| `\(name)` | \(entry.meaning) | \(entry.since) |"
        }
    }

    /// The version that introduced the counts file.
    static let countsFirstVersion = 3

    /// The timing file's columns, and the environment and case columns the other two files share.
    static let timing: [String: Entry] = [
        "schema_version": Entry(1, "the file's schema version; the Python loader refuses versions it does not know"),
        "run_id": Entry(1, "a UUID shared by every row of one run"),
        "started_at": Entry(1, "when the run started, ISO 8601 UTC (`2026-11-21T23:45:01Z`)"),
        "commit": Entry(1, "the working tree's `git rev-parse HEAD`; `BENCH_COMMIT` overrides it; `unknown` when git "
                        + "cannot be read"),
        "dirty": Entry(1, "`true` when tracked files differ from `commit`, `false` when none does; since version 3 "
                       + "also `unknown` when git cannot be read (not a checkout, dubious ownership)"),
        "host": Entry(1, "the host name"),
        "os": Entry(1, "`PRETTY_NAME` of `/etc/os-release`"),
        "kernel": Entry(1, "`uname -r`"),
        "cpu_model": Entry(1, "the first `model name` of `/proc/cpuinfo`"),
        "logical_cpus": Entry(1, "active logical CPUs; thread counts above it oversubscribe the machine"),
        "swift_version": Entry(1, "the compiler's version (`swift --version`)"),
        "build": Entry(1, "`release` or `debug`"),
        "allocator": Entry(1, "`system` (glibc malloc) or `jemalloc` (`bench --allocator`); in a counts file "
                           + "`jemalloc`, the allocation pass's"),
        "suite": Entry(1, "the case's suite, e.g. `once`; `--filter` matches `suite/benchmark/variant`"),
        "benchmark": Entry(1, "the case's benchmark, e.g. `hit`"),
        "variant": Entry(1, "the case's variant, its CSV id, e.g. `array-tracker`"),
        "threads": Entry(1, "threads in the case"),
        "params": Entry(1, "the case's other parameters as `key=value` joined by `;`, sorted by key, empty when none "
                        + "(`role=read;…` for role rows)"),
        "sample": Entry(1, "index of the kept sample within its case and round, from 0"),
        "ops": Entry(1, "operations completed in the sample by all threads (of the row's role)"),
        "elapsed_ns": Entry(1, "the sample's measured wall time: the synchronized window, from opening it (every "
                            + "thread already running) to closing it; for a lockstep case, from releasing the threads "
                            + "until the last one finished (and any drain)"),
        "ns_per_op": Entry(1, "`elapsed_ns / ops`; `inf` when the sample completed no operation (starved)"),
        "ops_per_sec": Entry(1, "`ops / elapsed_ns × 10⁹`"),
        "cpu_user_ns": Entry(1, "user CPU time the whole process used during the sample"),
        "cpu_sys_ns": Entry(1, "system CPU time the whole process used during the sample"),
        "ctx_voluntary": Entry(1, "voluntary context switches during the sample (blocking waits)"),
        "ctx_involuntary": Entry(1, "involuntary context switches during the sample (preemptions)"),
        "mallocs": Entry(1, "always empty: allocations are counted by `bench count`, in its own file "
                         + "(`allocations_per_op`)"),
        "thread_ops_min": Entry(2, "the fewest operations one thread (of the row's role) completed"),
        "thread_ops_max": Entry(2, "the most operations one thread (of the row's role) completed"),
        "p50_ns": Entry(2, "median latency of the sample's recorded operations (HdrHistogram, 3 significant digits); "
                        + "empty for cases that record none"),
        "p90_ns": Entry(2, "90th percentile latency, as `p50_ns`"),
        "p99_ns": Entry(2, "99th percentile latency, as `p50_ns`"),
        "round": Entry(3, "the fresh-process round the row came from, from 1 (`bench --rounds`); (case, `params`, "
                       + "`round`, `sample`) is unique in a file; the loader takes 1 for older files"),
        "os_threads_start": Entry(3, "the process's OS threads (entries of `/proc/self/task`) when the sample "
                                  + "started; empty when not counted"),
        "os_threads_end": Entry(3, "the process's OS threads when the sample ended; empty when not counted"),
        "run_samples": Entry(3, "the run's setting: kept samples per case and round"),
        "run_warmup": Entry(3, "the run's setting: warm-up samples per case and round"),
        "run_sample_ns": Entry(3, "the run's setting: least sample duration in ns"),
        "run_quick": Entry(3, "`true` when `--quick` was given"),
        "run_filter": Entry(3, "the `--filter` regular expression, empty when none"),
        "run_threads": Entry(3, "the `--threads` list in the order given, e.g. `1,2,4,8`"),
        "run_rounds": Entry(3, "rounds in the run"),
        "run_seed": Entry(3, "the seed of the shuffled case order; empty when the order was not shuffled "
                          + "(`--rounds 1` without `--seed`)"),
        "load_avg_1m": Entry(3, "the 1-minute load average (`/proc/loadavg`) when the run started; empty when unknown"),
        "bench_version": Entry(3, "the version of `bench` that wrote the row (`bench --version`)"),
        "run_spin_scale": Entry(4, "the `--spin-scale` factor on `harness/spin/loop`'s work, `1.0` unless a gate's "
                                + "self-check planted a change; the loader reads 1 for older files"),
        "run_complete": Entry(5, runCompleteMeaning),
        "pair": Entry(5, "empty in an ordinary run; in a paired comparison (two builds alternating sample by "
                      + "sample), the pair's index within the case and round, from 0, the same in both builds' files"),
        "pair_order": Entry(5, "empty in an ordinary run; in a paired comparison, `first` or `second`: whether this "
                            + "build's sample of the pair ran first"),
    ]

    /// `run_complete`, the same rule in every file of the family.
    static let runCompleteMeaning = "`false` on every row written while the run is under way; when, and only when, "
        + "the whole run has completed, the file is rewritten atomically with `true`: a file with any `false` is "
        + "incomplete (killed or interrupted)"

    /// The counts file's own columns.
    static let counts: [String: Entry] = [
        "iterations": Entry(countsFirstVersion, "iterations of the counted run"),
        "operations": Entry(countsFirstVersion, "operations those iterations performed"),
        "instructions": Entry(countsFirstVersion, "instructions callgrind counted in the counted run, collecting "
                              + "only around its loop"),
        "instructions_per_op": Entry(countsFirstVersion, "`instructions / operations`"),
        "allocations": Entry(countsFirstVersion, "allocations jemalloc counted in the counted run (small plus large "
                             + "`nmalloc`, thread cache off)"),
        "allocations_per_op": Entry(countsFirstVersion, "`allocations / operations`"),
        "run_complete": Entry(5, runCompleteMeaning),
    ]

    /// The stress file's own columns.
    static let stress: [String: Entry] = [
        "stress_schema_version": Entry(1, "the stress file's own schema version"),
        "check": Entry(1, "`family/variant/check`; a negative control's starts with `control/`"),
        "is_control": Entry(1, "`true` for a negative control (a deliberately broken variant the check must catch)"),
        "threads": Entry(1, "threads the check ran at"),
        "iterations": Entry(1, "iterations of the check at this thread count"),
        "seconds": Entry(1, "seconds the check ran at this thread count"),
        "outcome": Entry(1, "what an iteration observed, by id (`block-ran-once`, `no-progress-suspected-deadlock`, …)"),
        "grade": Entry(1, "`acceptable`, `acceptable-interesting` or `forbidden`"),
        "count": Entry(1, "how many times the outcome was observed"),
        "seconds_to_first_forbidden": Entry(1, "for a control: seconds from its start to its first forbidden "
                                            + "outcome; empty when never caught, and for variants"),
        "run_complete": Entry(2, runCompleteMeaning),
    ]
}
