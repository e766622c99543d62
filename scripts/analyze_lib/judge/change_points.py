"""Change points over a series of runs: the runs from which a case's level shifted and stayed, by how much, and with
what evidence (``analyze history``).

A series is one number per run, oldest first: a timing case's level (``summary.case_median``, the median of its
round medians), or a counts case's instructions or allocations per operation. Where it may have shifted comes from
a library, not from code of ours: ruptures' kernel change point detection (``KernelCPD``: PELT over a Gaussian
kernel, the kernel form of the energy distance that E-Divisive means splits on; E-Divisive is what MongoDB's CI and
Apache Otava use), every segment at least MIN_RUNS runs long, so that a shift must persist to be found. Each
candidate is then judged on the runs either side of it, up to its neighbours, as Otava's merge step judges them
(Fleming et al., ICPE 2023): the weakest that fails is dropped, its neighbours are judged again on the joined runs,
until every one left holds.

- Timing: Student's t on the logarithms of the runs' levels gives p < MAX_P (Otava's test and default), and the two
  sides' medians differ by at least the threshold (``--threshold``, as ``compare``'s smallest change that counts).
- Counts are exact for a binary, so no test: the two sides' medians differ by more than COUNT_STEP_PERCENT of
  instructions per op (or by the counts comparison's allocations tolerance), and every run after the shift, up to
  the next one, differs from the level before it so, the same way: a single odd run is not a new level.
"""

from __future__ import annotations

import importlib.util
import math
import re
import warnings
from collections import defaultdict
from dataclasses import dataclass
from functools import partial
from typing import Callable, Sequence, TypeVar

import numpy as np

from ..files.model import Case, CaseCounts, CaseFile, CaseKey, CountsFile, ResultsFile, filter_cases
from .counts_compare import DEFAULT_ALLOCATIONS_TOLERANCE, judge_allocations, judge_instructions
from .lazy_scipy import scipy_stats
from .summary import case_median

# Whether change points can be looked for here (without ruptures none is found, and history says why).
# requirements.txt leaves ruptures out where it has no build (Python 3.14 and newer). It is imported where it is
# used: it imports scipy.stats (lazy_scipy).
AVAILABLE = importlib.util.find_spec("ruptures") is not None

# A shift must hold for at least this many runs on each side: one odd run is not a level.
MIN_RUNS = 2
# The p-value below which Student's t calls a timing shift (Apache Otava's default max_pvalue). The false-alarm rate
# of these settings, measured on A/A series of 12 runs at the default --threshold of 5%: a change point is found in
# 0.1% of unchanged series whose runs spread by 2% (log-normal), 0.9% at a 10% spread, 0.7% with heavy tails, 4.6%
# where a fifth of the runs sit on a second level 1.3x higher; and in 1.9% of this machine's real A/A series of
# fresh processes of one build (0.8% to 2.9% by run) and 6.8% of the samples of one process (the reference run).
# The commands: docs/findings/2026-11-29-change-points.md.
MAX_P = 0.001
# ruptures' penalty for one more segment of the Gaussian-kernel cost (at most 1 a run): low, so that candidates are
# plenty; the test above decides which stand (the finding measures 0.1 too).
CANDIDATE_PENALTY = 1.0
# A count step that persists is a change point from this size on (instructions per op, in percent): counts are
# exact for a binary, and a series shows persistence that one comparison cannot, so the step may be finer than
# compare's 1% tolerance.
COUNT_STEP_PERCENT = 0.5
# ruptures' penalty for one more segment of a count series measured in units of its step (a cut between two runs
# on each side of a step of one unit lowers the squared error by one): below 1, so that every step of a unit is a
# candidate.
COUNT_CANDIDATE_PENALTY = 0.5

CaseT = TypeVar("CaseT")

# The metrics a series follows: a timing case's level and a counts case's two counts.
NS_PER_OP = "ns/op"
INSTRUCTIONS_PER_OP = "instructions/op"
ALLOCATIONS_PER_OP = "allocations/op"
COUNT_METRICS = (INSTRUCTIONS_PER_OP, ALLOCATIONS_PER_OP)


@dataclass(frozen=True)
class Shift:
    """Where one series shifted: ``at`` indexes the first point of the new level. ``before`` and ``after`` are the
    medians of the points either side, up to the neighbouring shifts, ``points_before`` and ``points_after`` how many
    there are, and ``p_value`` Student's t's on their logarithms (None for counts, which are judged exactly)."""

    at: int
    before: float
    after: float
    points_before: int
    points_after: int
    p_value: float | None = None

    @property
    def ratio(self) -> float:
        """After over before (> 1: higher; inf from a level of 0 allocations)."""
        if self.before == 0:
            return math.inf if self.after > 0 else 1.0
        return self.after / self.before


@dataclass(frozen=True)
class _Evidence:
    """One candidate judged on its two sides: whether it holds, and how doubtful it is (the largest is dropped
    first among those that fail)."""

    holds: bool
    doubt: tuple[float, ...]
    shift: Shift


def _candidates(signal: np.ndarray, kernel: str, penalty: float) -> list[int]:
    """ruptures' change points of ``signal`` (indexes of the first point of each new segment), every segment at least
    MIN_RUNS long; none for a series too short to hold two such segments."""
    if not AVAILABLE or signal.size < 2 * MIN_RUNS:
        return []
    import ruptures

    detector = ruptures.KernelCPD(kernel=kernel, min_size=MIN_RUNS).fit(signal.reshape(-1, 1))
    return [int(end) for end in detector.predict(pen=penalty)[:-1]]


def _prune(values: np.ndarray, cuts: list[int], judge: Callable[[np.ndarray, np.ndarray, int], _Evidence]
           ) -> list[Shift]:
    """Otava's merge step: judge every cut on the points between its neighbours; while some fail, drop the most
    doubtful of them and judge again."""
    cuts = sorted(cuts)
    while cuts:
        bounds = [0, *cuts, values.size]
        found = [judge(values[bounds[i]:bounds[i + 1]], values[bounds[i + 1]:bounds[i + 2]], bounds[i + 1])
                 for i in range(len(cuts))]
        failing = [i for i, evidence in enumerate(found) if not evidence.holds]
        if not failing:
            return [evidence.shift for evidence in found]
        del cuts[max(failing, key=lambda i: found[i].doubt)]
    return []


def _student_p(before: np.ndarray, after: np.ndarray) -> float:
    """Student's t (equal variances, two-sided) p-value of two samples; exact where both have no spread."""
    if np.ptp(before) == 0 and np.ptp(after) == 0:
        return 0.0 if before[0] != after[0] else 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nearly equal values: scipy warns, the p stands
        p = float(scipy_stats().ttest_ind(before, after).pvalue)
    return 1.0 if math.isnan(p) else p


def timing_shifts(levels: Sequence[float], threshold_percent: float) -> list[Shift]:
    """The shifts of a series of positive, finite timing levels (one a run, oldest first) that hold by Student's t at
    MAX_P and are at least ``threshold_percent`` in size, in order."""
    values = np.asarray(levels, dtype=float)
    logs = np.log(values)
    smallest = math.log1p(threshold_percent / 100)

    def judge(before: np.ndarray, after: np.ndarray, at: int) -> _Evidence:
        size = abs(float(np.median(after) - np.median(before)))
        p = _student_p(before, after)
        shift = Shift(at, float(np.median(np.exp(before))), float(np.median(np.exp(after))), before.size,
                      after.size, p)
        # Otava's order: the least significant goes first; once all are significant, the smallest.
        return _Evidence(p < MAX_P and size >= smallest - 1e-12, (float(p >= MAX_P), p, -size), shift)

    return _prune(logs, _candidates(logs, "rbf", CANDIDATE_PENALTY), judge)


def _instructions_step(level: float, value: float) -> float:
    """How many COUNT_STEP_PERCENT steps ``value`` lies from ``level`` (instructions per op, relative)."""
    return math.log(value / level) / math.log1p(COUNT_STEP_PERCENT / 100)


def _allocations_step(level: float, value: float) -> float:
    """How many allocations tolerances ``value`` lies from ``level`` (allocations per op, absolute)."""
    return (value - level) / DEFAULT_ALLOCATIONS_TOLERANCE


def count_shifts(counts: Sequence[float], metric: str) -> list[Shift]:
    """The shifts of a series of one count per run (``metric``: INSTRUCTIONS_PER_OP or ALLOCATIONS_PER_OP, oldest
    first) that persist: a step beyond the tolerance between the medians, and every point after it beyond that
    tolerance from the level before, the same way (the counts comparison's own judgement, ``judge_instructions``
    at COUNT_STEP_PERCENT or ``judge_allocations`` at its default tolerance)."""
    values = np.asarray(counts, dtype=float)
    instructions = metric == INSTRUCTIONS_PER_OP
    steps = _instructions_step if instructions else _allocations_step

    def direction(level: float, value: float) -> str | None:
        if instructions:
            return judge_instructions(level, value, COUNT_STEP_PERCENT)
        return judge_allocations(level, value, DEFAULT_ALLOCATIONS_TOLERANCE)

    def judge(before: np.ndarray, after: np.ndarray, at: int) -> _Evidence:
        level, new = float(np.median(before)), float(np.median(after))
        way = direction(level, new)
        persists = way is not None and all(direction(level, float(value)) == way for value in after)
        return _Evidence(persists, (-abs(steps(level, new)),), Shift(at, level, new, before.size, after.size))

    # The signal in steps from the first count, so that ruptures' squared error counts steps.
    signal = np.array([steps(float(values[0]), float(value)) for value in values])
    return _prune(values, _candidates(signal, "linear", COUNT_CANDIDATE_PENALTY), judge)


@dataclass(frozen=True)
class ChangePoint:
    """A change point of one case's series: its metric (NS_PER_OP or one of COUNT_METRICS), the last run before the
    shift and the first run after it (indexes into the ordered runs the series was drawn from: a case may be missing
    from runs between them) and the shift itself."""

    key: CaseKey
    metric: str
    before_run: int
    after_run: int
    shift: Shift


def _series(runs: Sequence[CaseFile[CaseT]], pattern: re.Pattern[str] | None,
            value: Callable[[CaseT], float]) -> dict[CaseKey, list[tuple[int, float]]]:
    """Each case's (run index, value) in run order, leaving out the runs where its value is not a finite number of at
    least 0 (a starved timing level)."""
    found: dict[CaseKey, list[tuple[int, float]]] = defaultdict(list)
    for index, run in enumerate(runs):
        for key, case in filter_cases(run.cases, pattern).items():
            number = value(case)
            if math.isfinite(number) and number >= 0:
                found[key].append((index, number))
    return found


def _change_points(series: dict[CaseKey, list[tuple[int, float]]], metric: str,
                   shifts: Callable[[list[float]], list[Shift]]) -> list[ChangePoint]:
    points = []
    for key, seen in series.items():
        for shift in shifts([number for _, number in seen]):
            points.append(ChangePoint(key, metric, seen[shift.at - 1][0], seen[shift.at][0], shift))
    return points


def _timing_level(case: Case) -> float:
    """A case's level for its series; NaN (left out) when starved or not above 0, which has no logarithm."""
    level = case_median(case)
    return level if 0 < level < math.inf else math.nan


def timing_change_points(runs: Sequence[ResultsFile], threshold_percent: float,
                         pattern: re.Pattern[str] | None = None) -> list[ChangePoint]:
    """Every timing case's change points over ``runs`` (ordered oldest first), in case order, then run order."""
    points = _change_points(_series(runs, pattern, _timing_level), NS_PER_OP,
                            lambda levels: timing_shifts(levels, threshold_percent))
    return sorted(points, key=lambda point: (point.key.sort_key(), point.after_run))


COUNT_VALUES: dict[str, Callable[[CaseCounts], float]] = {
    INSTRUCTIONS_PER_OP: lambda case: case.instructions_per_op,
    ALLOCATIONS_PER_OP: lambda case: case.allocations_per_op,
}


def count_change_points(runs: Sequence[CountsFile], pattern: re.Pattern[str] | None = None) -> list[ChangePoint]:
    """Every counts case's change points over ``runs`` (ordered oldest first), in case order, instructions before
    allocations per op, then run order."""
    points = []
    for metric in COUNT_METRICS:
        points += _change_points(_series(runs, pattern, COUNT_VALUES[metric]), metric,
                                 partial(count_shifts, metric=metric))
    return sorted(points, key=lambda point: (point.key.sort_key(), COUNT_METRICS.index(point.metric),
                                             point.after_run))
