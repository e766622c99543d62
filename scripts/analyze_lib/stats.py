"""Statistics on samples: medians, quartiles, bootstrap CIs, Mann-Whitney U.

Every random draw uses a generator seeded with ``BOOTSTRAP_SEED`` per call, so a
result depends only on its inputs (not on call order or --filter).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as scipy_stats

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20261121
CONFIDENCE = 0.95


@dataclass(frozen=True)
class RatioEstimate:
    """A ratio of medians (numerator / denominator) with its bootstrap CI."""

    ratio: float
    low: float
    high: float


def median(values: np.ndarray) -> float:
    """The sample median."""
    return float(np.median(values))


def quartiles(values: np.ndarray) -> tuple[float, float]:
    """The 25th and 75th percentiles (the interquartile range's ends)."""
    q1, q3 = np.percentile(values, [25, 75])
    return float(q1), float(q3)


def _bootstrap_medians(values: np.ndarray, rng: np.random.Generator, resamples: int) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    indices = rng.integers(0, values.size, size=(resamples, values.size))
    return np.median(values[indices], axis=1)


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
    low, high = np.percentile(top / bottom, [tail, 100 - tail])
    return RatioEstimate(median(numerator) / median(denominator), float(low), float(high))


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
    low, high = np.percentile(medians, [tail, 100 - tail])
    return float(low), float(high)


def mann_whitney_p(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided Mann-Whitney U p-value (scipy's automatic exact/asymptotic choice).

    Returns 1.0 when the test is undefined (e.g. every value tied).
    """
    p = float(scipy_stats.mannwhitneyu(a, b, alternative="two-sided").pvalue)
    return 1.0 if math.isnan(p) else p


def smallest_p(n_a: int, n_b: int) -> float:
    """The smallest two-sided p-value the exact U test can give for these sizes.

    It is 2 / C(n_a + n_b, n_a) (the most extreme ordering on either side); with 5
    samples each that is 2/252 ~ 0.0079. An alpha at or below it can never be reached.
    """
    if n_a == 0 or n_b == 0:
        return 1.0
    return min(1.0, 2 / math.comb(n_a + n_b, n_a))


def geometric_mean(values) -> float:
    """The geometric mean of positive values (NaN for none)."""
    values = np.asarray(list(values), dtype=float)
    if values.size == 0:
        return math.nan
    return float(np.exp(np.mean(np.log(values))))
