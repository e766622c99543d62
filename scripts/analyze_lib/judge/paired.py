"""Sequential sampling of a paired comparison: whether a case needs more pairs.

A paired run (``bench-commits --paired``) measures each case in pairs, one sample of each build
milliseconds apart, and keeps measuring a case while this module says its estimate is still too
loose. ``case_needs_more`` is the one seam bench-commits asks; the rule in it is provisional (a
bootstrap half-width against a fixed target), to be replaced by the paired statistics of compare
and gate.

A pair's log ratio is ``log(head ns/op / base ns/op)``; NaN when either sample is starved (no
operation completed), which carries no ratio and is left out.
"""

from __future__ import annotations

import math

import numpy as np

from .stats import _hierarchical_medians

# Fewer pairs than this in all rounds together always ask for more: a bootstrap of a handful says
# little about its own width.
MIN_PAIRS_TO_DECIDE = 6
# Enough: however wide the interval still is, a case stops asking for more at this many pairs.
MAX_PAIRS = 200
# The target: a 95% interval of the median log ratio within ±log(1.05).
TARGET_HALF_WIDTH = math.log(1.05)
NEEDS_MORE_RESAMPLES = 400
NEEDS_MORE_SEED = 20261123
NEEDS_MORE_CONFIDENCE = 0.95


def pair_log_ratio(base_ns_per_op: float, head_ns_per_op: float) -> float:
    """``log(head / base)`` for one pair; NaN when either side is starved (inf) or not positive."""
    if not (0 < base_ns_per_op < math.inf and 0 < head_ns_per_op < math.inf):
        return math.nan
    return math.log(head_ns_per_op / base_ns_per_op)


def interval_half_width(log_ratios_by_round: list[list[float]]) -> float:
    """Half the width of a bootstrap interval of the median of round medians of the log ratios,
    resampling rounds, then pairs within rounds; inf when there are no ratios."""
    groups = [np.asarray([r for r in rnd if not math.isnan(r)], dtype=float) for rnd in log_ratios_by_round]
    groups = [g for g in groups if g.size]
    if not groups:
        return math.inf
    medians = _hierarchical_medians(groups, np.random.default_rng(NEEDS_MORE_SEED), NEEDS_MORE_RESAMPLES)
    tail = (1 - NEEDS_MORE_CONFIDENCE) / 2 * 100
    low, high = np.percentile(medians, [tail, 100 - tail])
    return float(high - low) / 2


def case_needs_more(log_ratios_by_round: list[list[float]]) -> bool:
    """Whether a case should get another pair: True while it has fewer than MIN_PAIRS_TO_DECIDE
    usable pairs, or its interval is wider than ±TARGET_HALF_WIDTH; False from MAX_PAIRS pairs.

    ``log_ratios_by_round`` holds one list per round (worker pair) so far, the current one last:
    each pair's log ratio, NaN for a pair with a starved sample. Deterministic for its input.
    """
    usable = sum(1 for rnd in log_ratios_by_round for r in rnd if not math.isnan(r))
    pairs = sum(len(rnd) for rnd in log_ratios_by_round)
    if pairs >= MAX_PAIRS:
        return False
    if usable < MIN_PAIRS_TO_DECIDE:
        return True
    return interval_half_width(log_ratios_by_round) > TARGET_HALF_WIDTH
