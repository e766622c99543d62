"""Statistics on samples: medians, quartiles, bootstrap CIs, Mann-Whitney U.

Every random draw uses a generator seeded with ``BOOTSTRAP_SEED`` per call, so a
result depends only on its inputs (not on call order or --filter).

Samples may be ``inf``: a *starved* sample, one in which no operation completed (bench
writes ``ns_per_op=inf`` for it). Starved samples are the slowest possible outcome, so
they sort above every finite value: a median or quartile that falls on them is ``inf``,
and the U test ranks them last. Nothing here ever returns NaN for such input.
"""

from __future__ import annotations

import math
from typing import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from .lazy_scipy import scipy_stats

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20261121
CONFIDENCE = 0.95


@dataclass(frozen=True)
class RatioEstimate:
    """A ratio of medians (numerator / denominator) with its bootstrap CI."""

    ratio: float
    low: float
    high: float

    @property
    def reaches_one(self) -> bool:
        """Whether the CI holds 1: the two medians are not told apart."""
        return self.low <= 1.0 <= self.high


def median(values: np.ndarray) -> float:
    """The sample median; ``inf`` when at least half the samples are starved."""
    # np.median averages the middle pair, which is inf (never NaN) when one is inf.
    return float(np.median(values))


def finite_median(values: np.ndarray) -> float | None:
    """The median of the finite values (a column with empty cells, say), or None when there are none."""
    finite = values[np.isfinite(values)]
    return float(np.median(finite)) if finite.size else None


def percentile(values: np.ndarray, q: float) -> float:
    """The q-th percentile with numpy's default (linear) interpolation, ``inf``-safe.

    Between a finite value and ``inf`` the result is ``inf`` (numpy would give NaN and a
    warning); exactly on a finite value it is that value.
    """
    ordered = np.sort(np.asarray(values, dtype=float), axis=-1)
    return float(_sorted_percentile(ordered, q))


def _sorted_percentile(ordered: np.ndarray, q: float) -> np.ndarray:
    """Linear-interpolation percentile along the last axis of already sorted values."""
    position = (ordered.shape[-1] - 1) * (q / 100)
    below = int(math.floor(position))
    above = min(below + 1, ordered.shape[-1] - 1)
    fraction = position - below
    low, high = ordered[..., below], ordered[..., above]
    if fraction == 0:
        return low
    with np.errstate(invalid="ignore"):
        # numpy's own lerp, so finite input gives exactly np.percentile's result.
        step = high - low
        mixed = low + step * fraction if fraction < 0.5 else high - step * (1 - fraction)
    # inf - inf is NaN: where either end is infinite the percentile is infinite.
    return np.where(np.isinf(high), np.inf, mixed)


def quartiles(values: np.ndarray) -> tuple[float, float]:
    """The 25th and 75th percentiles (the interquartile range's ends; ``inf``-safe)."""
    return percentile(values, 25), percentile(values, 75)


def starved_count(values: np.ndarray) -> int:
    """How many samples are starved (``inf``: no operation completed)."""
    return int(np.count_nonzero(np.isinf(np.asarray(values, dtype=float))))


def ratio(numerator: float, denominator: float) -> float:
    """numerator / denominator for positive values that may be ``inf`` (starved).

    inf/finite is ``inf``, finite/inf is 0, and inf/inf is NaN: both starved, there is no
    ratio (callers say "starved in both").
    """
    if math.isinf(numerator) and math.isinf(denominator):
        return math.nan
    if math.isinf(denominator):
        return 0.0
    return numerator / denominator


def _bootstrap_medians(values: np.ndarray, rng: np.random.Generator, resamples: int) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    indices = rng.integers(0, values.size, size=(resamples, values.size))
    medians: np.ndarray = np.median(values[indices], axis=1)
    return medians


def _resampled_ratios(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    # A resample where both medians are starved counts as ratio 1 (no difference), so
    # the CI stays defined; inf/finite is inf and finite/inf is 0, as in ratio().
    both = np.isinf(top) & np.isinf(bottom)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratios = top / bottom
    return np.where(both, 1.0, ratios)


def bootstrap_ratio_of_medians(
    numerator: np.ndarray,
    denominator: np.ndarray,
    resamples: int = BOOTSTRAP_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = BOOTSTRAP_SEED,
) -> RatioEstimate:
    """median(numerator) / median(denominator) with a percentile bootstrap CI.

    Each side is resampled independently with replacement; deterministic for a seed.
    """
    rng = np.random.default_rng(seed)
    top = _bootstrap_medians(numerator, rng, resamples)
    bottom = _bootstrap_medians(denominator, rng, resamples)
    tail = (1 - confidence) / 2 * 100
    ratios = _resampled_ratios(top, bottom)
    low, high = percentile(ratios, tail), percentile(ratios, 100 - tail)
    return RatioEstimate(ratio(median(numerator), median(denominator)), low, high)


def bootstrap_median_ci(
    values: np.ndarray,
    resamples: int = BOOTSTRAP_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, float]:
    """A percentile bootstrap CI of the median; deterministic for a seed."""
    rng = np.random.default_rng(seed)
    medians = _bootstrap_medians(values, rng, resamples)
    tail = (1 - confidence) / 2 * 100
    return percentile(medians, tail), percentile(medians, 100 - tail)


def mann_whitney_p(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided Mann-Whitney U p-value (scipy's automatic exact/asymptotic choice).

    Returns 1.0 when the test is undefined (e.g. every value tied, as when both sides
    are entirely starved). Starved (``inf``) samples tie with each other and rank above
    every finite one.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    # Exact when it can be (no ties, small sides: a handful of round medians): the normal approximation
    # overstates the p of two fully separated sides of 9 several times over.
    pooled = np.concatenate([a, b])
    exact = np.unique(pooled).size == pooled.size and max(a.size, b.size) <= EXACT_U_MAX_SIZE
    with np.errstate(invalid="ignore", divide="ignore"):
        p = float(scipy_stats().mannwhitneyu(a, b, alternative="two-sided",
                                           method="exact" if exact else "auto").pvalue)
    return 1.0 if math.isnan(p) else p


# The largest side the U test's p is computed exactly for (scipy's exact distribution stays cheap).
EXACT_U_MAX_SIZE = 30


def benjamini_hochberg(p_values: list[float], level: float) -> list[bool]:
    """Which hypotheses the Benjamini-Hochberg step-up procedure rejects at false discovery rate
    ``level``: sort the m p-values, find the largest k with p_(k) <= k/m * level, reject the k smallest.
    When every hypothesis is true (an A/A comparison) it bounds the chance of any rejection by ``level``."""
    m = len(p_values)
    order = sorted(range(m), key=lambda index: p_values[index])
    passing = [rank for rank, index in enumerate(order, start=1) if p_values[index] <= rank / m * level]
    rejected = set(order[:max(passing)]) if passing else set()
    return [index in rejected for index in range(m)]


def holm(p_values: list[float], level: float) -> list[bool]:
    """Which hypotheses Holm's step-down procedure rejects at family-wise error rate ``level``: sort the m
    p-values and reject while p_(k) <= level / (m - k + 1), stopping at the first that is not. However many
    hypotheses are false, the chance of rejecting any true one is at most ``level``; its first step is
    Bonferroni's bar, level / m, the same as Benjamini-Hochberg's."""
    m = len(p_values)
    rejected = [False] * m
    for rank, index in enumerate(sorted(range(m), key=lambda index: p_values[index])):
        if p_values[index] > level / (m - rank):
            break
        rejected[index] = True
    return rejected


def smallest_p(n_a: int, n_b: int) -> float:
    """The smallest two-sided p-value the exact U test can give for these sizes.

    It is 2 / C(n_a + n_b, n_a) (the most extreme ordering on either side); with 5
    samples each that is 2/252 ~ 0.0079. An alpha at or below it can never be reached.
    """
    if n_a == 0 or n_b == 0:
        return 1.0
    return min(1.0, 2 / math.comb(n_a + n_b, n_a))


def rounds_to_reach(level: float) -> int:
    """The fewest samples (rounds) a side, equal on both sides, whose exact U test can give p <= level."""
    n = 1
    while smallest_p(n, n) > level:
        n += 1
    return n


def geometric_mean(values: Iterable[float]) -> float:
    """The geometric mean of positive finite values (NaN for none)."""
    values = np.asarray(list(values), dtype=float)
    if values.size == 0:
        return math.nan
    return float(np.exp(np.mean(np.log(values))))


# --- Rounds: fresh processes as the unit of replication (Kalibera & Jones 2013) ---


def geomean_interval(base: list[list[np.ndarray]], head: list[list[np.ndarray]],
                     confidence: float = CONFIDENCE, resamples: int = BOOTSTRAP_RESAMPLES,
                     seed: int = BOOTSTRAP_SEED) -> tuple[float, float]:
    """The CI of the geometric mean, over cases, of head/base ratios of medians of round medians.

    ``base`` and ``head`` hold, per case (same order), its rounds (arrays of samples); every case
    of a side has the same number of rounds, round i of each case from the same process. A
    resample draws a side's rounds with replacement, one draw for all its cases (a round is one
    process that ran them all, so what it shares, the machine's state, moves every case together),
    and takes each case's median of the drawn rounds' medians. Percentile CI at ``confidence``;
    NaN ends when a side lacks 2 rounds or its cases differ in round count. A resample's ratio of
    two starved medians counts as 1, as in bootstrap_ratio_of_medians.
    """
    sides = []
    for groups in (base, head):
        counts = {len(rounds) for rounds in groups}
        if len(counts) != 1 or min(counts) < 2:
            return math.nan, math.nan
        sides.append(np.array([round_medians(rounds) for rounds in groups]))
    rng = np.random.default_rng(seed)
    drawn = []
    for medians in sides:
        chosen = rng.integers(0, medians.shape[1], size=(resamples, medians.shape[1]))
        drawn.append(np.median(medians[:, chosen], axis=2))  # cases x resamples
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(np.isinf(drawn[1]) & np.isinf(drawn[0]), 1.0, drawn[1] / drawn[0])
        means = np.exp(np.mean(np.log(ratios), axis=0))
    tail = (1 - confidence) / 2 * 100
    return percentile(means, tail), percentile(means, 100 - tail)


# Splits of one side's round medians into two halves that noise_floor looks at: every
# split when there are at most this many, else this many seeded random ones.
NOISE_FLOOR_SPLITS = 2000
# The floor is this percentile of the same-commit half-vs-half change factors.
NOISE_FLOOR_PERCENTILE = 95.0


def split_by_round(values: np.ndarray, rounds: np.ndarray) -> list[np.ndarray]:
    """The samples of each round, in round order (a round is one fresh process)."""
    values = np.asarray(values, dtype=float)
    rounds = np.asarray(rounds)
    return [values[rounds == r] for r in np.unique(rounds)]


def round_medians(groups: list[np.ndarray]) -> np.ndarray:
    """Each round's median (``inf`` for a round at least half starved)."""
    return np.array([median(g) for g in groups], dtype=float)


def median_of_round_medians(groups: list[np.ndarray]) -> float:
    """A side's summary over rounds: the median of its round medians."""
    return median(round_medians(groups))


def _hierarchical_medians(groups: list[np.ndarray], rng: np.random.Generator, resamples: int) -> np.ndarray:
    """Resample rounds with replacement, then samples within each chosen round; return
    each resample's median of round medians (a two-level bootstrap)."""
    sizes = np.array([g.size for g in groups])
    padded = np.full((len(groups), sizes.max()), np.nan)
    for i, g in enumerate(groups):
        padded[i, :g.size] = g
    chosen = rng.integers(0, len(groups), size=(resamples, len(groups)))
    # A position below the chosen round's own size, so padding is never drawn.
    positions = np.floor(rng.random((resamples, len(groups), sizes.max()))
                         * sizes[chosen][..., None]).astype(int)
    draws = padded[chosen[..., None], positions]
    # Rounds of unequal size: only the first `size` draws of each belong to it.
    mask = np.arange(sizes.max()) >= sizes[chosen][..., None]
    draws = np.where(mask, np.nan, draws)
    with np.errstate(invalid="ignore"):
        medians = np.nanmedian(draws, axis=2) if mask.any() else np.median(draws, axis=2)
    result: np.ndarray = np.median(medians, axis=1)
    return result


def hierarchical_ratio(numerator: list[np.ndarray], denominator: list[np.ndarray],
                       resamples: int = BOOTSTRAP_RESAMPLES, confidence: float = CONFIDENCE,
                       seed: int = BOOTSTRAP_SEED) -> RatioEstimate:
    """The ratio of the sides' medians of round medians with a hierarchical bootstrap CI.

    Each side is a list of rounds (arrays of samples). A resample draws rounds with
    replacement, then samples with replacement within each drawn round (Kalibera & Jones,
    "Rigorous benchmarking in reasonable time", 2013), so the CI carries the
    between-process variance that one process's samples cannot show. Deterministic for a
    seed.
    """
    rng = np.random.default_rng(seed)
    top = _hierarchical_medians(numerator, rng, resamples)
    bottom = _hierarchical_medians(denominator, rng, resamples)
    tail = (1 - confidence) / 2 * 100
    ratios = _resampled_ratios(top, bottom)
    point = ratio(median_of_round_medians(numerator), median_of_round_medians(denominator))
    return RatioEstimate(point, percentile(ratios, tail), percentile(ratios, 100 - tail))


def hierarchical_median_ci(groups: list[np.ndarray], resamples: int = BOOTSTRAP_RESAMPLES,
                           confidence: float = CONFIDENCE, seed: int = BOOTSTRAP_SEED) -> tuple[float, float]:
    """The CI of a side's median of round medians by the two-level bootstrap of ``hierarchical_ratio`` (rounds,
    then samples within each); deterministic for a seed."""
    rng = np.random.default_rng(seed)
    medians = _hierarchical_medians(groups, rng, resamples)
    tail = (1 - confidence) / 2 * 100
    return percentile(medians, tail), percentile(medians, 100 - tail)


def _half_splits(count: int, rng: np.random.Generator) -> Iterator[tuple[int, ...]]:
    half = count // 2
    if math.comb(count, half) <= NOISE_FLOOR_SPLITS:
        yield from combinations(range(count), half)
        return
    for _ in range(NOISE_FLOOR_SPLITS):
        yield tuple(rng.choice(count, size=half, replace=False))


def noise_floor(groups: list[np.ndarray], seed: int = BOOTSTRAP_SEED) -> float:
    """The change factor (>= 1) that one side's own rounds show between two halves.

    The rounds' medians are split into two halves (every split, or NOISE_FLOOR_SPLITS
    seeded random ones); each split gives the factor between the halves' medians,
    max(r, 1/r); the floor is the NOISE_FLOOR_PERCENTILE-th percentile of those factors.
    With 2 rounds it is max/min of the two round medians. NaN with fewer than 2 rounds
    (one process cannot show between-process variance); ``inf`` when a half is starved.
    """
    medians = round_medians(groups)
    if medians.size < 2:
        return math.nan
    rng = np.random.default_rng(seed)
    firsts = np.array(list(_half_splits(medians.size, rng)))
    inside = np.zeros((len(firsts), medians.size), dtype=bool)
    np.put_along_axis(inside, firsts, True, axis=1)
    # Each split's two halves, as rows of round indices: the chosen half, then the others (a stable sort of the mask).
    order = np.argsort(~inside, axis=1, kind="stable")
    half = firsts.shape[1]
    top = np.median(medians[order[:, :half]], axis=1)
    bottom = np.median(medians[order[:, half:]], axis=1)
    # ratio() on every split at once: inf/inf is NaN (factor 1), finite/inf is 0 and inf/finite inf (factor inf).
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(np.isinf(bottom), np.where(np.isinf(top), np.nan, 0.0), top / bottom)
        factors = np.where(np.isnan(r), 1.0, np.where((r == 0) | np.isinf(r), np.inf, np.maximum(r, 1 / r)))
    return percentile(factors, NOISE_FLOOR_PERCENTILE)


# --- Bimodal cases: samples in two levels, as wait/fan-out's (docs/comparison-rule.md says how they are judged) ---

BIMODAL_MIN_SAMPLES = 10
BIMODAL_MIN_SHARE = 0.20
# The gap between the levels, in log ns, must be at least this many times the larger
# level's interquartile range of log ns, and at least a factor BIMODAL_MIN_LEVEL_RATIO.
BIMODAL_GAP_TO_SPREAD = 3.0
BIMODAL_MIN_LEVEL_RATIO = 1.25


@dataclass(frozen=True)
class Modes:
    """Two levels of one side's samples: each level's median and share of the samples."""

    low_median: float
    low_share: float
    high_median: float
    high_share: float


def find_modes(values: np.ndarray) -> Modes | None:
    """The two levels of ``values`` when they are bimodal by this rule, else None.

    Of the finite samples (at least BIMODAL_MIN_SAMPLES) sorted by log value, split at the
    widest gap between neighbours; bimodal when each side holds at least
    BIMODAL_MIN_SHARE of them, the gap is at least BIMODAL_GAP_TO_SPREAD times the larger
    side's interquartile range (of log values) and the levels' medians differ by at least
    BIMODAL_MIN_LEVEL_RATIO. Shares are of the finite samples.
    """
    values = np.asarray(values, dtype=float)
    finite = np.sort(values[np.isfinite(values) & (values > 0)])
    if finite.size < BIMODAL_MIN_SAMPLES:
        return None
    logs = np.log(finite)
    gaps = np.diff(logs)
    cut = int(np.argmax(gaps)) + 1
    low, high = logs[:cut], logs[cut:]
    least = math.ceil(BIMODAL_MIN_SHARE * logs.size)
    if min(low.size, high.size) < least:
        return None
    spread = max(np.subtract(*np.percentile(low, [75, 25])), np.subtract(*np.percentile(high, [75, 25])))
    gap = gaps[cut - 1]
    low_median, high_median = float(np.median(finite[:cut])), float(np.median(finite[cut:]))
    if gap < BIMODAL_GAP_TO_SPREAD * spread or high_median < BIMODAL_MIN_LEVEL_RATIO * low_median:
        return None
    return Modes(low_median, low.size / logs.size, high_median, high.size / logs.size)
