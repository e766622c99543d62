"""The results CSV schema, defined once: columns per schema_version and their types.

This mirrors Swift's ``ResultsSchema`` (the source; the agreed spec of each version is
written down before either side implements it). Adding a schema version is one entry in
``COLUMNS_BY_VERSION``. Each column has a type name in ``COLUMN_TYPES`` (changed per
version in ``TYPE_CHANGES``; ask ``column_type``); the loader knows how to parse each type.

Two kinds of file share the schema family: *timing* files (``bench``: one row per sample,
``COLUMNS_BY_VERSION``) and *counts* files (``bench count``: one row per case,
``COUNTS_COLUMNS_BY_VERSION``). *Stress* files (``bench stress``: one row per check, thread
count and outcome, ``STRESS_COLUMNS_BY_VERSION``) have a version of their own,
``stress_schema_version`` (Swift's ``StressSchema``). A file's header tells the kinds apart
(``file_kind``).
"""

from __future__ import annotations

# Columns of schema version 1, in file order.
_V1 = (
    "schema_version", "run_id", "started_at", "commit", "dirty", "host", "os", "kernel",
    "cpu_model", "logical_cpus", "swift_version", "build", "allocator",
    "suite", "benchmark", "variant", "threads", "params",
    "sample", "ops", "elapsed_ns", "ns_per_op", "ops_per_sec",
    "cpu_user_ns", "cpu_sys_ns", "ctx_voluntary", "ctx_involuntary", "mallocs",
)

# Version 2 appends per-thread fairness and latency percentiles.
_V2 = _V1 + ("thread_ops_min", "thread_ops_max", "p50_ns", "p90_ns", "p99_ns")

# Version 3 appends the sample's round and the process's OS thread counts, then the
# run's settings (what bench was asked to do), the load when it started and bench's version.
_V3 = _V2 + (
    "round", "os_threads_start", "os_threads_end",
    "run_samples", "run_warmup", "run_sample_ns", "run_quick", "run_filter", "run_threads",
    "run_rounds", "run_seed", "load_avg_1m", "bench_version",
)

# Version 4 appends the --spin-scale factor (harness/spin's work; 1 unless planted).
_V4 = _V3 + ("run_spin_scale",)

# Version 5 appends whether the whole run completed (``false`` on every row until bench
# rewrites the file at the run's end: a killed or interrupted run leaves ``false``), and
# a sample's place in a paired comparison (empty in an ordinary run): the pair's index
# within its case and round, and whether this build's sample ran ``first`` or ``second``.
RUN_COMPLETE = "run_complete"
# The pair's index within its case and round in a paired comparison (judge/paired.py).
PAIR_COLUMN = "pair"
_V5 = _V4 + (RUN_COMPLETE, PAIR_COLUMN, "pair_order")

COLUMNS_BY_VERSION: dict[int, tuple[str, ...]] = {
    1: _V1,
    2: _V2,
    3: _V3,
    4: _V4,
    5: _V5,
}

LATEST_VERSION = max(COLUMNS_BY_VERSION)

# Run metadata: identical on every row of one file (a file has those of its version).
RUN_COLUMNS = (
    "schema_version", "run_id", "started_at", "commit", "dirty", "host", "os", "kernel",
    "cpu_model", "logical_cpus", "swift_version", "build", "allocator",
    "run_samples", "run_warmup", "run_sample_ns", "run_quick", "run_filter", "run_threads",
    "run_rounds", "run_seed", "load_avg_1m", "bench_version", "run_spin_scale",
)

# The run settings (bench's options) that make two runs measure the same way; a
# comparison warns when they differ. Not run_seed: the shuffle seed differs by design.
RUN_SETTING_COLUMNS = (
    "run_samples", "run_warmup", "run_sample_ns", "run_quick", "run_filter", "run_threads",
    "run_rounds", "run_spin_scale",
)

# Run settings added after the others, with the one value every earlier file was measured
# with: the loader fills them in for files of version RUN_SETTINGS_SINCE_VERSION and later.
RUN_SETTING_DEFAULTS = {"run_spin_scale": 1.0}

# What identifies a case; its samples are the rows sharing these values.
CASE_COLUMNS = ("suite", "benchmark", "variant", "threads", "params")

# What identifies a sample within its case: (round, sample) is unique per case in a file
# (the role is part of params). Files before version 3 have no round: it is 1 there.
SAMPLE_ID_COLUMNS = ("round", "sample")
DEFAULT_ROUND = 1

# The metric every analysis of a timing file is about (lower is better).
METRIC = "ns_per_op"

# Counts files (`bench count`): per case, one counted run at one thread. Instructions are
# valgrind callgrind's (collection on only around the loop), allocations jemalloc's (small +
# large nmalloc, thread cache off); nothing is subtracted from any row.
COUNTS_MEASURE_COLUMNS = (
    "iterations", "operations", "instructions", "instructions_per_op", "allocations", "allocations_per_op",
)
_COUNTS_V3 = (
    "schema_version", "run_id", "started_at", "commit", "dirty", "host", "os", "kernel",
    "cpu_model", "logical_cpus", "swift_version", "build", "allocator", "bench_version",
) + CASE_COLUMNS + COUNTS_MEASURE_COLUMNS

# Counts files share the timing file's version number (one schema family): version 4 changed only timing
# columns, so its counts columns are version 3's; version 5 appends run_complete.
COUNTS_COLUMNS_BY_VERSION: dict[int, tuple[str, ...]] = {
    3: _COUNTS_V3,
    4: _COUNTS_V3,
    5: _COUNTS_V3 + (RUN_COMPLETE,),
}

KNOWN_COUNTS_VERSIONS = tuple(sorted(COUNTS_COLUMNS_BY_VERSION))

# The per-operation counts a counts file is about (lower is better), each the quotient of
# a count column by ``operations``.
COUNTS_PER_OP = {"instructions_per_op": "instructions", "allocations_per_op": "allocations"}

# Stress files (`bench stress`): one row per (check, threads, outcome), versioned on their own
# (Swift's ``StressSchema``): the version column, the timing file's environment columns and
# bench_version, then the outcome columns.
STRESS_VERSION_COLUMN = "stress_schema_version"
STRESS_OUTCOME_COLUMNS = (
    "check", "is_control", "threads", "iterations", "seconds", "outcome", "grade", "count",
    "seconds_to_first_forbidden",
)
_STRESS_V1 = (
    STRESS_VERSION_COLUMN, "run_id", "started_at", "commit", "dirty", "host", "os", "kernel",
    "cpu_model", "logical_cpus", "swift_version", "build", "allocator", "bench_version",
) + STRESS_OUTCOME_COLUMNS

# Stress version 2 appends run_complete (the timing file's rule).
STRESS_COLUMNS_BY_VERSION: dict[int, tuple[str, ...]] = {
    1: _STRESS_V1,
    2: _STRESS_V1 + (RUN_COMPLETE,),
}

KNOWN_STRESS_VERSIONS = tuple(sorted(STRESS_COLUMNS_BY_VERSION))

# The grades of an outcome, as jcstress grades them; a variant with a forbidden outcome fails.
ACCEPTABLE = "acceptable"
ACCEPTABLE_INTERESTING = "acceptable-interesting"
FORBIDDEN = "forbidden"
STRESS_GRADES = (ACCEPTABLE, ACCEPTABLE_INTERESTING, FORBIDDEN)
# A negative control's check name starts with this.
CONTROL_PREFIX = "control/"
# The outcome bench stress writes for a check its watchdog abandoned (graded forbidden).
STALLED_OUTCOME = "no-progress-suspected-deadlock"

# The kinds of results file and what tells them apart: a counts file has
# ``instructions_per_op`` and no METRIC; a stress file's first column is its own version.
TIMING = "timing"
COUNTS = "counts"
STRESS = "stress"
COUNTS_MARKER = "instructions_per_op"


def file_kind(header) -> str:
    """TIMING, COUNTS or STRESS, from a file's header: a stress file's first field is
    ``stress_schema_version``; a counts file has ``instructions_per_op`` and no
    ``ns_per_op``. Anything else is taken for a timing file (whose header check then names
    what is missing)."""
    names = list(header)
    if names and names[0] == STRESS_VERSION_COLUMN:
        return STRESS
    return COUNTS if COUNTS_MARKER in names and METRIC not in names else TIMING

# Type of each column: int, float (finite), float_or_inf (finite or "inf": the metric of
# a starved sample, one in which no operation completed; the loader allows it only with
# ops = 0), opt_int / opt_float (may be empty), bool ("true"/"false"), bool_or_unknown
# ("true"/"false"/"unknown": True/False/None), timestamp (ISO 8601), params ("k=v;k=v"),
# pair_order ("", "first" or "second": None, "first", "second"), str.
COLUMN_TYPES: dict[str, str] = {
    "schema_version": "int",
    "run_id": "str",
    "started_at": "timestamp",
    "commit": "str",
    "dirty": "bool",
    "host": "str",
    "os": "str",
    "kernel": "str",
    "cpu_model": "str",
    "logical_cpus": "int",
    "swift_version": "str",
    "build": "str",
    "allocator": "str",
    "suite": "str",
    "benchmark": "str",
    "variant": "str",
    "threads": "int",
    "params": "params",
    "sample": "int",
    "ops": "int",
    "elapsed_ns": "int",
    "ns_per_op": "float_or_inf",
    "ops_per_sec": "float",
    "cpu_user_ns": "int",
    "cpu_sys_ns": "int",
    "ctx_voluntary": "int",
    "ctx_involuntary": "int",
    "mallocs": "opt_int",
    "thread_ops_min": "opt_float",
    "thread_ops_max": "opt_float",
    "p50_ns": "opt_float",
    "p90_ns": "opt_float",
    "p99_ns": "opt_float",
    "round": "int",
    "os_threads_start": "opt_int",
    "os_threads_end": "opt_int",
    "run_samples": "int",
    "run_warmup": "int",
    "run_sample_ns": "int",
    "run_quick": "bool",
    "run_filter": "str",
    "run_threads": "str",
    "run_rounds": "int",
    "run_seed": "str",
    "load_avg_1m": "opt_float",
    "bench_version": "str",
    "run_spin_scale": "float",
    RUN_COMPLETE: "bool",
    "pair": "opt_int",
    "pair_order": "pair_order",
}

# pair_order's values: this build's sample of the pair ran first or second.
PAIR_ORDERS = ("first", "second")

# Types of the columns only counts files have (the others are in COLUMN_TYPES).
COUNTS_COLUMN_TYPES: dict[str, str] = {
    "iterations": "int",
    "operations": "int",
    "instructions": "int",
    "instructions_per_op": "float",
    "allocations": "int",
    "allocations_per_op": "float",
}

# Types of the columns only stress files have, and of those whose type differs there: the
# environment columns are written as in timing files of version 3 (dirty may be "unknown").
# seconds_to_first_forbidden is empty for a variant and for a control never caught.
STRESS_COLUMN_TYPES: dict[str, str] = {
    STRESS_VERSION_COLUMN: "int",
    "dirty": "bool_or_unknown",
    "check": "str",
    "is_control": "bool",
    "iterations": "int",
    "seconds": "float",
    "outcome": "str",
    "grade": "str",
    "count": "int",
    "seconds_to_first_forbidden": "opt_float",
}

# Columns whose type changes with a version: from that version on, the new type.
# Version 3: dirty may be "unknown" (git could not be read).
TYPE_CHANGES: dict[int, dict[str, str]] = {
    3: {"dirty": "bool_or_unknown"},
}


def column_type(column: str, version: int) -> str:
    """The type name of ``column`` in a file (timing or counts) of schema ``version``."""
    kind = COLUMN_TYPES[column] if column in COLUMN_TYPES else COUNTS_COLUMN_TYPES[column]
    for since in sorted(TYPE_CHANGES):
        if since <= version:
            kind = TYPE_CHANGES[since].get(column, kind)
    return kind


# The first version that records the run settings (those without a default).
RUN_SETTINGS_SINCE_VERSION = min(
    v for v, columns in COLUMNS_BY_VERSION.items()
    if set(RUN_SETTING_COLUMNS) - set(RUN_SETTING_DEFAULTS) <= set(columns))


def run_columns(version: int) -> tuple[str, ...]:
    """The run-level columns a timing file of schema ``version`` has."""
    return tuple(c for c in RUN_COLUMNS if c in COLUMNS_BY_VERSION[version])


def counts_run_columns(version: int) -> tuple[str, ...]:
    """The run-level columns a counts file of schema ``version`` has (no run settings:
    ``bench count`` has none of ``bench``'s sampling options)."""
    return tuple(c for c in RUN_COLUMNS if c in COUNTS_COLUMNS_BY_VERSION[version])


def stress_column_type(column: str, version: int) -> str:
    """The type name of ``column`` in a stress file of ``stress_schema_version`` ``version``
    (the types have not changed between versions yet)."""
    return STRESS_COLUMN_TYPES.get(column) or COLUMN_TYPES[column]


def stress_run_columns(version: int) -> tuple[str, ...]:
    """The run-level columns of a stress file of ``stress_schema_version`` ``version``: its
    version, the environment and bench_version (no run settings)."""
    return (STRESS_VERSION_COLUMN,) + tuple(c for c in RUN_COLUMNS if c in STRESS_COLUMNS_BY_VERSION[version])


# Per-sample numeric columns kept beside the metric (NaN where empty or absent).
SAMPLE_NUMERIC_COLUMNS = tuple(
    c for c in COLUMNS_BY_VERSION[LATEST_VERSION]
    if c not in RUN_COLUMNS and c not in CASE_COLUMNS and c not in SAMPLE_ID_COLUMNS
    and COLUMN_TYPES[c] in ("int", "float", "float_or_inf", "opt_int", "opt_float")
)

KNOWN_VERSIONS = tuple(sorted(COLUMNS_BY_VERSION))
