"""The comparison of two runs: per case, ratio of medians, CI, p-value and outcome.

``compare()`` is the pure core (samples in, rows out) that the gate, history and
tools/research/simulate_gate.py all use: ``evidence()`` measures each case, ``decide_outcomes()`` decides
them together and ``classify()``, the one rule, gives each row its outcome.
``build_comparison()`` adds what a report of two files needs: filtering, one-sided cases,
per-suite geometric means, warnings and the limits of its judging.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, fields
import re
from typing import Iterable, Mapping, Union

import numpy as np

from ..files.model import Case, CaseKey, ResultsFile
from ..files.schema import PAIR_COLUMN
from . import paired as paired_rule
from .comparable import file_warnings, matched_cases, run_warnings, unknown_settings_warnings
from .decisions import role_rows, role_siblings
from .moved import WhatMoved, what_moved
from .stats import (
    Modes,
    benjamini_hochberg,
    bootstrap_ratio_of_medians,
    find_modes,
    geomean_interval,
    hierarchical_ratio,
    median_of_round_medians,
    noise_floor,
    round_medians,
    split_by_round,
    geometric_mean,
    mann_whitney_p,
    median,
    rounds_to_reach,
    smallest_p,
    starved_count,
)

DEFAULT_THRESHOLD_PERCENT = 5.0
DEFAULT_ALPHA = 0.01
# A case not called is "nearly called" when its family's correction would call it at this many times alpha: its
# evidence falls short of a call by less than this factor. Only such a case, not resolved, can block a pass
# (pass_evidence); under no change, the correction calls any case at NEAR_CALL_FACTOR x alpha at most that often.
NEAR_CALL_FACTOR = 2.0

SLOWER = "slower"
FASTER = "faster"
UNCHANGED = "unchanged"
# Not significant, but the case's interval reaches beyond the threshold factor: the gate could not tell whether it
# changed by as much as it calls, so it is not "unchanged" (docs/comparison-rule.md#unchanged-or-not-resolved).
UNRESOLVED = "unresolved"
VERDICT_ORDER = (SLOWER, FASTER, UNCHANGED, UNRESOLVED)
# Not a verdict but an outcome: too few samples for p < alpha, so the case was not judged
# (its verdict is UNCHANGED). Counted apart from the verdicts.
UNDETECTABLE = "undetectable"
# Not verdicts either: a case with rounds whose own noise floor reaches the smallest
# change the gate calls (see noise_floor_rule) is UNSTABLE and not gated. Counted only
# when present, so comparisons without rounds report exactly what they always did.
UNSTABLE = "unstable"
# A case whose samples on either side fall in two levels (stats.find_modes) is BIMODAL:
# a median between two levels describes neither, so it is not gated; each level's
# median and share are reported, level by level when both sides are bimodal.
BIMODAL = "bimodal"
# A paired case whose starved pairs leave it no change to call is STARVED (``CaseEvidence.pairs_starve``), in either
# of two ways. Its pairs starved on the base alone in some pairs and on the head alone in others
# (``starved_both_ways``): a starved sample counts at the least its ns/op can be, so the first kind of pair bounds
# head/base from above and the second from below, and their mean is bounded neither way. Or it has fewer rounds with
# a ratio than the paired rule calls a change from, and would have had them but for rounds in which every pair starved
# on both sides (``starved_short``): such a case is coarser than its samples, not short of a run, and the ratio of its
# remaining rounds is a coin's throw either way (docs/findings/2026-11-30-check-gate-aa-unjudged-case.md). Not gated,
# no change called. Not one of STARVED_HEAD, STARVED_BASE and STARVED_BOTH below, which say which side's *median* is
# infinite: this case's medians may be finite.
STARVED_PAIRS = "starved"
OUTCOME_ORDER = VERDICT_ORDER + (BIMODAL, UNSTABLE, STARVED_PAIRS, UNDETECTABLE)
ALWAYS_COUNTED = (SLOWER, FASTER, UNCHANGED, UNDETECTABLE)

# Rounds (bench --rounds N: N fresh processes). When both sides have at least
# ROUNDS_MIN_FOR_ROUND_STATS rounds, a case is judged on the between-round evidence: a
# Mann-Whitney U test on the round medians (exact), decided for all such cases together with
# Benjamini-Hochberg at false discovery rate alpha (decide_outcomes), and a change of at least
# the threshold; the ratio of the medians of round medians is reported with a hierarchical
# bootstrap CI. A case whose U test cannot reach alpha even alone (2/C(n+m, n) > alpha: fewer
# than MIN_GATE_ROUNDS rounds a side at the default alpha) is undetectable.
ROUNDS_MIN_FOR_ROUND_STATS = 2
# The fewest rounds a side (equal sides) whose U test can reach the default alpha 0.01: 2/C(10, 5) = 0.0079.
MIN_GATE_ROUNDS = 5
# Which side's median is starved (inf: at least half its samples completed no operation).
STARVED_HEAD = "head"
STARVED_BASE = "base"
STARVED_BOTH = "both"

# Tolerance so a change of exactly the threshold (2.2 / 2.0 = 1.1000000000000001) counts.
_RATIO_EPSILON = 1e-9

Samples = Union[Case, np.ndarray]


@dataclass(frozen=True)
class CaseEvidence:
    """What one case's samples show, before any rule is applied: head/base ratio of medians
    (> 1 means head is slower), its CI, the U test's p-value and what the sample or round counts
    allow. ``evidence`` measures it; ``decide_outcomes`` gives it its outcome.

    Medians may be ``inf`` (starved, see stats): the ratio is then ``inf`` (starved in
    head), 0 (starved in base) or NaN (starved in both, never a change).
    """

    key: CaseKey
    base_n: int
    head_n: int
    base_median: float
    head_median: float
    ratio: float
    ci_low: float
    ci_high: float
    p_value: float
    # The smallest p the exact U test can give for these counts (of rounds when ``by_rounds``).
    best_p: float
    base_starved: int = 0
    head_starved: int = 0
    # Rounds (fresh processes) per side; ``by_rounds`` when the case is judged on
    # between-round evidence (both sides have at least ROUNDS_MIN_FOR_ROUND_STATS rounds).
    base_rounds: int = 1
    head_rounds: int = 1
    by_rounds: bool = False
    # The noise floor of each side (stats.noise_floor: the change factor its own rounds
    # show between halves; NaN with one round).
    base_floor: float = math.nan
    head_floor: float = math.nan
    # Each side's two levels when its samples are bimodal (stats.Modes), else None.
    base_modes: Modes | None = None
    head_modes: Modes | None = None
    # A paired case (judge/paired.py): judged on the log ratios of its pairs, ``pairs`` of them in
    # ``paired_rounds`` rounds (base_n and head_n count samples), with the smallest change it could
    # call alone.
    paired: bool = False
    pairs: int = 0
    paired_rounds: int = 0
    resolution: float = math.nan
    # Of a paired case's pairs with a ratio: those in which the base alone starved (each bounds head/base from
    # above) and the head alone (each bounds it from below).
    base_alone_starved_pairs: int = 0
    head_alone_starved_pairs: int = 0
    # Of a paired case's rounds both sides hold, those with no ratio because every pair starved on both sides.
    starved_rounds: int = 0

    @property
    def starved_both_ways(self) -> bool:
        """True when a paired case's pairs starved on the base alone in some pairs and on the head alone in others:
        its ratio mixes upper and lower bounds, and is bounded neither way."""
        return self.base_alone_starved_pairs > 0 and self.head_alone_starved_pairs > 0

    @property
    def starved_short(self) -> bool:
        """True when a paired case not starved both ways has fewer rounds with a ratio than paired.MIN_CALL_ROUNDS,
        and the rounds in which every pair starved on both sides would have made them up: the two kinds of
        STARVED_PAIRS exclude each other, and a case of both is named by the first."""
        return (self.paired and not self.starved_both_ways
                and self.paired_rounds < paired_rule.MIN_CALL_ROUNDS <= self.paired_rounds + self.starved_rounds)

    @property
    def pairs_starve(self) -> bool:
        """True when a paired case's starved pairs leave it no change to call (STARVED_PAIRS)."""
        return self.starved_both_ways or self.starved_short

    @property
    def bimodal(self) -> bool:
        """True when either side's samples fall in two levels (not gated)."""
        return self.base_modes is not None or self.head_modes is not None

    @property
    def noise_floor(self) -> float:
        """The larger side's noise floor (NaN when neither side has 2 rounds)."""
        floors = [f for f in (self.base_floor, self.head_floor) if not math.isnan(f)]
        return max(floors) if floors else math.nan

    @property
    def starved(self) -> str | None:
        """STARVED_HEAD, STARVED_BASE or STARVED_BOTH when a median is starved, else None."""
        return starved_side(self.base_median, self.head_median)


@dataclass(frozen=True)
class CompareRow(CaseEvidence):
    """One case compared: its evidence and its outcome, given once by ``classify``.

    ``outcome`` is one of OUTCOME_ORDER. ``alpha_reachable`` is False when the sample (or round)
    counts could never give the p-value the case needed: it was not judged. ``nearly_called`` is True when
    the case's correction would call it at NEAR_CALL_FACTOR x alpha (``decide_outcomes``).
    """

    outcome: str = field(kw_only=True)
    alpha_reachable: bool = field(kw_only=True)
    nearly_called: bool = field(kw_only=True)

    @property
    def verdict(self) -> str:
        """SLOWER, FASTER or UNRESOLVED when the outcome is that, else UNCHANGED (the JSON ``verdict``)."""
        return self.outcome if self.outcome in (SLOWER, FASTER, UNRESOLVED) else UNCHANGED

    @property
    def changed(self) -> bool:
        """Whether the case was called slower or faster."""
        return self.outcome in (SLOWER, FASTER)

    @property
    def short_of_rounds(self) -> bool:
        """True when the case is undetectable for want of rounds, not of samples: an unpaired case whose
        round counts cannot reach the p needed, or a paired case short of the paired rule's
        MIN_CALL_ROUNDS."""
        return self.outcome == UNDETECTABLE and (self.by_rounds or self.paired)

    @property
    def unstable(self) -> bool:
        """True when the case's noise floor reaches the threshold and it was not called (not gated)."""
        return self.outcome == UNSTABLE

    @property
    def ratio_measures(self) -> bool:
        """Whether the row's ratio measures a change: not with a starved median (its ratio is inf, 0 or undefined),
        nor when its starved pairs leave it no change to call (STARVED_PAIRS)."""
        return self.starved is None and self.outcome != STARVED_PAIRS


def classify(evidence: CaseEvidence, reachable: bool, significant: bool, threshold: float) -> str:
    """The one rule that gives a case its outcome (every consumer asks the row, never re-decides).

    A paired case (two builds alternated sample by sample) is STARVED_PAIRS when its pairs starved on the
    base alone in some pairs and on the head alone in others (``starved_both_ways``: its ratio mixes upper and
    lower bounds, so no change it shows is sound, however many rounds it has), or when rounds in which every pair
    starved on both sides left it short of the rounds the paired rule calls from (``starved_short``); else SLOWER
    or FASTER when its pairs' change is significant and at least 1 + threshold/100, else UNCHANGED: pairing
    cancels the host states that make other cases bimodal or unstable, and its resolution says how small a change
    it could see; one with fewer rounds than the paired rule calls a change from (``reachable``
    false) is UNDETECTABLE. A paired case starved on one side only keeps that rule: its bounds all lean one
    way, toward no change. Otherwise: when either side falls in two levels (a median between them
    describes neither), the change of its levels when both sides have two, both levels moved beyond
    that factor the same way (``level_change``), the counts could reach the p-value needed and the test
    is significant, as for any case (two levels of a few samples each move by chance), else BIMODAL; else
    SLOWER or FASTER when the counts could reach the p-value needed, the test is significant and the change
    factor is at least 1 + threshold/100; else UNSTABLE when the case's noise floor reaches that factor; else
    UNDETECTABLE when the counts could never have given the p-value needed. A case judged and not called is
    UNCHANGED only when its interval lies within the threshold factor either way, else UNRESOLVED
    (``reaches_threshold``).
    """
    if evidence.paired:
        if evidence.pairs_starve:
            return STARVED_PAIRS
        if not reachable:
            return UNDETECTABLE
        if significant:
            return judge_change(evidence.ratio, threshold)
        return UNRESOLVED if reaches_threshold(evidence, threshold) else UNCHANGED
    if evidence.bimodal:
        moved = level_change(evidence.base_modes, evidence.head_modes, threshold)
        return moved if reachable and significant else BIMODAL
    change = judge_change(evidence.ratio, threshold) if reachable and significant else UNCHANGED
    if change != UNCHANGED:
        return change
    if is_unstable(evidence.noise_floor, threshold):
        return UNSTABLE
    if not reachable:
        return UNDETECTABLE
    return UNRESOLVED if reaches_threshold(evidence, threshold) else UNCHANGED


def reaches_threshold(evidence: CaseEvidence, threshold: float) -> bool:
    """Whether the case's interval reaches the threshold factor either way (1 + threshold/100 slower or faster):
    then a case not called may still have changed by as much as the gate calls. A starved median has no
    interval that measures a factor, and reaches nothing here."""
    if evidence.starved is not None or not (math.isfinite(evidence.ci_low) and math.isfinite(evidence.ci_high)):
        return False
    return judge_change(evidence.ci_high, threshold) == SLOWER or judge_change(evidence.ci_low, threshold) == FASTER


def level_change(base: Modes | None, head: Modes | None, threshold: float) -> str:
    """A bimodal case's outcome: SLOWER or FASTER when both sides fall in two levels and the low
    levels and the high levels both moved by at least 1 + threshold/100, the same way (the whole
    case moved); else BIMODAL, not gated. Samples that merely shifted between the same two levels
    change the levels' shares, not their medians, and are never called."""
    if base is None or head is None:
        return BIMODAL
    low, high = (judge_change(ratio, threshold) for ratio in level_ratios(base, head))
    return low if low == high and low != UNCHANGED else BIMODAL


def level_ratios(base: Modes, head: Modes) -> tuple[float, float]:
    """Head/base of the low levels' medians and of the high levels' medians."""
    return head.low_median / base.low_median, head.high_median / base.high_median


def _decided(evidence: CaseEvidence, reachable: bool, significant: bool, nearly: bool,
             threshold: float) -> CompareRow:
    fields_of = {f.name: getattr(evidence, f.name) for f in fields(CaseEvidence)}
    return CompareRow(**fields_of, outcome=classify(evidence, reachable, significant, threshold),
                      alpha_reachable=reachable, nearly_called=nearly)


def starved_side(base_median: float, head_median: float) -> str | None:
    """Which side's median is infinite (starved), or None when both are finite."""
    if math.isinf(base_median) and math.isinf(head_median):
        return STARVED_BOTH
    if math.isinf(head_median):
        return STARVED_HEAD
    if math.isinf(base_median):
        return STARVED_BASE
    return None


def _samples(value: Samples) -> np.ndarray:
    return value.ns_per_op if isinstance(value, Case) else np.asarray(value, dtype=float)


def judge_change(ratio: float, threshold: float) -> str:
    """SLOWER/FASTER when the change factor is at least 1 + threshold/100, for a case already found
    significant (``classify`` asks significance first). The factor is symmetric: 1.10× slower
    (ratio 1.1) and 1.10× faster (ratio 1/1.1) are equally large changes. A starved side counts:
    ``inf`` slower, 0 faster, NaN (starved in both) unchanged."""
    if math.isnan(ratio):
        return UNCHANGED
    minimum_factor = 1 + threshold / 100
    if ratio >= minimum_factor - _RATIO_EPSILON:
        return SLOWER
    if ratio == 0 or 1 / ratio >= minimum_factor - _RATIO_EPSILON:
        return FASTER
    return UNCHANGED


def _round_groups(value: Samples) -> list[np.ndarray]:
    """A side's samples split by round (one group when it has no rounds)."""
    if isinstance(value, Case):
        return split_by_round(value.ns_per_op, value.round_ids)
    return [np.asarray(value, dtype=float)]


def is_unstable(floor: float, threshold: float) -> bool:
    """True when a noise floor reaches the smallest change the gate calls.

    The gate *resolves* a change when it is at least the threshold factor
    1 + threshold/100 (smaller ones are "no change" by design). A case whose floor, the
    change factor that 5% of the splits of one side's own rounds into halves reach with no
    change at all, is at least that factor cannot tell a change the gate would call from
    its process-to-process noise: it is unstable and not gated.
    """
    return not math.isnan(floor) and floor >= 1 + threshold / 100 - _RATIO_EPSILON


def evidence(key: CaseKey, base: Samples, head: Samples, alpha: float = DEFAULT_ALPHA) -> CaseEvidence:
    """One case's evidence from its base and head samples (ns/op, lower is better).

    When both sides have rounds (Case with at least ROUNDS_MIN_FOR_ROUND_STATS rounds each) it is
    the between-round evidence: each round is summarized by its median; the ratio is of the
    medians of round medians, its CI a hierarchical bootstrap; ``p_value`` an exact Mann-Whitney U
    test on the round medians; each side's noise floor from its rounds. Otherwise it is the pooled
    samples', as for one process a side: U test and a bootstrap over samples. CIs are at
    confidence 1 - alpha either way.
    """
    base_groups, head_groups = _round_groups(base), _round_groups(head)
    by_rounds = min(len(base_groups), len(head_groups)) >= ROUNDS_MIN_FOR_ROUND_STATS
    if by_rounds:
        a, b = np.concatenate(base_groups), np.concatenate(head_groups)
        estimate = hierarchical_ratio(head_groups, base_groups, confidence=1 - alpha)
        medians = (median_of_round_medians(base_groups), median_of_round_medians(head_groups))
        p_value = mann_whitney_p(round_medians(base_groups), round_medians(head_groups))
        best_p = smallest_p(len(base_groups), len(head_groups))
        floors = (noise_floor(base_groups), noise_floor(head_groups))
    else:
        a, b = _samples(base), _samples(head)
        estimate = bootstrap_ratio_of_medians(b, a, confidence=1 - alpha)
        medians = (median(a), median(b))
        p_value = mann_whitney_p(a, b)
        best_p = smallest_p(a.size, b.size)
        floors = (math.nan, math.nan)
    base_modes, head_modes = _levels(a, b, medians)
    return CaseEvidence(
        key=key, base_n=int(a.size), head_n=int(b.size), base_median=medians[0], head_median=medians[1],
        ratio=estimate.ratio, ci_low=estimate.low, ci_high=estimate.high, p_value=p_value, best_p=best_p,
        base_starved=starved_count(a), head_starved=starved_count(b),
        base_rounds=len(base_groups), head_rounds=len(head_groups), by_rounds=by_rounds,
        base_floor=floors[0], head_floor=floors[1], base_modes=base_modes, head_modes=head_modes,
    )


def _levels(a: np.ndarray, b: np.ndarray, medians: tuple[float, float]) -> tuple[Modes | None, Modes | None]:
    """Each side's two levels (stats.find_modes) as CaseEvidence's base_modes and head_modes.

    A case with a starved median has none: the starved side completed no operation in most of
    its samples, slower than either level of the other side, so the starved rule judges it and
    no level of the starved side is there to show."""
    if starved_side(*medians) is not None:
        return None, None
    return find_modes(a), find_modes(b)


def paired_samples(case: Samples) -> dict[tuple[int, int], paired_rule.PairSample] | None:
    """A paired run's samples keyed ``(round, pair)``; None when any sample has no pair (an
    ordinary run) or the samples are not a loaded case."""
    if not isinstance(case, Case) or PAIR_COLUMN not in case.columns:
        return None
    pairs = case.columns[PAIR_COLUMN]
    if pairs.size == 0 or np.isnan(pairs).any():
        return None
    samples = zip(case.ns_per_op, case.columns["elapsed_ns"])
    return {(int(r), int(p)): paired_rule.PairSample(float(ns), float(elapsed))
            for r, p, (ns, elapsed) in zip(case.round_ids, pairs, samples)}


def paired_evidence(key: CaseKey, base: Samples, head: Samples, cases: int, alpha: float = DEFAULT_ALPHA,
                    threshold: float = paired_rule.PAIRED_MIN_EFFECT_PERCENT) -> CaseEvidence | None:
    """One case's evidence from the pairs both sides hold (judge/paired.py), with ``cases`` the
    number of cases decided together; None when either side is not paired or fewer than two pairs
    have a ratio (both sides starved in nearly every pair), so that the unpaired rule judges it."""
    base_pairs, head_pairs = paired_samples(base), paired_samples(head)
    if base_pairs is None or head_pairs is None:
        return None
    rounds = paired_rule.pair_log_ratios(base_pairs, head_pairs)
    if sum(d.size for d in rounds) < 2:
        return None
    found = paired_rule.paired_evidence(rounds, cases=cases, alpha=alpha, min_effect_percent=threshold)
    base_alone, head_alone = paired_rule.starved_alone(base_pairs, head_pairs)
    low, high = found.interval(paired_rule.two_sided_z(alpha, found.rounds))
    base_groups, head_groups = _round_groups(base), _round_groups(head)
    a, b = np.concatenate(base_groups), np.concatenate(head_groups)
    return CaseEvidence(
        key=key, base_n=int(a.size), head_n=int(b.size), base_median=median_of_round_medians(base_groups),
        head_median=median_of_round_medians(head_groups), ratio=found.ratio, ci_low=low, ci_high=high,
        p_value=found.p, best_p=0.0, base_starved=starved_count(a), head_starved=starved_count(b),
        base_rounds=len(base_groups), head_rounds=len(head_groups), paired=True, pairs=found.pairs,
        paired_rounds=found.rounds, resolution=found.resolution, base_alone_starved_pairs=base_alone,
        head_alone_starved_pairs=head_alone,
        starved_rounds=paired_rule.rounds_starved_on_both_sides(base_pairs, head_pairs))


def compare_samples(key: CaseKey, base: Samples, head: Samples,
                    threshold: float = DEFAULT_THRESHOLD_PERCENT,
                    alpha: float = DEFAULT_ALPHA) -> CompareRow:
    """One case compared on its own: ``compare`` of this case alone."""
    return decide_outcomes([evidence(key, base, head, alpha)], threshold, alpha)[0]


def compare(base: Mapping[CaseKey, Samples], head: Mapping[CaseKey, Samples],
            threshold: float = DEFAULT_THRESHOLD_PERCENT,
            alpha: float = DEFAULT_ALPHA) -> list[CompareRow]:
    """Compare every case present on both sides; rows in case order.

    Pure and deterministic: the same samples always give the same rows.
    """
    common = sorted(set(base) & set(head), key=CaseKey.sort_key)
    return decide_outcomes([paired_evidence(k, base[k], head[k], len(common), alpha, threshold)
                            or evidence(k, base[k], head[k], alpha) for k in common], threshold, alpha)


def files_are_paired(base: Mapping[CaseKey, Samples], head: Mapping[CaseKey, Samples]) -> bool:
    """Whether every case on both sides records its pairs: the two files of a paired comparison."""
    return all(paired_samples(case) is not None for side in (base, head) for case in side.values())


def decide_outcomes(evidences: list[CaseEvidence], threshold: float, alpha: float) -> list[CompareRow]:
    """Every case's outcome, decided together (the gate's rule; ``classify`` gives each its outcome).

    A case without rounds is significant when its U test gives p < alpha, which its sample counts
    must be able to reach. The cases judged by rounds are decided together: a case is significant
    when the U test on its round medians is, after Benjamini-Hochberg over all those cases at false
    discovery rate ``alpha``. Hundreds of cases tested at alpha each would flag about alpha x cases
    of them on a same-commit pair; this flags none in 1 - alpha of such pairs. The paired cases are a
    family of their own, decided by ``paired_rule.called_together`` (Holm: family-wise).

    Among m cases, Benjamini-Hochberg calls one case whose change is alone only at p <= alpha/m. A case
    whose round counts cannot give so small a p (lone_change_level) is undetectable, not judged: a gate
    that could catch a regression only when many cases regress together would pass the usual one unseen.

    Each row also says whether the same decision at NEAR_CALL_FACTOR x alpha would call it (``nearly_called``)."""
    together = {index for index, case in enumerate(evidences) if decided_together(case)}
    level = lone_change_level(len(together), alpha)

    def reachable_p(index: int, case: CaseEvidence) -> bool:
        if case.paired:
            return case.paired_rounds >= paired_rule.MIN_CALL_ROUNDS
        if not case.by_rounds:
            return case.best_p < alpha
        return case.best_p <= (level if index in together else alpha)

    # Reachable by the exact test's smallest p: with ties scipy's asymptotic p can undercut
    # it (3 tied values a side give 0.047 where no ordering is rarer than 0.1).
    reachable = [reachable_p(index, case) for index, case in enumerate(evidences)]
    judged = [index for index in sorted(together) if reachable[index]]
    # The paired cases are a family of their own, decided by the paired rule's procedure.
    paired = [index for index, case in enumerate(evidences) if case.paired]

    def called_at(rate: float) -> list[bool]:
        called = [case.p_value < rate for case in evidences]
        for family, decide in ((judged, benjamini_hochberg), (paired, paired_rule.called_together)):
            for index, call in zip(family, decide([evidences[i].p_value for i in family], rate)):
                called[index] = call
        return called

    significant, nearly = called_at(alpha), called_at(NEAR_CALL_FACTOR * alpha)
    return [_decided(case, reachable[index], significant[index], nearly[index], threshold)
            for index, case in enumerate(evidences)]


def decided_together(case: CaseEvidence) -> bool:
    """Whether the case is among those judged by rounds and decided together (Benjamini-Hochberg):
    every case with rounds but a paired one, which its own family decides. A bimodal case is among them: its
    levels say which way it moved (level_change), its test whether it did."""
    return case.by_rounds and not case.paired


def lone_change_level(cases: int, alpha: float) -> float:
    """The p-value a change in one case alone must reach among ``cases`` cases decided together:
    Benjamini-Hochberg's first step, alpha / cases."""
    return alpha / max(cases, 1)


def can_call_alone(row: CaseEvidence, level: float) -> bool:
    """Whether the row's round counts can give the p-value ``level`` a lone change needs."""
    return row.best_p <= level


@dataclass(frozen=True)
class LoneChangeLimit:
    """Cases decided together (by rounds) whose U test cannot reach the level a change in one case
    alone needs among ``cases`` (alpha / cases); ``rounds_needed`` a side would reach it. ``base_rounds``
    and ``head_rounds`` are those of the case with the fewest, whose best p is ``best_p``."""

    count: int
    cases: int
    level: float
    base_rounds: int
    head_rounds: int
    best_p: float
    rounds_needed: int


@dataclass(frozen=True)
class JudgingLimits:
    """What limited the judging of a comparison, as counts for the present stage to put in words:
    undetectable cases by what they lacked, cases compared on one process's samples, and cases too
    short of rounds to be called alone among all those decided together."""

    # Undetectable paired cases, by their rounds (fewer than paired.MIN_CALL_ROUNDS).
    paired_rounds: dict[int, int] = field(default_factory=dict)
    # Undetectable cases judged by rounds, by (base rounds, head rounds).
    rounds: dict[tuple[int, int], int] = field(default_factory=dict)
    # Undetectable cases judged on pooled samples, by (base samples, head samples).
    samples: dict[tuple[int, int], int] = field(default_factory=dict)
    # Cases compared on one process's samples a side (no between-round evidence).
    one_process: int = 0
    lone_change: LoneChangeLimit | None = None


def judging_limits(rows: list[CompareRow], alpha: float) -> JudgingLimits:
    """The limits of judging ``rows`` at ``alpha`` (JudgingLimits)."""
    undecided = [r for r in rows if r.outcome == UNDETECTABLE]
    by_rounds = [row for row in rows if decided_together(row)]
    level = lone_change_level(len(by_rounds), alpha)
    short = [row for row in by_rounds if not can_call_alone(row, level)]
    lone_change = None
    if short:
        fewest = min(short, key=lambda row: min(row.base_rounds, row.head_rounds))
        lone_change = LoneChangeLimit(
            count=len(short), cases=len(by_rounds), level=level, base_rounds=fewest.base_rounds,
            head_rounds=fewest.head_rounds, best_p=smallest_p(fewest.base_rounds, fewest.head_rounds),
            rounds_needed=rounds_to_reach(level))
    return JudgingLimits(
        paired_rounds=dict(sorted(Counter(r.paired_rounds for r in undecided if r.paired).items())),
        rounds=dict(sorted(Counter((r.base_rounds, r.head_rounds) for r in undecided if r.by_rounds).items())),
        samples=dict(sorted(Counter((r.base_n, r.head_n) for r in undecided
                                    if not r.by_rounds and not r.paired).items())),
        one_process=sum(1 for row in rows if not row.by_rounds and not row.paired),
        lone_change=lone_change)


@dataclass
class Comparison:
    """Two files compared: rows (slower first, worst first), one-sided cases, warnings, and what limited the
    judging."""

    base: ResultsFile
    head: ResultsFile
    threshold: float
    alpha: float
    rows: list[CompareRow]
    base_only: list[CaseKey] = field(default_factory=list)
    head_only: list[CaseKey] = field(default_factory=list)
    # Problems with the input files (comparable.py): torn rows, runs that differ in settings.
    warnings: list[str] = field(default_factory=list)
    # Why some cases could never be called, and how cases were judged (not a problem with the input).
    limits: JudgingLimits = field(default_factory=JudgingLimits)
    # Per suite, the CI of its geometric-mean ratio (suite_geomean_intervals); absent or NaN
    # when its cases have no rounds to resample.
    suite_intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    # Per slower row, what moved with it (judge/moved.py: switches and kernel time per op).
    moved: dict[CaseKey, WhatMoved] = field(default_factory=dict)

    @property
    def by_rounds(self) -> bool:
        """True when any row was judged on between-round evidence."""
        return any(row.by_rounds for row in self.rows)

    @property
    def counts(self) -> dict[str, int]:
        """Number of rows per outcome (the verdicts and UNDETECTABLE), each present
        (possibly 0); an undetectable case is not counted as unchanged."""
        counted = Counter(row.outcome for row in self.rows)
        return {outcome: counted.get(outcome, 0) for outcome in OUTCOME_ORDER
                if outcome in ALWAYS_COUNTED or counted.get(outcome)}

    @property
    def unstable(self) -> list[CompareRow]:
        """The rows whose noise floor reaches the threshold (not gated)."""
        return [row for row in self.rows if row.outcome == UNSTABLE]

    @property
    def unresolved(self) -> list[CompareRow]:
        """The rows not called whose interval reaches the threshold (not judged for a pass)."""
        return [row for row in self.rows if row.outcome == UNRESOLVED]

    @property
    def bimodal(self) -> list[CompareRow]:
        """The rows whose samples fall in two levels on either side and were not called by their
        levels (level_change): not gated."""
        return [row for row in self.rows if row.outcome == BIMODAL]

    @property
    def starved_pairs(self) -> list[CompareRow]:
        """The paired rows whose starved pairs leave them no change to call (STARVED_PAIRS): not gated."""
        return [row for row in self.rows if row.outcome == STARVED_PAIRS]

    @property
    def undetectable(self) -> list[CompareRow]:
        """The rows whose sample (or round) counts can never decide them (not judged);
        an unstable row is counted as unstable, not here."""
        return [row for row in self.rows if row.outcome == UNDETECTABLE]

    @property
    def slower(self) -> list[CompareRow]:
        """The rows whose outcome is SLOWER: what ``counts`` counts as slower, and what the gate
        fails on (one rule, classify)."""
        return [row for row in self.rows if row.outcome == SLOWER]

    @property
    def suite_geomeans(self) -> dict[str, tuple[float, int]]:
        """Per suite: geometric mean of the head/base ratios and the number of cases in it.

        Cases whose ratio measures nothing (``CompareRow.ratio_measures``: a starved median, ratio inf, 0 or
        undefined, see ``starved_rows``; or STARVED_PAIRS) are left out of both. A suite with only such cases
        has a NaN mean and 0 cases.
        """
        by_suite: dict[str, list[float]] = {}
        for row in self.rows:
            ratios = by_suite.setdefault(row.key.suite, [])
            if row.ratio_measures:
                ratios.append(row.ratio)
        return {s: (geometric_mean(r), len(r)) for s, r in sorted(by_suite.items())}

    @property
    def paired(self) -> bool:
        """True when any row was judged on its pairs (a paired comparison)."""
        return any(row.paired for row in self.rows)

    @property
    def starved_rows(self) -> list[CompareRow]:
        """Rows whose base or head median is starved (inf)."""
        return [row for row in self.rows if row.starved is not None]


# The resolutions a paired comparison's headline counts cases at (present.outcome_text.resolution_summary).
RESOLUTION_BANDS = (1.05, 1.10)


def paired_resolutions(rows: list[CompareRow]) -> tuple[float, ...]:
    """The resolution of every paired case among ``rows`` (empty when none is paired)."""
    return tuple(row.resolution for row in rows if row.paired)


def coarsest_judged(rows: list[CompareRow]) -> float:
    """The largest change that could hide in a paired case the rule judged (NaN when none): an undetectable case
    (too few rounds) bounds nothing, nor does one whose starved pairs leave it no change to call (STARVED_PAIRS), and
    the gate's headline counts them apart."""
    return max((row.resolution for row in rows if row.paired and row.outcome not in (UNDETECTABLE, STARVED_PAIRS)),
               default=math.nan)


def within_bands(resolutions: Iterable[float]) -> tuple[int, ...]:
    """How many of ``resolutions`` reach each of RESOLUTION_BANDS, in the bands' order."""
    return tuple(sum(1 for r in resolutions if r <= band + 1e-9) for band in RESOLUTION_BANDS)


@dataclass(frozen=True)
class ResolutionGroup:
    """The resolutions of one suite's paired cases at one thread count: how many, their median, and how many
    reach each of ``RESOLUTION_BANDS`` (``within``, in the bands' order)."""

    suite: str
    threads: int
    cases: int
    median: float
    within: tuple[int, ...]


def resolution_by_group(rows: list[CompareRow]) -> list[ResolutionGroup]:
    """The paired cases' resolutions per suite and thread count, in suite then thread order, with a last
    group for all of them (suite ``"all"``, threads 0); empty when no case is paired."""
    groups: dict[tuple[str, int], list[float]] = {}
    for row in rows:
        if row.paired:
            groups.setdefault((row.key.suite, row.key.threads), []).append(row.resolution)
    if not groups:
        return []
    everything = [r for resolutions in groups.values() for r in resolutions]

    def group(suite: str, threads: int, resolutions: list[float]) -> ResolutionGroup:
        return ResolutionGroup(suite, threads, len(resolutions), float(np.median(resolutions)),
                               within_bands(resolutions))

    return ([group(suite, threads, resolutions) for (suite, threads), resolutions in sorted(groups.items())]
            + [group("all", 0, everything)])


def _row_order(row: CompareRow) -> tuple[int, float, tuple[object, ...]]:
    rank = OUTCOME_ORDER.index(row.outcome)
    # Starved in head (ratio inf) sorts first among slower, starved in base (0) first
    # among faster; NaN never reaches here as a change.
    severity = -row.ratio if row.verdict == SLOWER else row.ratio if row.verdict == FASTER else 0
    return (rank, severity, row.key.sort_key())


def build_comparison(base: ResultsFile, head: ResultsFile, threshold: float | None = None,
                     alpha: float = DEFAULT_ALPHA, pattern: re.Pattern[str] | None = None) -> Comparison:
    """Compare two loaded files, keeping only cases whose name matches ``pattern``. Without a
    ``threshold`` the smallest change that counts is the paired rule's for the files of a paired
    comparison, DEFAULT_THRESHOLD_PERCENT otherwise.

    Raises AnalyzeError (naming both files) when no case is on both sides.
    """
    base_cases, head_cases, base_only, head_only = matched_cases(base, head, pattern)
    if threshold is None:
        threshold = (paired_rule.PAIRED_MIN_EFFECT_PERCENT if files_are_paired(base_cases, head_cases)
                     else DEFAULT_THRESHOLD_PERCENT)
    rows = compare(base_cases, head_cases, threshold, alpha)
    rows.sort(key=_row_order)
    return Comparison(
        base=base,
        head=head,
        threshold=threshold,
        alpha=alpha,
        rows=rows,
        base_only=base_only,
        head_only=head_only,
        warnings=file_warnings(base, head) + run_warnings(base, head) + unknown_settings_warnings(base, head),
        limits=judging_limits(rows, alpha),
        suite_intervals=suite_geomean_intervals(rows, base_cases, head_cases, 1 - alpha),
        moved=slower_signals(rows, base, head, base_cases, head_cases),
    )


def slower_signals(rows: list[CompareRow], base: ResultsFile, head: ResultsFile,
                   base_cases: Mapping[CaseKey, Case],
                   head_cases: Mapping[CaseKey, Case]) -> dict[CaseKey, WhatMoved]:
    """What moved with each row called slower (judge/moved.py), by its key; not for a starved
    median, whose samples that completed nothing have no signal per operation."""
    slower = [row for row in rows if row.outcome == SLOWER and row.starved is None]
    if not slower:
        return {}
    base_rows, head_rows = role_rows(base_cases.values()), role_rows(head_cases.values())
    found = {}
    for row in slower:
        b, h = base_cases[row.key], head_cases[row.key]
        found[row.key] = what_moved(row.key, b, h, base.logical_cpus, head.logical_cpus, row.head_median,
                                    role_siblings(b, base_rows), role_siblings(h, head_rows))
    return found


def suite_geomean_intervals(rows: list[CompareRow], base: Mapping[CaseKey, Samples],
                            head: Mapping[CaseKey, Samples], confidence: float) -> dict[str, tuple[float, float]]:
    """Per suite, the CI of the geometric-mean ratio over the same cases ``suite_geomeans`` uses
    (those whose ratio measures a change): a bootstrap over rounds, each side's rounds drawn once for
    all its cases (stats.geomean_interval), or, when every such case was judged on its pairs, the
    comparison's rounds drawn once for all of them (paired.geomean_interval). NaN ends when a case
    of an unpaired suite has fewer than 2 rounds a side."""
    by_suite: dict[str, list[CompareRow]] = {}
    for row in rows:
        chosen = by_suite.setdefault(row.key.suite, [])
        if row.ratio_measures:
            chosen.append(row)
    intervals = {}
    for suite, chosen in sorted(by_suite.items()):
        if not chosen:
            intervals[suite] = (math.nan, math.nan)
        elif all(row.paired for row in chosen):
            intervals[suite] = paired_rule.geomean_interval(
                [_round_median_log_ratios(base[row.key], head[row.key]) for row in chosen], confidence)
        else:
            intervals[suite] = geomean_interval([_round_groups(base[row.key]) for row in chosen],
                                                [_round_groups(head[row.key]) for row in chosen], confidence)
    return intervals


def paired_round_log_ratios(base: ResultsFile, head: ResultsFile) -> dict[CaseKey, dict[int, float]]:
    """Each case both files paired: its median log ratio (head over base) in each round, by round id."""
    found = {}
    for key, case in base.cases.items():
        base_pairs = paired_samples(case)
        head_pairs = paired_samples(head.cases[key]) if key in head.cases else None
        if base_pairs is not None and head_pairs is not None:
            found[key] = _median_by_round(base_pairs, head_pairs)
    return found


def _round_median_log_ratios(base: Samples, head: Samples) -> dict[int, float]:
    """A paired case's median log ratio in each round, by round id."""
    base_pairs, head_pairs = paired_samples(base), paired_samples(head)
    assert base_pairs is not None and head_pairs is not None, "a paired case's samples"
    return _median_by_round(base_pairs, head_pairs)


def _median_by_round(base_pairs: Mapping[tuple[int, int], paired_rule.PairSample],
                     head_pairs: Mapping[tuple[int, int], paired_rule.PairSample]) -> dict[int, float]:
    by_round = paired_rule.pair_log_ratios_by_round(base_pairs, head_pairs)
    return {round_id: float(np.median(d)) for round_id, d in by_round.items()}
