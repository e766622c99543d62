"""The results CSV schema, defined once: columns per schema_version and their types.

Adding a schema version is one entry in ``COLUMNS_BY_VERSION``. Each column has a
type name in ``COLUMN_TYPES``; the loader knows how to parse each type.
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

COLUMNS_BY_VERSION: dict[int, tuple[str, ...]] = {
    1: _V1,
    2: _V2,
}

# Run metadata: identical on every row of one file.
RUN_COLUMNS = (
    "schema_version", "run_id", "started_at", "commit", "dirty", "host", "os", "kernel",
    "cpu_model", "logical_cpus", "swift_version", "build", "allocator",
)

# What identifies a case; its samples are the rows sharing these values.
CASE_COLUMNS = ("suite", "benchmark", "variant", "threads", "params")

# The metric every analysis is about (lower is better).
METRIC = "ns_per_op"

# Type of each column: int, float (finite), float_or_inf (finite or "inf": the metric of
# a starved sample, one in which no operation completed; the loader allows it only with
# ops = 0), opt_int / opt_float (may be empty), bool ("true"/"false"),
# timestamp (ISO 8601), params ("k=v;k=v"), str.
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
}

# Per-sample numeric columns kept beside the metric (NaN where empty or absent).
SAMPLE_NUMERIC_COLUMNS = tuple(
    c for c in _V2
    if c not in RUN_COLUMNS and c not in CASE_COLUMNS and c != "sample"
)

KNOWN_VERSIONS = tuple(sorted(COLUMNS_BY_VERSION))
