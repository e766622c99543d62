"""The one per-case summary: a case's level is the median of its round medians.

Every stage that shows, ranks or exports one number per case asks here (report, decisions,
compare, export, history), so they agree however many samples a round holds. A round is
one fresh process; a file without rounds is one round, whose median is the samples' median.
``factor`` is the matching ratio of two cases, with a CI that carries the between-round
variance when both cases have rounds.

``bench --rounds`` prints the same level in its end-of-run table from Swift
(Sources/DispatchBench/CLI/Run/RunSummary.swift): it runs without these scripts, and the CSV
holds the samples, not the summary.
"""

from __future__ import annotations

import numpy as np

from ..files.model import Case
from .stats import (CONFIDENCE, RatioEstimate, bootstrap_median_ci, bootstrap_ratio_of_medians,
                    hierarchical_median_ci, hierarchical_ratio, median_of_round_medians, split_by_round)

# The fewest rounds a side for its between-round spread to count (one round has none).
ROUNDS_FOR_SPREAD = 2


def rounds_of(case: Case) -> list[np.ndarray]:
    """The case's samples (ns/op) split by round, in round order."""
    return split_by_round(case.ns_per_op, case.round_ids)


def case_median(case: Case) -> float:
    """The case's level: the median of its round medians (``inf`` when starved)."""
    return median_of_round_medians(rounds_of(case))


def level_interval(case: Case, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The 95% (``confidence``) interval of ``case_median``: hierarchical (rounds, then samples within them) when
    the case has rounds enough, else over its samples."""
    groups = rounds_of(case)
    if len(groups) >= ROUNDS_FOR_SPREAD:
        return hierarchical_median_ci(groups, confidence=confidence)
    return bootstrap_median_ci(case.ns_per_op, confidence=confidence)


def factor(case: Case, reference: Case, confidence: float = CONFIDENCE) -> RatioEstimate:
    """``case_median(case) / case_median(reference)`` with a bootstrap CI at ``confidence``:
    hierarchical (rounds, then samples within them) when both cases have rounds, else over
    the samples."""
    top, bottom = rounds_of(case), rounds_of(reference)
    if min(len(top), len(bottom)) >= ROUNDS_FOR_SPREAD:
        return hierarchical_ratio(top, bottom, confidence=confidence)
    return bootstrap_ratio_of_medians(case.ns_per_op, reference.ns_per_op, confidence=confidence)
