"""What a comparison shows beyond its cases' own outcomes, for the gate to weigh before it passes or fails
(docs/comparison-rule.md#when-the-gate-may-pass):

- a whole suite that moved: its geometric-mean ratio at least the threshold factor slower, with an interval that
  excludes 1, is a regression even when no single case of it resolves the change;
- cases the gate could not judge (unstable, bimodal, undetectable) whose head/base ratio is at least the threshold
  factor slower: a pass would pass what the gate could not see (a starved case, which completed no operation in
  most of its samples, has no ratio that measures anything, and is named as starved instead; so has a paired case
  whose starved pairs leave it no change to call, compare.STARVED_PAIRS: one starved on the base alone in some
  pairs and on the head alone in others, whose ratio mixes bounds in both directions, or one left short of the
  rounds a call needs by rounds in which every pair starved on both sides, whose few remaining rounds read slower
  or faster by chance; it is named as starved too, and the second kind blocks a pass only when its own interval
  lies wholly at least the threshold factor slower: its point ratio read slower in an A/A of identical builds,
  docs/findings/2026-11-30-check-gate-aa-unjudged-case.md);
- cases not resolved (not called, their interval reaching the threshold) whose whole interval lies at least the
  threshold factor slower and whom the correction over all the cases would call at NEAR_CALL_FACTOR x alpha: the
  case's own evidence says it slowed by as much as the gate calls, and falls short of a call by less than that
  factor (the interval alone is the case's own, uncorrected: among hundreds of unchanged cases, one lies beyond
  the threshold by chance in many comparisons);
- most of the compared cases not judged (unstable, bimodal, starved, undetectable): a pass would rest on
  the few that were.
  Cases not resolved do not count here: at the paired threshold of 2% nearly every case of a quick comparison is
  not resolved (docs/comparison-rule.md#unchanged-or-not-resolved), and a pass says how many were;
- in separate runs (not paired), the machine's canary moved: ``harness/empty``, an empty timed loop that no change
  to a pattern touches, at least the threshold factor either way. What moved then is the machine, not the code, and
  no verdict of that comparison can be trusted.

``pass_evidence`` is pure; the gate (gate.py) turns it into a status and words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .compare import (BIMODAL, SLOWER, STARVED_PAIRS, UNCHANGED, UNDETECTABLE, UNRESOLVED, UNSTABLE, Comparison,
                      CompareRow, judge_change, level_ratios)
from ..files.model import CaseKey

# The machine's canary in separate runs: an empty timed loop, whose code is the harness's and no pattern's
# (Benchmarks/HarnessBenchmarks.swift).
CANARY = ("harness", "empty")
NOT_JUDGED = (UNSTABLE, BIMODAL, STARVED_PAIRS, UNDETECTABLE)


@dataclass(frozen=True)
class SuiteShift:
    """A suite whose geometric-mean ratio (head/base) moved beyond the threshold, with its interval."""

    suite: str
    cases: int
    geomean: float
    low: float
    high: float

    def describe(self) -> str:
        return f"{self.suite} {self.geomean:.2f}× [{self.low:.2f}, {self.high:.2f}] over {self.cases} cases"


@dataclass(frozen=True)
class PassEvidence:
    """What stands between a comparison with no case slower and a pass (see the module's doc).

    ``suites_slower`` fail the gate; ``unseen_slower`` (not-judged cases at least the threshold factor
    slower, with their ratios) and ``mostly_unseen`` make a pass inconclusive; ``machine_moved`` (the
    canary's cases beyond the threshold, with their ratios) makes any verdict of separate runs inconclusive.
    """

    suites_slower: tuple[SuiteShift, ...] = ()
    unseen_slower: tuple[tuple[CaseKey, float], ...] = ()
    mostly_unseen: bool = False
    machine_moved: tuple[tuple[CaseKey, float], ...] = ()

    @property
    def blocks_pass(self) -> bool:
        """True when a comparison with no case slower still may not pass."""
        return bool(self.unseen_slower or self.mostly_unseen or self.machine_moved)


def _beyond(ratio: float, threshold: float) -> str:
    return judge_change(ratio, threshold) if math.isfinite(ratio) and ratio > 0 else UNCHANGED


def suites_slower(comparison: Comparison) -> tuple[SuiteShift, ...]:
    """The suites of two cases or more whose geometric-mean ratio is at least the threshold factor slower and
    whose interval lies above 1, among those with no case called slower (which already says it)."""
    called = {row.key.suite for row in comparison.rows if row.outcome == SLOWER}
    shifts = []
    for suite, (geomean, cases) in comparison.suite_geomeans.items():
        low, high = comparison.suite_intervals.get(suite, (math.nan, math.nan))
        if suite in called:
            continue
        if cases >= 2 and _beyond(geomean, comparison.threshold) == SLOWER and low > 1:
            shifts.append(SuiteShift(suite, cases, geomean, low, high))
    return tuple(shifts)


def moved_ratio(row: CompareRow) -> float:
    """How far a case not judged moved, head/base: the larger of its levels' ratios when both sides fall in
    two levels (samples that merely shifted between the same levels did not move), else its medians'."""
    if row.base_modes is not None and row.head_modes is not None:
        return max(level_ratios(row.base_modes, row.head_modes))
    return row.ratio


def _moved_slower(row: CompareRow, threshold: float) -> bool:
    """A case not judged that moved at least the threshold factor slower: by its ratio (``moved_ratio``) when that
    measures a change, and a paired case starved short of its rounds by its whole interval."""
    if row.ratio_measures:
        return _beyond(moved_ratio(row), threshold) == SLOWER
    return row.starved_short and _beyond(row.ci_low, threshold) == SLOWER


def _is_canary(row: CompareRow) -> bool:
    return (row.key.suite, row.key.benchmark) == CANARY


def interval_beyond(row: CompareRow, threshold: float) -> bool:
    """A case not resolved whose whole interval lies at least the threshold factor slower (nearly called or not)."""
    return row.outcome == UNRESOLVED and row.starved is None and _beyond(row.ci_low, threshold) == SLOWER


def _unresolved_beyond(row: CompareRow, threshold: float) -> bool:
    """A case not resolved, nearly called, whose whole interval lies at least the threshold factor slower."""
    return row.nearly_called and interval_beyond(row, threshold)


def pass_evidence(comparison: Comparison) -> PassEvidence:
    """The comparison's evidence for and against a pass (PassEvidence)."""
    rows = comparison.rows
    unseen = [row for row in rows if row.outcome in NOT_JUDGED]
    machine = () if comparison.paired else tuple(
        (row.key, row.ratio) for row in rows
        if _is_canary(row) and _beyond(row.ratio, comparison.threshold) != UNCHANGED)
    return PassEvidence(
        suites_slower=suites_slower(comparison),
        unseen_slower=tuple((row.key, moved_ratio(row)) for row in unseen if _moved_slower(row, comparison.threshold))
        + tuple((row.key, row.ratio) for row in rows if _unresolved_beyond(row, comparison.threshold)),
        mostly_unseen=2 * len(unseen) > len(rows),
        machine_moved=machine,
    )
