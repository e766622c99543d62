"""Paired comparisons: two builds alternated sample by sample, judged on the log ratios of their pairs.

In a paired run (``scripts/bench-commits``) each round starts one worker process per build, and
every pair of samples of a case, base and head, is taken milliseconds apart, in alternating order.
Both samples of a pair see the same state of the host, so the host's swings cancel in the pair's
log ratio ``d = log(head / base)``. What is left is the noise within a pair and, between rounds, a
per-process offset: which vCPU each worker's threads ran on (a VM's vCPUs run at different speeds;
bench-commits measures one-thread cases with both workers on one CPU for this reason) and, for cases
of more threads, where their threads landed (bench-commits pins each to a CPU of its own by default)
and offsets whose source is not known (docs/paired-design.md#placement).

The rule (docs/comparison-rule.md, "Paired files", states it for readers, with the figures and
findings behind each choice):

- A starved sample (no operation completed, ns/op ``inf``) counts at its elapsed time, the least its
  ns/op can be: a head that starves where its base did not is slower by at least that much, and the
  bound pulls a pair's ratio toward no change, never away from it. A pair starved on both sides
  cannot be ordered and carries no ratio. So a pair whose head alone starved bounds head/base from
  below, one whose base alone starved bounds it from above: a case of only the first kind can still be
  called slower, one of only the second faster. A case with pairs of both kinds (``starved_alone``)
  mixes bounds in both directions, and its change is bounded neither way: ``compare.classify`` calls
  it starved, not gated.
- A case's change is ``exp(estimate)``, where ``estimate`` is the 15% trimmed mean over rounds of each
  round's median ``d``: each process pair is one unit (Kalibera & Jones), the median keeps one disturbed
  pair from moving a round, and the trimming keeps a few disturbed rounds from moving the case. With
  each thread of a team on its own CPU, most of a case's rounds agree within a few percent and a few
  land far off (a worker that spent its whole round in another state), which the mean would count in
  full.
- Its standard error comes from a two-level bootstrap: rounds resampled, then pairs within each
  resampled round; scaled by sqrt(R / (R - 1)) for the bias of a bootstrap over R rounds. With one
  round the between-process level is not measured, and ``one_round`` says so.
- The rounds, not the pairs, are the independent units: a worker's threads keep the CPUs the
  scheduler gave them for seconds, so where a team's threads land can hold for a whole round. So
  ``t = estimate / se`` is read on Student's t, not on the normal, with the degrees of freedom of
  the rounds the trimmed mean keeps, less one (Yuen's test: ``degrees_of_freedom``): few rounds give
  a coarse resolution rather than a false call.
- A case calls a change only from ``MIN_CALL_ROUNDS`` rounds. Where a worker's threads land is a
  state of the whole process, so a case's round values can sit on a few discrete levels; five or six
  rounds that happen to share one level look like a tight, large change, which Student's t calls.
  Below ``MIN_CALL_ROUNDS`` a case's p-value is 1 and its resolution unbounded.
- All cases of a comparison are decided together with Holm's step-down procedure at ``alpha`` on the
  two-sided p-values (``called_together``), and a called change must also reach ``min_effect``:
  ``compare.decide_outcomes`` and ``compare.classify`` apply that. Holm bounds the chance that any
  unchanged case is called by ``alpha`` however many cases did change. Benjamini-Hochberg, which files
  that were not paired keep, bounds only the expected share of false calls among the calls: with k
  real changes it lets the k-th smallest p pass at k times the lone bar, and an unchanged case can
  pass that way beside them.
  Both call a lone change at ``alpha / m``, so a case's resolution is the same under either.
- A case's **resolution** is the smallest change it could call alone among ``m`` cases: the
  larger of ``min_effect`` and ``exp(t(alpha / 2m, df) * se)``. A change beyond it is called
  whatever the case's noise; a change below it could not have been seen, and the report says how
  small a change each case could see instead of "not gated".

The functions here are pure: arrays in, numbers out, with a fixed seed per call.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple, Sequence

import numpy as np

from .lazy_scipy import scipy_stats
from .stats import BOOTSTRAP_SEED, holm

# The fewest rounds a case calls a change from (see the rule above; why ten: docs/comparison-rule.md,
# "Paired files").
MIN_CALL_ROUNDS = 10
# The share of a case's rounds the estimate cuts from each end (``estimate``), rounded down: enough to keep
# a few disturbed rounds from moving a case, few enough to leave a quick run's rounds their degrees of
# freedom (docs/comparison-rule.md, "Paired files").
ROUND_TRIM = 0.15
# Resamples for a standard error (not for a tail quantile, which a z value gives): 400 put the
# SE's own sampling error near 3.5%.
PAIRED_RESAMPLES = 400
# The smallest change a paired comparison calls: pairing removes the host's swings, so the floor
# can sit well below the 5% of unpaired runs; below 2%, code placement alone moves a case.
PAIRED_MIN_EFFECT_PERCENT = 2.0
DEFAULT_PAIRED_ALPHA = 0.01
# Sequential sampling stops giving a case pairs once it could call a change this small alone: finer than
# 1.05x, so that a 5% change sits well beyond a case's bar rather than at it
# (docs/paired-design.md#sequential-sampling-coarsest-goal-first).
TARGET_RESOLUTION = 1.03
# The resolutions sequential sampling brings cases to, coarsest first (``next_goal``): every case it can
# to 2x, so that no case is left unable to see a doubling while the budget could have given it one; then
# as many as it can to 1.10x, 1.05x, then TARGET_RESOLUTION. A further round takes the cases of the coarsest
# goal first (bench_commits.paired_plan.cases_to_visit); why:
# docs/paired-design.md#sequential-sampling-coarsest-goal-first.
RESOLUTION_GOALS = (2.0, 1.10, 1.05, TARGET_RESOLUTION)
# Resamples for the suites' geometric-mean intervals (tail quantiles, so more than for an SE).
GEOMEAN_RESAMPLES = 2000
# A resolution is capped at e^50 (a change no case could show) so that it stays a finite number.
MAX_LOG_RESOLUTION = 50.0


@dataclass(frozen=True)
class PairedEvidence:
    """What one case's pairs show: the change (head / base, > 1 is slower), its standard error in
    log units, the p-value of "no change", and the smallest change it could call alone."""

    rounds: int
    pairs: int
    ratio: float
    se: float
    p: float
    resolution: float

    @property
    def one_round(self) -> bool:
        """True when all pairs come from one process pair: between-process noise is not measured."""
        return self.rounds < 2

    def interval(self, z: float) -> tuple[float, float]:
        """The ratio's interval at ``z`` standard errors (``two_sided_z(alpha, rounds)``), its ends kept
        within e^-50 and e^50 (few rounds at a small alpha put them beyond any float)."""
        centre = math.log(self.ratio)

        def bounded(log_value: float) -> float:
            return math.exp(min(max(log_value, -MAX_LOG_RESOLUTION), MAX_LOG_RESOLUTION))

        return bounded(centre - z * self.se), bounded(centre + z * self.se)


class PairSample(NamedTuple):
    """One build's sample in a pair: its ns/op (``inf`` when starved: no operation completed in it)
    and how long it ran."""

    ns_per_op: float
    elapsed_ns: float


def least_ns_per_op(ns_per_op: np.ndarray, elapsed_ns: np.ndarray) -> np.ndarray:
    """Each sample's ns/op, a starved one's (``inf``) replaced by its elapsed time: no operation
    completed in it, and one would have made its ns/op exactly that, so it is at least that."""
    ns_per_op = np.asarray(ns_per_op, dtype=float)
    return np.where(np.isposinf(ns_per_op), np.asarray(elapsed_ns, dtype=float), ns_per_op)


def log_ratios(base: np.ndarray, head: np.ndarray, base_elapsed_ns: np.ndarray,
               head_elapsed_ns: np.ndarray) -> np.ndarray:
    """``log(head / base)`` pair by pair, from each side's ns/op and elapsed ns. A starved sample
    counts at ``least_ns_per_op``; a pair starved on both sides, or with a side that is zero or
    missing, is dropped."""
    base, head = np.asarray(base, dtype=float), np.asarray(head, dtype=float)
    both_starved = np.isposinf(base) & np.isposinf(head)
    least_base, least_head = least_ns_per_op(base, base_elapsed_ns), least_ns_per_op(head, head_elapsed_ns)
    usable = (~both_starved & np.isfinite(least_base) & np.isfinite(least_head)
              & (least_base > 0) & (least_head > 0))
    ratios: np.ndarray = np.log(least_head[usable] / least_base[usable])
    return ratios


def starved_alone(base: Mapping[tuple[int, int], PairSample],
                  head: Mapping[tuple[int, int], PairSample]) -> tuple[int, int]:
    """Of the pairs both sides hold that carry a ratio (``log_ratios``), how many starved on the base alone
    (each an upper bound on head/base) and how many on the head alone (each a lower bound)."""
    keys = sorted(set(base) & set(head))
    if not keys:
        return 0, 0
    base_side, head_side = (np.array([side[key] for key in keys], dtype=float) for side in (base, head))
    base_ns, head_ns = base_side[:, 0], head_side[:, 0]
    least_base, least_head = least_ns_per_op(base_ns, base_side[:, 1]), least_ns_per_op(head_ns, head_side[:, 1])
    carries = np.isfinite(least_base) & np.isfinite(least_head) & (least_base > 0) & (least_head > 0)
    base_starved, head_starved = np.isposinf(base_ns), np.isposinf(head_ns)
    return (int(np.sum(carries & base_starved & ~head_starved)), int(np.sum(carries & head_starved & ~base_starved)))


def rounds_starved_on_both_sides(base: Mapping[tuple[int, int], PairSample],
                                 head: Mapping[tuple[int, int], PairSample]) -> int:
    """How many of the rounds both sides hold carry no ratio because every pair of the round starved on both sides
    (``log_ratios`` drops such a pair): rounds a case lost for want of any completed operation, not of a run."""
    starved_by_round: dict[int, list[bool]] = {}
    for key in set(base) & set(head):
        starved_by_round.setdefault(key[0], []).append(
            math.isinf(base[key].ns_per_op) and math.isinf(head[key].ns_per_op))
    return sum(1 for starved in starved_by_round.values() if all(starved))


def pair_log_ratio(base: PairSample, head: PairSample) -> float:
    """``log_ratios`` of one pair; NaN when the pair carries no ratio."""
    d = log_ratios(np.array([base.ns_per_op]), np.array([head.ns_per_op]),
                   np.array([base.elapsed_ns]), np.array([head.elapsed_ns]))
    return float(d[0]) if d.size else math.nan


def pair_log_ratios_by_round(base: Mapping[tuple[int, int], PairSample],
                             head: Mapping[tuple[int, int], PairSample]) -> dict[int, np.ndarray]:
    """The log ratios of the pairs both sides hold, keyed ``(round, pair)``, by round id in round
    order. A pair one side lacks (an interrupted run) or that carries no ratio (``log_ratios``) is
    left out, and so is a round left with no pair."""
    by_round: dict[int, list[tuple[PairSample, PairSample]]] = {}
    for key in sorted(set(base) & set(head)):
        by_round.setdefault(key[0], []).append((base[key], head[key]))
    grouped = {}
    for round_id, pairs in sorted(by_round.items()):
        base_side, head_side = (np.array(side, dtype=float) for side in zip(*pairs))
        grouped[round_id] = log_ratios(base_side[:, 0], head_side[:, 0], base_side[:, 1], head_side[:, 1])
    return {round_id: d for round_id, d in grouped.items() if d.size}


def pair_log_ratios(base: Mapping[tuple[int, int], PairSample],
                    head: Mapping[tuple[int, int], PairSample]) -> list[np.ndarray]:
    """``pair_log_ratios_by_round``'s rounds, in round order, without their ids."""
    return list(pair_log_ratios_by_round(base, head).values())


def trimmed_rounds(rounds: int) -> int:
    """How many of ``rounds`` round values the estimate keeps: all but ``floor(ROUND_TRIM * rounds)`` at
    each end (as ``scipy.stats.trim_mean`` cuts)."""
    return rounds - 2 * int(ROUND_TRIM * rounds)


def degrees_of_freedom(rounds: int) -> int:
    """The degrees of freedom of a trimmed mean over ``rounds`` rounds (Yuen): the rounds it keeps, less one."""
    return trimmed_rounds(rounds) - 1


def _degrees(rounds: int) -> int | None:
    """What ``estimate / se`` is read on: Student's t with these degrees of freedom (``degrees_of_freedom``), or,
    as None, the normal for one round (whose between-process noise is not measured at all: ``one_round``)."""
    return degrees_of_freedom(rounds) if rounds >= 2 else None


@functools.cache
def _distribution(degrees: int | None) -> Any:  # a scipy distribution; scipy has no types (pyproject.toml)
    """Student's t with ``degrees`` of freedom, or the normal for None (``_degrees``). Built once per degrees: scipy
    takes about as long to build one as the rest of a projection."""
    return scipy_stats().norm if degrees is None else scipy_stats().t(degrees)


@functools.cache
def _upper_quantile(tail: float, degrees: int | None) -> float:
    """The value exceeded with probability ``tail`` on ``_distribution(degrees)``. Kept once computed: the sequential
    rule asks for the same few hundred quantiles for every case it projects in every round."""
    return float(_distribution(degrees).isf(tail))


def two_sided_z(alpha: float, rounds: int = 0) -> float:
    """The critical value of a two-sided interval at confidence 1 - alpha over ``rounds`` rounds
    (the normal's 2.58 at 0.01 when ``rounds`` is below 2)."""
    return _upper_quantile(alpha / 2, _degrees(rounds))


def lone_z(alpha: float, cases: int, rounds: int = 0) -> float:
    """The critical value a change in one case alone must reach among ``cases`` decided together
    (Bonferroni's bar, which Holm applies to the smallest p-value), over ``rounds``."""
    return _upper_quantile(alpha / (2 * max(cases, 1)), _degrees(rounds))


def t_test_p(centre: float, se: float, rounds: int) -> float:
    """The two-sided p-value of ``centre / se`` over ``rounds`` rounds (``_degrees``); with no standard error, 1 for
    no change and 0 for any other."""
    if se > 0:
        return float(2 * _distribution(_degrees(rounds)).sf(abs(centre) / se))
    return 1.0 if centre == 0 else 0.0


def called_together(p_values: Sequence[float], alpha: float) -> list[bool]:
    """Which of a comparison's paired cases are significant, all decided together: Holm's procedure at
    family-wise error rate ``alpha`` (the rule above). The change's floor, ``min_effect``, is applied after."""
    return holm(list(p_values), alpha)


def estimate(rounds: Sequence[np.ndarray]) -> float:
    """The trimmed mean (``ROUND_TRIM`` cut from each end) over rounds of each round's median log ratio."""
    return float(scipy_stats().trim_mean([np.median(d) for d in rounds], ROUND_TRIM))


def bootstrap_se(rounds: Sequence[np.ndarray], seed: int = BOOTSTRAP_SEED,
                 resamples: int = PAIRED_RESAMPLES) -> float:
    """The standard error of ``estimate`` from resampling rounds, then pairs within rounds."""
    rng = np.random.default_rng(seed)
    # Row r: round r's median over each resample of its own pairs. A round of one pair (the default visit) is
    # that pair in every resample; numpy draws nothing from a range of one, so skipping the draw changes no SE.
    within = np.stack([np.full(resamples, d[0]) if d.size == 1
                       else np.median(d[rng.integers(0, d.size, (resamples, d.size))], axis=1) for d in rounds])
    count = len(rounds)
    if count == 1:
        return float(np.std(within[0], ddof=1))
    chosen = rng.integers(0, count, (count, resamples))
    means = scipy_stats().trim_mean(within[chosen, np.arange(resamples)], ROUND_TRIM, axis=0)
    return float(np.std(means, ddof=1) * math.sqrt(count / (count - 1)))


def geomean_interval(cases: Sequence[Mapping[int, float]], confidence: float, resamples: int = GEOMEAN_RESAMPLES,
                     seed: int = BOOTSTRAP_SEED) -> tuple[float, float]:
    """The interval at ``confidence`` of the geometric mean, over cases, of their changes
    (``exp(estimate)``); ``cases`` holds, per case, its rounds' median log ratios keyed by round id.

    A resample draws the comparison's rounds with replacement, one draw for all the cases: a round is
    one pair of workers that visited them all, so what it shares moves every case together. Each
    case's trimmed mean counts each of its own rounds as often as it was drawn (sequential rounds visit
    some cases only); a case none of whose rounds was drawn keeps its estimate. Percentile interval; NaN
    ends with fewer than two rounds in all."""
    round_ids = sorted({round_id for medians in cases for round_id in medians})
    if len(round_ids) < 2 or not cases:
        return math.nan, math.nan
    column = {round_id: index for index, round_id in enumerate(round_ids)}
    values = np.full((len(cases), len(round_ids)), np.nan)
    for row, medians in enumerate(cases):
        for round_id, median in medians.items():
            values[row, column[round_id]] = median
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, len(round_ids), (resamples, len(round_ids)))
    counts = np.zeros((resamples, len(round_ids)))
    np.add.at(counts, (np.arange(resamples)[:, None], drawn), 1)
    means = np.empty((resamples, len(cases)))
    for row in range(len(cases)):
        own = np.flatnonzero(~np.isnan(values[row]))
        order = own[np.argsort(values[row, own])]
        means[:, row] = _trimmed_means(values[row, order], counts[:, order],
                                       fallback=scipy_stats().trim_mean(values[row, own], ROUND_TRIM))
    tail = (1 - confidence) / 2 * 100
    geomeans = means.mean(axis=1)
    return math.exp(np.percentile(geomeans, tail)), math.exp(np.percentile(geomeans, 100 - tail))


def _trimmed_means(ordered: np.ndarray, counts: np.ndarray, fallback: float) -> np.ndarray:
    """Per row of ``counts``, the trimmed mean (``ROUND_TRIM``) of ``ordered`` (ascending) with each value
    counted as often as its column says: ``scipy.stats.trim_mean`` of the values repeated, without
    repeating them; ``fallback`` for a row that counts none."""
    total = counts.sum(axis=1, keepdims=True)
    cut = np.floor(ROUND_TRIM * total)
    above = np.cumsum(counts, axis=1)
    kept = np.clip(above, cut, total - cut) - np.clip(above - counts, cut, total - cut)
    kept_total = np.maximum(total - 2 * cut, 1)[:, 0]
    return np.where(total[:, 0] > 0, (kept @ ordered) / kept_total, fallback)


def paired_evidence(rounds: Sequence[np.ndarray], *, cases: int, alpha: float = DEFAULT_PAIRED_ALPHA,
                    min_effect_percent: float = PAIRED_MIN_EFFECT_PERCENT,
                    seed: int = BOOTSTRAP_SEED) -> PairedEvidence:
    """One case's evidence from its log ratios, one array per round (empty rounds are left out).

    ``cases`` is how many cases the comparison decides together: it sets the resolution. With fewer than
    ``MIN_CALL_ROUNDS`` rounds the p-value is 1 (no call) and the resolution unbounded.
    """
    rounds = [np.asarray(d, dtype=float) for d in rounds if len(d)]
    if not rounds:
        raise ValueError("a paired case needs at least one pair")
    centre = estimate(rounds)
    se = bootstrap_se(rounds, seed)
    pairs = sum(d.size for d in rounds)
    p = 1.0 if len(rounds) < MIN_CALL_ROUNDS else t_test_p(centre, se, len(rounds))
    resolution = resolution_of(se, len(rounds), cases=cases, alpha=alpha, min_effect_percent=min_effect_percent)
    return PairedEvidence(rounds=len(rounds), pairs=pairs, ratio=math.exp(centre), se=se, p=p,
                          resolution=resolution)


def resolution_of(se: float, rounds: int, *, cases: int, alpha: float = DEFAULT_PAIRED_ALPHA,
                  min_effect_percent: float = PAIRED_MIN_EFFECT_PERCENT) -> float:
    """The smallest change a case of standard error ``se`` (log units) over ``rounds`` rounds could call
    alone among ``cases``: the larger of the floor and ``exp(lone_z * se)``, capped at e^50 (the cap
    itself below ``MIN_CALL_ROUNDS`` rounds: no change is called from so few)."""
    if rounds < MIN_CALL_ROUNDS:
        return math.exp(MAX_LOG_RESOLUTION)
    floor = math.log1p(min_effect_percent / 100)
    return math.exp(min(max(floor, lone_z(alpha, cases, rounds) * se), MAX_LOG_RESOLUTION))


def next_goal(resolution: float) -> float | None:
    """The resolution sequential sampling works toward for a case that has ``resolution`` now: the
    coarsest of ``RESOLUTION_GOALS`` it has not reached, or None once it has reached them all."""
    return next((goal for goal in RESOLUTION_GOALS if resolution > goal), None)


class Refinement(NamedTuple):
    """Where sequential sampling would take a case next: ``goal``, the resolution it works toward (None
    once the case has reached the finest), and ``rounds``, how many more rounds would bring it there (0
    once it has reached the finest, None when the rounds allowed would not)."""

    goal: float | None
    rounds: int | None


def refinement(log_ratios_by_round: Sequence[Sequence[float]], *, cases: int, max_rounds: int,
               alpha: float = DEFAULT_PAIRED_ALPHA,
               min_effect_percent: float = PAIRED_MIN_EFFECT_PERCENT) -> Refinement:
    """A case's next goal (``next_goal``) and how many more rounds it needs to reach it.

    The projection keeps the spread of one round's value that the case has shown so far
    (``se * sqrt(R)``) and lets only the rounds grow: the standard error falls as ``1 / sqrt(R)`` and
    Student's t loosens with the degrees of freedom. A case with fewer than two rounds of ratios wants
    one more, and one short of ``MIN_CALL_ROUNDS`` at least the rounds it lacks, whether or not they
    would bring it to its goal (its resolution is unbounded until then: a pair starved on both sides
    leaves its round out); its goal is the coarsest. ``log_ratios_by_round`` holds one list per round so
    far (NaN for a pair that carries no ratio: ``pair_log_ratio``); ``cases`` is how many cases the
    comparison decides together.

    The rule reads the precision only, never the change: stopping a case once its change looked
    significant would let a chance swing in an A/A run end the case at its most extreme, and the more
    often a case is looked at, the more often that happens."""
    rounds = [d[~np.isnan(d)] for d in (np.asarray(r, dtype=float) for r in log_ratios_by_round)]
    rounds = [d for d in rounds if d.size]
    if len(rounds) < 2:
        return Refinement(RESOLUTION_GOALS[0], 1 if len(rounds) < max_rounds else None)
    evidence = paired_evidence(rounds, cases=cases, alpha=alpha, min_effect_percent=min_effect_percent)
    goal = next_goal(evidence.resolution)
    if goal is None:
        return Refinement(None, 0)
    spread = evidence.se * math.sqrt(evidence.rounds)
    for total in range(evidence.rounds + 1, max_rounds + 1):
        if resolution_of(spread / math.sqrt(total), total, cases=cases, alpha=alpha,
                         min_effect_percent=min_effect_percent) <= goal:
            return Refinement(goal, total - evidence.rounds)
    if evidence.rounds < MIN_CALL_ROUNDS <= max_rounds:
        return Refinement(goal, MIN_CALL_ROUNDS - evidence.rounds)
    return Refinement(goal, None)
