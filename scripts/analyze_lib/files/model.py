"""The data model of a results file: case keys, cases, loaded files and the params codec.

Pure data and the small functions on it; no file I/O. ``loader`` builds these from CSVs;
``compare``, ``render``, ``report`` and ``history`` consume them. A timing file
(``ResultsFile``) holds each case's samples (``Case``); a counts file (``CountsFile``)
holds each case's one counted run (``CaseCounts``); a stress file (``StressFile``) holds
what each check observed at each thread count (``StressResult``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Iterable, TypeVar

import numpy as np

from .schema import CONTROL_PREFIX, FORBIDDEN, METRIC, RACY, SLOW_OUTCOME, STALLED_OUTCOME

PARAM_SEPARATOR = ";"
PARAM_ASSIGN = "="
SHORT_COMMIT_LENGTH = 7
# What a CaseFile holds per case: a Case (timing) or a CaseCounts (counts).
CaseT = TypeVar("CaseT")


ParamValue = int | float | str
Params = tuple[tuple[str, ParamValue], ...]  # (name, value) pairs, sorted by name


def parse_param_value(text: str) -> int | float | str:
    """Return ``text`` as an int or float when it is numeric, else unchanged."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return text
    return value if math.isfinite(value) else text


def parse_params(text: str) -> tuple[tuple[str, int | float | str], ...]:
    """Parse ``k=v;k=v`` into sorted (key, value) pairs; values numeric where possible.

    Raises ValueError naming the malformed entry.
    """
    if text == "":
        return ()
    pairs = []
    for entry in text.split(PARAM_SEPARATOR):
        key, sep, value = entry.partition(PARAM_ASSIGN)
        if not sep or not key:
            raise ValueError(f"params entry {entry!r} is not key=value")
        pairs.append((key, parse_param_value(value)))
    return tuple(sorted(pairs, key=lambda kv: kv[0]))


def format_params(pairs: Iterable[tuple[str, ParamValue]]) -> str:
    """The canonical ``k=v;k=v`` text of (key, value) pairs (inverse of parse_params)."""
    return PARAM_SEPARATOR.join(f"{k}{PARAM_ASSIGN}{_format_value(v)}" for k, v in pairs)


def _format_value(value: ParamValue) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _value_sort_key(value: ParamValue) -> tuple[int, float, str]:
    # Numbers sort numerically and before strings, so tokens=2 comes before tokens=10.
    if isinstance(value, (int, float)):
        return (0, float(value), "")
    return (1, 0.0, str(value))


@dataclass(frozen=True)
class CaseKey:
    """What identifies a case: (suite, benchmark, variant, threads, params).

    ``params`` holds sorted (key, value) pairs with numeric values parsed, so two files
    that spell ``tokens=10`` and ``tokens=10.0`` differently still match.
    """

    suite: str
    benchmark: str
    variant: str
    threads: int
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def params_text(self) -> str:
        """Params as ``k=v;k=v`` (empty when none)."""
        return format_params(self.params)

    @property
    def params_dict(self) -> dict[str, Any]:
        """Params as a dict of parsed values."""
        return dict(self.params)

    @property
    def filter_name(self) -> str:
        """``suite/benchmark/variant``: the string --filter is matched against."""
        return f"{self.suite}/{self.benchmark}/{self.variant}"

    @property
    def label(self) -> str:
        """Human label, e.g. ``once/hit/dispatch-once threads:8 tokens=1000``."""
        text = f"{self.filter_name} threads:{self.threads}"
        return f"{text} {self.params_text}" if self.params else text

    def sort_key(self) -> tuple[str, str, tuple[tuple[str, tuple[int, float, str]], ...], int, str]:
        """Order by suite, benchmark, params (numerically), threads, variant."""
        params = tuple((k, _value_sort_key(v)) for k, v in self.params)
        return (self.suite, self.benchmark, params, self.threads, self.variant)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the key's fields."""
        return {
            "suite": self.suite,
            "benchmark": self.benchmark,
            "variant": self.variant,
            "threads": self.threads,
            "params": self.params_text,
        }


@dataclass
class Case:
    """One case's samples: ``columns[name]`` is a float array, one entry per CSV row.

    Empty optional cells (mallocs, latency percentiles) are NaN. ``rounds`` holds each
    sample's fresh-process round (schema 3's ``round``; None means every sample is from
    round 1, as in files before version 3). ``hung``: bench abandoned the case as hung (schema 9's ``hung``: no
    progress for its ``--hang-timeout``); its rows are then that span, with no operation.
    """

    key: CaseKey
    columns: dict[str, np.ndarray]
    rounds: np.ndarray | None = None
    hung: bool = False

    @property
    def round_ids(self) -> np.ndarray:
        """Each sample's round, one int per sample (all 1 when the file has no rounds)."""
        if self.rounds is None:
            return np.ones(self.n, dtype=int)
        return np.asarray(self.rounds, dtype=int)

    @property
    def round_count(self) -> int:
        """How many distinct rounds (processes) the samples come from."""
        return int(np.unique(self.round_ids).size)

    @property
    def ns_per_op(self) -> np.ndarray:
        """The metric's samples (lower is better)."""
        return self.columns[METRIC]

    @property
    def n(self) -> int:
        """Number of samples."""
        return int(self.ns_per_op.size)


class RunMetadata:
    """What a loaded file says about the run that wrote it, from its run-level columns
    (``self.run``): shared by timing and counts files."""

    run: dict[str, Any]

    @property
    def started_at(self) -> datetime:
        """When the run started (UTC)."""
        started: datetime = self.run["started_at"]  # the loader parsed it
        return started

    @property
    def logical_cpus(self) -> int:
        """The machine's logical CPU count; more threads than this is oversubscribed."""
        cpus: int = self.run["logical_cpus"]
        return cpus

    @property
    def commit_label(self) -> str:
        """Short commit, with ``+dirty`` when the tree had uncommitted changes and
        ``+dirty?`` when that is unknown (schema 3: git could not be read)."""
        commit = self.run["commit"]
        short = commit[:SHORT_COMMIT_LENGTH] if commit != "unknown" else commit
        dirty = self.run["dirty"]
        if dirty is None:
            return f"{short}+dirty?"
        return f"{short}+dirty" if dirty else short


@dataclass
class CaseFile(RunMetadata, Generic[CaseT]):
    """A loaded file of one result per case, timing or counts: its path, schema version, run
    metadata and its cases (key -> ``CaseT``), with what the loader noticed on the way."""

    path: str
    schema_version: int
    run: dict[str, Any]
    cases: dict[CaseKey, CaseT] = field(default_factory=dict)
    # What the loader noticed and worked around (e.g. a torn last row it dropped), each
    # a complete line naming the file and line.
    warnings: list[str] = field(default_factory=list)
    # Why the file is known to be incomplete (its run did not complete: interrupted,
    # killed, or still running), or None when nothing says so. See loader.incompleteness.
    incomplete: str | None = None
    # The variants a package brought (``variant_origin`` other than built-in): (suite,
    # variant) -> the Swift module that brought it. Empty for DispatchBench's own runs.
    origins: dict[tuple[str, str], str] = field(default_factory=dict)


@dataclass
class ResultsFile(CaseFile[Case]):
    """A loaded timing file: its run metadata and its cases (key -> Case).

    ``run`` holds the run-level columns of the file's schema version (schema.run_columns):
    the v3 run settings are absent from older files. ``dirty`` is True, False or, from
    version 3, None (unknown).
    """


@dataclass(frozen=True)
class CaseCounts:
    """One case's counted run (``bench count``): how many operations it did and how many
    instructions (callgrind) and allocations (jemalloc) they took.

    Counts are exact and repeatable for the same binary, so one run is the whole story: no
    samples, no spread. The per-operation values are computed from the integer counts (the
    loader checks that the file's own per-op columns agree with them).
    """

    key: CaseKey
    iterations: int
    operations: int
    instructions: int
    allocations: int

    @property
    def instructions_per_op(self) -> float:
        """Instructions per operation (harness loop included: nothing is subtracted)."""
        return self.instructions / self.operations

    @property
    def allocations_per_op(self) -> float:
        """Allocations per operation."""
        return self.allocations / self.operations


@dataclass
class CountsFile(CaseFile[CaseCounts]):
    """A loaded counts file: its run metadata (schema.counts_run_columns) and its cases
    (key -> CaseCounts), one counted run each."""


@dataclass(frozen=True)
class OutcomeCount:
    """One outcome a stress check observed (its id, as ``bench stress`` names it), the
    outcome's grade (schema.STRESS_GRADES) and how many times it was observed."""

    outcome: str
    grade: str
    count: int

    @property
    def forbidden(self) -> bool:
        """Whether the outcome breaks the contract under test."""
        return self.grade == FORBIDDEN


def check_parts(check: str) -> tuple[str, str | None, str, str]:
    """A stress check's name as (family, pattern, variant, check): bench names a check ``family/variant/check``, or
    ``family/pattern/variant/check`` where a family's variants are registered per pattern (``wait/throttle/
    semaphore-limit/limit``: Swift's ``Variant.stressCases``); pattern is None in the first form. A control's
    ``control/`` prefix is left out. A shorter name (the hidden ``deadlock/lock-order-inversion`` control) is its
    own family's only variant."""
    parts = check.removeprefix(CONTROL_PREFIX).split("/")
    family, name = parts[0], parts[-1]
    variant = parts[-2] if len(parts) > 1 else family
    return family, "/".join(parts[1:-2]) or None, variant, name


@dataclass(frozen=True)
class StressResult:
    """What one stress check observed at one thread count (Swift's ``StressResult``, one
    slot of ``bench stress``): its iterations and seconds, and each outcome with its count,
    in the file's order.

    ``seconds_to_first_forbidden`` is a control's time to its first forbidden outcome; None
    for a variant and for a control never caught. The trial counts come from files of
    stress_schema_version 4 on, and are None in older ones: ``trials``, the racing windows
    the check made; ``minimum_trials``, what proves a variant at this thread count;
    ``control_kind`` (schema.CONTROL_KINDS, None for a variant); ``trials_to_first_forbidden``,
    a caught control's trials up to the iteration of its first forbidden outcome.
    """

    check: str
    threads: int
    is_control: bool
    iterations: int
    seconds: float
    outcomes: tuple[OutcomeCount, ...]
    seconds_to_first_forbidden: float | None = None
    # The module that brought the checked variant (the file's ``variant_origin``); None for a built-in one.
    origin: str | None = None
    trials: int | None = None
    minimum_trials: int | None = None
    control_kind: str | None = None
    trials_to_first_forbidden: int | None = None
    # What the check counts as one trial, and what a thread count means to it (version 5; None before).
    trial: str | None = None
    threads_meaning: str | None = None

    @property
    def forbidden(self) -> tuple[OutcomeCount, ...]:
        """The forbidden outcomes observed (a failure in a variant, a catch in a control)."""
        return tuple(o for o in self.outcomes if o.forbidden)

    @property
    def caught(self) -> bool:
        """A control: whether the check observed a forbidden outcome (bench records when)."""
        return self.seconds_to_first_forbidden is not None

    @property
    def stalled(self) -> bool:
        """Whether bench's watchdog abandoned the check (a suspected deadlock)."""
        return any(o.outcome == STALLED_OUTCOME for o in self.outcomes)

    @property
    def abandoned(self) -> bool:
        """Whether bench's watchdog abandoned the check (``stalled``, as a stress file of version 4 on calls it)."""
        return self.stalled

    @property
    def slow_iterations(self) -> int:
        """How many of its iterations took longer than --watchdog while its threads advanced (slow, not stuck)."""
        return sum(o.count for o in self.outcomes if o.outcome == SLOW_OUTCOME)

    @property
    def below_minimum(self) -> bool:
        """Whether the check made fewer trials than its minimum at this thread count (False in a file without
        trial counts: nothing is known)."""
        return self.trials is not None and self.minimum_trials is not None and self.trials < self.minimum_trials

    @property
    def racy(self) -> bool:
        """A control broken by a race, caught only as often as its check has power (schema.RACY)."""
        return self.control_kind == RACY

    @property
    def caught_beyond_minimum(self) -> bool:
        """A caught control whose first forbidden outcome came only after more trials than its check's minimum."""
        return (self.trials_to_first_forbidden is not None and self.minimum_trials is not None
                and self.trials_to_first_forbidden > self.minimum_trials)

    @property
    def family(self) -> str:
        """The check's family (``once``, ``isolation``, ``wait``), a control's too."""
        return check_parts(self.check)[0]

    @property
    def pattern(self) -> str | None:
        """The pattern (benchmark) a check of ``family/pattern/variant/check`` is of (``throttle``), or None for a
        check named ``family/variant/check``, which checks its variant in every benchmark of the family."""
        return check_parts(self.check)[1]

    @property
    def variant(self) -> str:
        """The id of the variant the check checks: bench names a check ``family/variant/check``, or
        ``wait/benchmark/variant/check`` in the waiting family (Swift's ``Variant.stressCases``)."""
        return check_parts(self.check)[2]

    @property
    def check_name(self) -> str:
        """The check itself, without its family and variant (``lost-writes``)."""
        return check_parts(self.check)[3]


@dataclass
class StressFile(RunMetadata):
    """A loaded stress file (``bench stress``): its run metadata (schema.stress_run_columns)
    and its results, (check, threads) -> StressResult, in the order bench ran them."""

    path: str
    schema_version: int
    run: dict[str, Any]
    results: dict[tuple[str, int], StressResult] = field(default_factory=dict)
    # As CaseFile.warnings.
    warnings: list[str] = field(default_factory=list)
    # As CaseFile.incomplete.
    incomplete: str | None = None


def filter_stress(results: dict[tuple[str, int], StressResult],
                  pattern: re.Pattern[str] | None) -> dict[tuple[str, int], StressResult]:
    """The results whose check name (``family/variant/check``, ``control/…`` for a control)
    matches ``pattern`` (re.search), or all of them when ``pattern`` is None."""
    if pattern is None:
        return dict(results)
    return {k: v for k, v in results.items() if pattern.search(v.check)}


def filter_cases(cases: dict[CaseKey, Any], pattern: re.Pattern[str] | None) -> dict[CaseKey, Any]:
    """The cases (Case or CaseCounts) whose ``suite/benchmark/variant`` matches ``pattern``
    (re.search).

    ``pattern`` is a compiled regex or None (keep everything), like the Swift CLI's --filter.
    """
    if pattern is None:
        return dict(cases)
    return {k: v for k, v in cases.items() if pattern.search(k.filter_name)}
