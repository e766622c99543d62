"""The comparison of two counts files: per case, instructions and allocations per operation,
judged exactly.

Counts do not drift: the same binary gives the same counts on any run, so there is no noise
to test against and no p-value. A change beyond a tolerance is a change, in either
direction: more is a regression, and fewer is a finding too (a case that suddenly does less
may have stopped doing its work). ``compare_counts()`` is the pure core;
``build_counts_comparison()`` adds filtering, one-sided cases and warnings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
import re
from typing import Mapping

from .comparable import matched_cases
from ..files.model import CaseCounts, CaseKey, CountsFile

# An instructions/op change counts when it is more than this, in percent of base: callgrind
# counts are exact, but a toolchain's scheduling moves them by a few instructions.
DEFAULT_INSTRUCTIONS_TOLERANCE_PERCENT = 1.0
# An allocations/op change counts when it is at least this: one allocation per 100 operations.
DEFAULT_ALLOCATIONS_TOLERANCE = 0.01

# Which way one count moved.
MORE = "more"
FEWER = "fewer"

# A case's verdict: worse when any count went up beyond its tolerance, better when one went
# down and none up.
WORSE = "worse"
BETTER = "better"
UNCHANGED = "unchanged"
VERDICT_ORDER = (WORSE, BETTER, UNCHANGED)

# So that a change of exactly the tolerance is judged by the rule, not by rounding
# (101 / 100 - 1 = 0.010000000000000009); far below one instruction or allocation in a run.
_EPSILON = 1e-12

# Run metadata that changes counts by itself, with a reader's name. Not host, kernel or CPU
# count: callgrind counts user-space instructions of one thread. The CPU model is here
# because libc picks code paths (memcpy, strlen) by CPU features.
COUNTS_RUN_FIELDS = (
    ("cpu_model", "CPU model"),
    ("os", "OS"),
    ("swift_version", "Swift version"),
    ("build", "build"),
    ("allocator", "allocator"),
    ("schema_version", "schema version"),
)


def judge_instructions(base: float, head: float, tolerance_percent: float) -> str | None:
    """MORE or FEWER when head's instructions/op differ from base's by more than
    ``tolerance_percent`` of base; None otherwise (0: any difference counts)."""
    change = head / base - 1
    if change == 0 or abs(change) <= tolerance_percent / 100 + _EPSILON:
        return None
    return MORE if change > 0 else FEWER


def judge_allocations(base: float, head: float, tolerance: float) -> str | None:
    """MORE or FEWER when head's allocations/op differ from base's by at least ``tolerance``
    (0: any difference counts); None otherwise."""
    difference = head - base
    if difference == 0 or abs(difference) < tolerance - _EPSILON:
        return None
    return MORE if difference > 0 else FEWER


@dataclass(frozen=True)
class CountsRow:
    """One case's counts, base against head, and which way each moved beyond its
    tolerance (MORE, FEWER or None)."""

    key: CaseKey
    base: CaseCounts
    head: CaseCounts
    instructions: str | None
    allocations: str | None

    @property
    def instructions_ratio(self) -> float:
        """Head over base instructions per op (> 1: more)."""
        return self.head.instructions_per_op / self.base.instructions_per_op

    @property
    def allocations_difference(self) -> float:
        """Head minus base allocations per op (> 0: more)."""
        return self.head.allocations_per_op - self.base.allocations_per_op

    @property
    def verdict(self) -> str:
        """WORSE when a count went up beyond its tolerance, BETTER when one went down and
        none up, else UNCHANGED."""
        changes = (self.instructions, self.allocations)
        if MORE in changes:
            return WORSE
        return BETTER if FEWER in changes else UNCHANGED


def compare_counts(base: Mapping[CaseKey, CaseCounts], head: Mapping[CaseKey, CaseCounts],
                   instructions_tolerance: float = DEFAULT_INSTRUCTIONS_TOLERANCE_PERCENT,
                   allocations_tolerance: float = DEFAULT_ALLOCATIONS_TOLERANCE) -> list[CountsRow]:
    """Judge every case present on both sides; rows in case order. Pure and exact: no
    statistics, the same counts always give the same rows."""
    common = sorted(set(base) & set(head), key=CaseKey.sort_key)
    return [CountsRow(key, base[key], head[key],
                      judge_instructions(base[key].instructions_per_op, head[key].instructions_per_op,
                                         instructions_tolerance),
                      judge_allocations(base[key].allocations_per_op, head[key].allocations_per_op,
                                        allocations_tolerance))
            for key in common]


@dataclass
class CountsComparison:
    """Two counts files compared: rows (worse first, largest change first), one-sided cases,
    warnings, and the tolerances they were judged with."""

    base: CountsFile
    head: CountsFile
    instructions_tolerance: float
    allocations_tolerance: float
    rows: list[CountsRow]
    base_only: list[CaseKey] = field(default_factory=list)
    head_only: list[CaseKey] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def outcomes(self) -> dict[str, int]:
        """Number of rows per verdict, each present (possibly 0)."""
        counted = Counter(row.verdict for row in self.rows)
        return {verdict: counted.get(verdict, 0) for verdict in VERDICT_ORDER}

    @property
    def worse(self) -> list[CountsRow]:
        """The rows with more instructions or allocations (beyond the tolerances)."""
        return [row for row in self.rows if row.verdict == WORSE]

    @property
    def better(self) -> list[CountsRow]:
        """The rows with fewer instructions or allocations and none more."""
        return [row for row in self.rows if row.verdict == BETTER]


def _row_order(row: CountsRow) -> tuple[int, float, float, tuple[object, ...]]:
    # Within worse and better, the largest change first: allocations (a new allocation per
    # operation outweighs any instruction count), then instructions.
    size = (abs(row.allocations_difference) if row.allocations else 0.0,
            abs(row.instructions_ratio - 1) if row.instructions else 0.0)
    return (VERDICT_ORDER.index(row.verdict), -size[0], -size[1], row.key.sort_key())


def counts_warnings(base: CountsFile, head: CountsFile, names: tuple[str, str] = ("base", "head")) -> list[str]:
    """Warnings about runs whose counts differ for reasons other than the code: toolchain,
    build, allocator, libc (OS) or CPU model; and what the loader worked around."""
    warnings = list(dict.fromkeys(base.warnings + head.warnings))
    for name, label in COUNTS_RUN_FIELDS:
        if base.run[name] != head.run[name]:
            warnings.append(
                f"different {label}: {names[0]} {base.run[name]!r}, {names[1]} {head.run[name]!r}; "
                "counts may differ for that reason alone")
    for side, counts in zip(names, (base, head)):
        if counts.run["build"] != "release":
            warnings.append(f"{side} is a {counts.run['build']!r} build: its counts are not a release build's")
    return warnings


def build_counts_comparison(base: CountsFile, head: CountsFile,
                            instructions_tolerance: float = DEFAULT_INSTRUCTIONS_TOLERANCE_PERCENT,
                            allocations_tolerance: float = DEFAULT_ALLOCATIONS_TOLERANCE,
                            pattern: re.Pattern[str] | None = None) -> CountsComparison:
    """Compare two loaded counts files, keeping only cases whose name matches ``pattern``.

    Raises AnalyzeError (naming both files) when no case is on both sides (`matched_cases`).
    """
    base_cases, head_cases, base_only, head_only = matched_cases(base, head, pattern)
    rows = compare_counts(base_cases, head_cases, instructions_tolerance, allocations_tolerance)
    rows.sort(key=_row_order)
    return CountsComparison(
        base=base,
        head=head,
        instructions_tolerance=instructions_tolerance,
        allocations_tolerance=allocations_tolerance,
        rows=rows,
        base_only=base_only,
        head_only=head_only,
        warnings=counts_warnings(base, head),
    )
