"""The results CSV schema: columns per version, their types and scopes, read from Swift.

Every column list, version and column type here comes from ``results-schema.json`` beside this
module, which Swift generates from ``ResultsSchema``, ``CountsSchema`` and ``StressSchema``
(Sources/BenchResults) with ``REGENERATE``; a Swift test fails when the committed file differs
from what Swift writes. To change the schema, change the Swift, run ``REGENERATE`` and commit
the JSON (and docs/csv-schema.md): this module follows. What stays written here are the
analysis's own choices (the metric, which run settings make two runs comparable, what
identifies a sample, how the file kinds are told apart) and the values of a few columns.

Three kinds of file: *timing* files (``bench``: one row per sample, ``COLUMNS_BY_VERSION``) and
*counts* files (``bench count``: one row per case, ``COUNTS_COLUMNS_BY_VERSION``) share one
version number, ``schema_version``; *stress* files (``bench stress``: one row per check,
thread count and outcome, ``STRESS_COLUMNS_BY_VERSION``) have their own,
``stress_schema_version``. A file's header tells the kinds apart (``file_kind``).

Each column has a type name (``column_type``, ``stress_column_type``), which may change with a
version, and a scope: ``run`` (what the run was and how it was asked to measure: the same on
every row of a file), ``case`` (identifies the case), ``row``, or ``completion``
(``run_complete``, see ``RUN_COMPLETE``). The type names the loader parses: int, float (finite),
float_or_inf (finite or "inf": the metric of a starved sample, one in which no operation
completed; the loader allows it only with ops = 0), opt_int / opt_float (may be empty), bool
("true"/"false"), bool_or_unknown ("true"/"false"/"unknown": True/False/None), timestamp (ISO
8601), params ("k=v;k=v"), pair_order ("", "first" or "second": None, "first", "second"), str.
"""

from __future__ import annotations

import json
from typing import Any, Iterable
from dataclasses import dataclass
from pathlib import Path

# The JSON Swift generates, and the command (from the repository's root) that regenerates it.
SCHEMA_PATH = Path(__file__).resolve().with_name("results-schema.json")
REGENERATE = "swift run bench schema --format json > scripts/analyze_lib/files/results-schema.json"

# The kinds of results file (the JSON's names for them).
TIMING = "timing"
COUNTS = "counts"
STRESS = "stress"

# The scopes of a column (Swift's ColumnScope).
RUN_SCOPE = "run"
CASE_SCOPE = "case"
VARIANT_SCOPE = "variant"
COMPLETION_SCOPE = "completion"


@dataclass(frozen=True)
class FileSchema:
    """One kind of file as the JSON states it: the column holding its version, each version's
    columns in file order, and each column's types (``(since, type)``, oldest first), scope
    and meaning."""

    kind: str
    version_column: str
    columns_by_version: dict[int, tuple[str, ...]]
    types: dict[str, tuple[tuple[int, str], ...]]
    scopes: dict[str, str]
    meanings: dict[str, str]

    @property
    def latest_version(self) -> int:
        return max(self.columns_by_version)

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns of the newest version, in file order."""
        return self.columns_by_version[self.latest_version]

    def column_type(self, column: str, version: int) -> str:
        """The type name of ``column`` in a file of ``version`` (KeyError for a column the file
        does not have)."""
        kinds = [kind for since, kind in self.types[column] if since <= version]
        if not kinds:
            raise KeyError(f"{self.kind} files of version {version} have no column {column}")
        return kinds[-1]

    def scoped(self, scope: str, version: int | None = None) -> tuple[str, ...]:
        """The columns of ``scope`` in ``version`` (the newest when None), in file order."""
        columns = self.columns_by_version[self.latest_version if version is None else version]
        return tuple(c for c in columns if self.scopes[c] == scope)


def _file_schema(kind: str, entry: dict[str, Any]) -> FileSchema:
    columns = entry["columns"]
    by_version = {int(v["version"]): tuple(v["columns"]) for v in entry["versions"]}
    schema = FileSchema(
        kind=kind,
        version_column=entry["version_column"],
        columns_by_version=by_version,
        types={c["name"]: tuple(sorted((int(since), kind) for since, kind in c["types"].items()))
               for c in columns},
        scopes={c["name"]: c["scope"] for c in columns},
        meanings={c["name"]: c["meaning"] for c in columns if "meaning" in c},
    )
    if schema.columns != tuple(c["name"] for c in columns):
        raise ValueError(f"{kind}: the newest version's columns are not the columns listed")
    if any(names[0] != schema.version_column for names in by_version.values()):
        raise ValueError(f"{kind}: a version whose first column is not {schema.version_column}")
    return schema


def load_schemas(path: Path = SCHEMA_PATH) -> dict[str, FileSchema]:
    """Every file kind's schema, read from ``path``; a missing or malformed file raises
    RuntimeError naming the command that regenerates it."""
    try:
        files = json.loads(path.read_text(encoding="utf-8"))["files"]
        return {kind: _file_schema(kind, files[kind]) for kind in (TIMING, COUNTS, STRESS)}
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise RuntimeError(f"{path}: cannot read the results schema ({error!r}); regenerate it from the "
                           f"repository's root with `{REGENERATE}`") from None


SCHEMAS = load_schemas()
_TIMING, _COUNTS, _STRESS = SCHEMAS[TIMING], SCHEMAS[COUNTS], SCHEMAS[STRESS]

# Timing files (`bench`): one row per kept sample (per role), by schema_version.
COLUMNS_BY_VERSION: dict[int, tuple[str, ...]] = _TIMING.columns_by_version
LATEST_VERSION = _TIMING.latest_version
KNOWN_VERSIONS = tuple(sorted(COLUMNS_BY_VERSION))

# Run metadata: identical on every row of one file (a file has those of its version).
RUN_COLUMNS = _TIMING.scoped(RUN_SCOPE)

# What identifies a case; its samples are the rows sharing these values.
CASE_COLUMNS = _TIMING.scoped(CASE_SCOPE)

# What describes a case's variant without identifying the case (``variant_origin``: ``built-in``,
# or the Swift module that brought the variant); the same on every row of one case.
VARIANT_COLUMNS = _TIMING.scoped(VARIANT_SCOPE)
[ORIGIN_COLUMN] = VARIANT_COLUMNS
BUILT_IN_ORIGIN = "built-in"

# Whether the run completed: ``false`` on every row until bench rewrites the file at the run's
# end (a killed or interrupted run leaves ``false``); the loader warns, not refuses, on a false.
[RUN_COMPLETE] = _TIMING.scoped(COMPLETION_SCOPE)

# Types of the timing file's columns, as its newest version has them (``column_type`` for a
# given version).
COLUMN_TYPES: dict[str, str] = {c: _TIMING.column_type(c, LATEST_VERSION) for c in _TIMING.columns}

# The pair's index within its case and round in a paired comparison (judge/paired.py), and
# pair_order's values: this build's sample of the pair ran first or second.
PAIR_COLUMN = "pair"
PAIR_ORDERS = ("first", "second")

# The run settings (bench's options) that make two runs measure the same way; a
# comparison warns when they differ. Not run_seed: the shuffle seed differs by design.
RUN_SETTING_COLUMNS = (
    "run_samples", "run_warmup", "run_sample_ns", "run_quick", "run_filter", "run_threads",
    "run_rounds", "run_spin_scale", "run_min_rounds",
)

# Run settings added after the others, with the one value every earlier file was measured
# with: the loader fills them in for files of version RUN_SETTINGS_SINCE_VERSION and later.
RUN_SETTING_DEFAULTS = {"run_spin_scale": 1.0}
# Run settings added after the others whose value in every earlier file is another column's: the
# loader fills them in from it. run_min_rounds (version 7): before adaptive runs every case got
# every round, run_rounds of them.
RUN_SETTING_FROM = {"run_min_rounds": "run_rounds"}

# What identifies a sample within its case: (round, sample) is unique per case in a file
# (the role is part of params). Files before version 3 have no round: it is 1 there.
SAMPLE_ID_COLUMNS = ("round", "sample")
DEFAULT_ROUND = 1

# The metric every analysis of a timing file is about (lower is better).
METRIC = "ns_per_op"

# Counts files (`bench count`): per case, one counted run at one thread, by the timing file's
# schema_version (one schema family). Instructions are valgrind callgrind's (collection on only
# around the loop), allocations jemalloc's (small + large nmalloc, thread cache off); nothing is
# subtracted from any row.
COUNTS_COLUMNS_BY_VERSION: dict[int, tuple[str, ...]] = _COUNTS.columns_by_version
KNOWN_COUNTS_VERSIONS = tuple(sorted(COUNTS_COLUMNS_BY_VERSION))

# The per-operation counts a counts file is about (lower is better), each the quotient of
# a count column by ``operations``.
COUNTS_PER_OP = {"instructions_per_op": "instructions", "allocations_per_op": "allocations"}

# Stress files (`bench stress`): one row per (check, threads, outcome), versioned on their own.
STRESS_VERSION_COLUMN = _STRESS.version_column
STRESS_COLUMNS_BY_VERSION: dict[int, tuple[str, ...]] = _STRESS.columns_by_version
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
# The outcome it writes for a check's iterations that took longer than --watchdog while its threads still advanced
# (graded acceptable-interesting: slow, not stuck; its count is how many iterations were).
SLOW_OUTCOME = "iteration-slower-than-watchdog"
# A control's ``control_kind`` (version 4): caught in its first iteration at any speed, or broken by a race and
# caught only as often as its check has power. Empty for a variant.
DETERMINISTIC = "deterministic"
RACY = "racy"
CONTROL_KINDS = (DETERMINISTIC, RACY)
# Version 4's trial counts: the racing windows a check made at a thread count, the minimum that proves a variant
# there, and a control's trials up to its first forbidden outcome.
TRIALS = "trials"
MINIMUM_TRIALS = "minimum_trials"
CONTROL_KIND = "control_kind"
TRIALS_TO_FIRST_FORBIDDEN = "trials_to_first_forbidden"
# Version 5: what a check counts as one trial, and what a thread count means to it (as `--list-checks` says).
TRIAL = "trial"
THREADS_MEANING = "threads_meaning"

# What tells a counts file from a timing file: it has ``instructions_per_op`` and no METRIC.
COUNTS_MARKER = "instructions_per_op"

# The columns this module names must be the schema's (the run settings among its run columns):
# a column renamed or dropped in Swift fails here, at import, not in the middle of an analysis.
_NAMED = {TIMING: (METRIC, PAIR_COLUMN, *RUN_SETTING_DEFAULTS, *RUN_SETTING_FROM, *RUN_SETTING_FROM.values(),
                   *SAMPLE_ID_COLUMNS),
          COUNTS: (COUNTS_MARKER, *COUNTS_PER_OP, *COUNTS_PER_OP.values()),
          STRESS: (TRIALS, MINIMUM_TRIALS, CONTROL_KIND, TRIALS_TO_FIRST_FORBIDDEN, TRIAL, THREADS_MEANING)}
_MISSING = sorted(f"{kind}: {c}" for kind, names in _NAMED.items() for c in names if c not in SCHEMAS[kind].types)
_MISSING += [f"{TIMING} run column: {c}" for c in RUN_SETTING_COLUMNS if c not in RUN_COLUMNS]
if _MISSING:
    raise RuntimeError(f"{SCHEMA_PATH}: schema.py names columns the schema does not have: {', '.join(_MISSING)}")


def file_kind(header: Iterable[str]) -> str:
    """TIMING, COUNTS or STRESS, from a file's header: a stress file's first field is
    ``stress_schema_version``; a counts file has ``instructions_per_op`` and no
    ``ns_per_op``. Anything else is taken for a timing file (whose header check then names
    what is missing)."""
    names = list(header)
    if names and names[0] == STRESS_VERSION_COLUMN:
        return STRESS
    return COUNTS if COUNTS_MARKER in names and METRIC not in names else TIMING


def column_type(column: str, version: int) -> str:
    """The type name of ``column`` in a file (timing or counts) of schema ``version``."""
    schema = _TIMING if column in _TIMING.types else _COUNTS
    return schema.column_type(column, version)


# The first version that records the run settings (those the loader cannot fill in).
RUN_SETTINGS_SINCE_VERSION = min(
    v for v, columns in COLUMNS_BY_VERSION.items()
    if set(RUN_SETTING_COLUMNS) - set(RUN_SETTING_DEFAULTS) - set(RUN_SETTING_FROM) <= set(columns))


def run_columns(version: int) -> tuple[str, ...]:
    """The run-level columns a timing file of schema ``version`` has."""
    return _TIMING.scoped(RUN_SCOPE, version)


def counts_run_columns(version: int) -> tuple[str, ...]:
    """The run-level columns a counts file of schema ``version`` has (no run settings:
    ``bench count`` has none of ``bench``'s sampling options)."""
    return _COUNTS.scoped(RUN_SCOPE, version)


def stress_column_type(column: str, version: int) -> str:
    """The type name of ``column`` in a stress file of ``stress_schema_version`` ``version``."""
    return _STRESS.column_type(column, version)


def stress_run_columns(version: int) -> tuple[str, ...]:
    """The run-level columns of a stress file of ``stress_schema_version`` ``version``: its
    version, the environment and bench_version (no run settings)."""
    return _STRESS.scoped(RUN_SCOPE, version)


# Per-sample numeric columns kept beside the metric (NaN where empty or absent).
SAMPLE_NUMERIC_COLUMNS = tuple(
    c for c in COLUMNS_BY_VERSION[LATEST_VERSION]
    if c not in RUN_COLUMNS and c not in CASE_COLUMNS and c not in VARIANT_COLUMNS and c not in SAMPLE_ID_COLUMNS
    and COLUMN_TYPES[c] in ("int", "float", "float_or_inf", "opt_int", "opt_float")
)
