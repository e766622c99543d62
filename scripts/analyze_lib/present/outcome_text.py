"""A compared case's outcome in words (``1.32× slower``, ``no change (would see 1.04×)``, ``bimodal (not
gated): …``, ``starved (not gated): …``), and how small a change a paired comparison could see. The outcomes
themselves are decided in judge.compare; this module only says them.
"""

from __future__ import annotations

import math

from ..judge import paired as paired_rule
from ..judge.compare import (BIMODAL, CompareRow, FASTER, RESOLUTION_BANDS, SLOWER, STARVED_BOTH, STARVED_PAIRS,
                             UNCHANGED, UNDETECTABLE, UNRESOLVED, UNSTABLE, level_ratios, within_bands)
from ..judge.stats import Modes

UNDETECTABLE_TEXT = "undetectable (too few samples)"
UNDETECTABLE_ROUNDS_TEXT = "undetectable (too few rounds)"


def outcome_text(row: CompareRow) -> str:
    """The row's outcome in words: ``1.32× slower``, ``1.10× faster``, ``no change``, with a starved median
    ``slower (starved in head)`` and the like, ``undetectable (too few samples)``, a paired case's ``no change
    (would see 1.04×)``, a bimodal case's levels, or a paired case whose pairs starved ``starved (not gated): …``."""
    if row.outcome == STARVED_PAIRS:
        return f"starved (not gated): {starved_pairs_text(row)}"
    if row.outcome == BIMODAL:
        return bimodal_text(row.base_modes, row.head_modes, row.base_median, row.head_median)
    if row.bimodal:  # called by its levels (level_change): both sides have two
        assert row.base_modes is not None and row.head_modes is not None
        low, high = level_ratios(row.base_modes, row.head_modes)
        return f"{row.verdict} by both levels: low {low:.2f}×, high {high:.2f}× (head/base)"
    if row.outcome == UNSTABLE:
        return f"unstable (not gated): {noise_floor_text(row.noise_floor)}"
    if row.outcome == UNDETECTABLE:
        return UNDETECTABLE_ROUNDS_TEXT if row.short_of_rounds else UNDETECTABLE_TEXT
    if row.outcome == UNRESOLVED:
        return unresolved_text(row)
    if row.paired and row.outcome == UNCHANGED and row.starved is None:
        if math.log(row.resolution) >= paired_rule.MAX_LOG_RESOLUTION - 1e-9:
            return "no change (could see none: too few pairs with a ratio)"
        return f"no change (would see {row.resolution:.2f}×)"
    return ratio_text(row.ratio, row.verdict, row.starved)


def starved_pairs_text(row: CompareRow) -> str:
    """Why a paired case whose starved pairs leave it no change to call (compare.STARVED_PAIRS) is not called:
    ``the base alone starved in 3 of 48 pairs and the head alone in 5: its ratio mixes bounds in both directions, so
    no change is called``, or ``every pair starved on both sides in 7 of 16 rounds, leaving 9 with a ratio, fewer
    than the 10 a change is called from``."""
    if row.starved_both_ways:
        return (f"the base alone starved in {row.base_alone_starved_pairs} of {row.pairs} pairs and the head alone in "
                f"{row.head_alone_starved_pairs}: its ratio mixes bounds in both directions, so no change is called")
    held = row.paired_rounds + row.starved_rounds
    return (f"every pair starved on both sides in {row.starved_rounds} of {held} rounds, leaving {row.paired_rounds} "
            f"with a ratio, fewer than the {paired_rule.MIN_CALL_ROUNDS} a change is called from")


def unresolved_text(row: CompareRow) -> str:
    """``not resolved: 1.25× (head/base), not significant; would see 1.72×``: a case not called whose interval
    reaches the threshold, so that it may have changed by as much as the gate calls."""
    would = ""
    if row.paired and math.log(row.resolution) < paired_rule.MAX_LOG_RESOLUTION - 1e-9:
        would = f"; would see {row.resolution:.2f}×"
    return f"not resolved: {row.ratio:.2f}× (head/base), not significant{would}"


def ratio_text(ratio: float, verdict: str, starved: str | None = None) -> str:
    """``1.32× slower`` / ``1.10× faster`` / ``no change`` for a head/base ratio.

    A starved median has no factor: ``slower (starved in head)``, ``faster (starved in
    base)``, ``no change (starved in both)``, or ``no change (starved in head, not
    significant)`` when the U test does not separate the sides.
    """
    if starved == STARVED_BOTH:
        return "no change (starved in both)"
    if starved is not None:
        if verdict == UNCHANGED:
            return f"no change (starved in {starved}, not significant)"
        return f"{verdict} (starved in {starved})"
    if verdict == SLOWER:
        return f"{ratio:.2f}× slower"
    if verdict == FASTER:
        return f"{1 / ratio:.2f}× faster"
    return "no change"


def noise_floor_text(floor: float) -> str:
    """``noise floor 1.23×``, or in words when a starved round leaves it unbounded."""
    if math.isinf(floor):
        return "noise floor unbounded (a round starved: no operation completed in half its samples)"
    return f"noise floor {floor:.2f}×"


def _level_text(modes: Modes | None, single: float) -> str:
    if modes is None and math.isinf(single):
        return "starved (no operation completed in half its samples)"
    if modes is None:
        return f"one level {single:.3g}"
    return (f"{modes.low_median:.3g} ({modes.low_share:.0%}) / "
            f"{modes.high_median:.3g} ({modes.high_share:.0%})")


def bimodal_text(base: Modes | None, head: Modes | None, base_median: float = math.nan,
                 head_median: float = math.nan) -> str:
    """``bimodal (not gated): base 500 (60%) / 1.6e+03 (40%); head ...`` and, when both
    sides are bimodal, the level-by-level ratios (head/base of each level's median)."""
    text = f"bimodal (not gated): base {_level_text(base, base_median)}; head {_level_text(head, head_median)}"
    if base is not None and head is not None:
        low, high = level_ratios(base, head)
        text += f"; levels head/base {low:.2f} and {high:.2f}"
    return text


def resolution_summary(resolutions) -> str:
    """How small a change the paired cases could see, from their resolutions (judge.compare.paired_resolutions),
    e.g. ``would see a 1.05× change in 412 of 500 paired cases, 1.10× in 470, only a coarser one in 38``; empty
    when no case is paired."""
    resolutions = tuple(resolutions)
    if not resolutions:
        return ""
    within = within_bands(resolutions)
    coarser = len(resolutions) - within[-1]
    text = f"would see a {RESOLUTION_BANDS[0]:.2f}× change in {within[0]} of {len(resolutions)} paired cases"
    text += "".join(f", {band:.2f}× in {count}" for band, count in zip(RESOLUTION_BANDS[1:], within[1:]))
    return text + (f", only a coarser one in {coarser}" if coarser else "")
