"""One function gives a row its outcome: classify, applied once by decide_outcomes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyze_lib.files.model import CaseKey
from analyze_lib.judge.compare import (BIMODAL, FASTER, SLOWER, UNCHANGED, UNDETECTABLE, UNRESOLVED, UNSTABLE,
                                       CaseEvidence, classify, compare, compare_samples, decide_outcomes)
from analyze_lib.judge.stats import Modes, smallest_p
from analyze_lib.present.outcome_text import outcome_text

KEY = CaseKey("once", "hit", "lock", 1)
TWO_LEVELS = Modes(100.0, 0.6, 300.0, 0.4)
# The same two levels, both 1.5x slower.
SLOWER_LEVELS = Modes(150.0, 0.6, 450.0, 0.4)


def _evidence(ratio=1.5, floor=math.nan, modes=None, by_rounds=False, p=1e-6, best_p=1e-9, name="lock",
              paired=False, head_modes=None):
    return CaseEvidence(key=CaseKey("once", "hit", name, 1), base_n=10, head_n=10, base_median=100.0,
                        head_median=100.0 * ratio, ratio=ratio, ci_low=ratio, ci_high=ratio, p_value=p,
                        best_p=best_p, by_rounds=by_rounds, base_rounds=10 if by_rounds else 1,
                        head_rounds=10 if by_rounds else 1, base_floor=floor, head_floor=floor, base_modes=modes,
                        head_modes=head_modes,
                        paired=paired, pairs=40 if paired else 0, paired_rounds=40 if paired else 0)


@pytest.mark.parametrize("evidence, reachable, significant, expected", [
    (_evidence(ratio=1.5), True, True, SLOWER),
    (_evidence(ratio=1 / 1.5), True, True, FASTER),
    (_evidence(ratio=1.05), True, True, UNCHANGED),            # significant but below the threshold
    (_evidence(ratio=1.1), True, True, SLOWER),                # exactly the threshold counts
    (_evidence(ratio=1 / 1.1), True, True, FASTER),            # the factor is symmetric
    (_evidence(ratio=1.5), True, False, UNRESOLVED),           # large, not significant: its interval reaches 1.1
    (_evidence(ratio=1.05), True, False, UNCHANGED),           # not significant, its interval within 1.1 either way
    (_evidence(ratio=1 / 1.2, paired=True), True, False, UNRESOLVED),  # paired: the same rule, faster side
    (_evidence(ratio=1.5), False, True, UNDETECTABLE),         # the counts could never reach the level
    (_evidence(ratio=1.0, floor=1.2), True, False, UNSTABLE),  # not called, floor at least the threshold
    (_evidence(ratio=1.0, floor=1.2), False, False, UNSTABLE),  # unstable wins over undetectable
    (_evidence(ratio=1.5, floor=1.2), True, True, SLOWER),     # a called change is called
    (_evidence(ratio=1.5, modes=TWO_LEVELS), True, True, BIMODAL),  # two levels in base alone: never gated
    (_evidence(modes=TWO_LEVELS, head_modes=SLOWER_LEVELS), True, True, SLOWER),  # both levels moved, significant
    (_evidence(modes=TWO_LEVELS, head_modes=SLOWER_LEVELS), True, False, BIMODAL),  # moved, not significant
    (_evidence(modes=TWO_LEVELS, head_modes=SLOWER_LEVELS), False, True, BIMODAL),  # moved, the level unreachable
    (_evidence(ratio=math.inf), True, True, SLOWER),           # starved in head
    (_evidence(ratio=math.nan), True, True, UNCHANGED),        # starved in both
])
def test_classify_gives_each_evidence_one_outcome(evidence, reachable, significant, expected):
    assert classify(evidence, reachable, significant, threshold=10.0) == expected


def test_the_row_reads_its_outcome_and_never_redecides():
    [row] = decide_outcomes([_evidence(ratio=1.5, modes=TWO_LEVELS, by_rounds=True)], threshold=10.0, alpha=0.01)
    # A bimodal case whose round test is significant is bimodal, not slower: the gate counts it once.
    assert (row.outcome, row.verdict, row.unstable, row.alpha_reachable) == (BIMODAL, UNCHANGED, False, True)
    assert outcome_text(row).startswith("bimodal (not gated)")
    [row] = decide_outcomes([_evidence(ratio=1.0, floor=1.3, by_rounds=True, p=0.5)], threshold=10.0, alpha=0.01)
    assert (row.outcome, row.verdict, row.unstable) == (UNSTABLE, UNCHANGED, True)


def test_decide_outcomes_takes_the_lone_change_level_from_the_cases_decided_together():
    # Ten rounds a side reach 2/C(20, 10) = 1.1e-5: alone (alpha 0.01) a case is reachable; among
    # 1,000 round-judged cases (level 1e-5) it is not.
    best = smallest_p(10, 10)
    one = decide_outcomes([_evidence(by_rounds=True, best_p=best)], 10.0, 0.01)
    many = decide_outcomes([_evidence(by_rounds=True, best_p=best, name=f"v{i}") for i in range(1000)], 10.0, 0.01)
    assert one[0].outcome == SLOWER and one[0].alpha_reachable
    assert {row.outcome for row in many} == {UNDETECTABLE} and not any(row.alpha_reachable for row in many)


def test_pooled_cases_need_p_strictly_below_alpha():
    # The pooled rule is strict: a best p equal to alpha cannot be reached.
    [row] = decide_outcomes([_evidence(best_p=0.01, p=0.01)], 10.0, 0.01)
    assert row.outcome == UNDETECTABLE
    [row] = decide_outcomes([_evidence(best_p=0.001, p=0.009)], 10.0, 0.01)
    assert row.outcome == SLOWER


def test_one_case_compared_alone_is_compare_of_that_case():
    base, head = [10.0 + i for i in range(15)], [20.0 + i for i in range(15)]
    assert compare_samples(KEY, base, head) == compare({KEY: base}, {KEY: head})[0]


def _family(third_p: float, paired: bool) -> list[str]:
    """Outcomes of 500 cases decided together: two real changes (p 1e-12), a third case at ``third_p``
    and 497 unchanged ones."""
    cases = [_evidence(ratio=1.2, p=1e-12, by_rounds=True, paired=paired, name=f"real{i}") for i in range(2)]
    cases.append(_evidence(ratio=1.3, p=third_p, by_rounds=True, paired=paired, name="third"))
    cases += [_evidence(ratio=1.0, p=0.5, by_rounds=True, paired=paired, name=f"v{i}") for i in range(497)]
    return [row.outcome for row in decide_outcomes(cases, 2.0, 0.01)][:3]


def test_paired_cases_are_decided_family_wise_and_unpaired_ones_by_false_discovery_rate():
    # 2.5 x 0.01 / 500: above Holm's third bar (0.01 / 498) and the lone bar, below BH's third (3 x 0.01 / 500).
    between = 2.5 * 0.01 / 500
    assert _family(between, paired=False) == [SLOWER, SLOWER, SLOWER]  # BH: lifted by the two real changes
    assert _family(between, paired=True) == [SLOWER, SLOWER, UNRESOLVED]  # Holm: not (its interval reaches 1.1)
    # The control: at the lone bar (the resolution's) a paired case is called, beside real changes or not.
    assert _family(0.01 / 500, paired=True) == [SLOWER, SLOWER, SLOWER]


def test_a_bimodal_case_is_among_the_cases_decided_together():
    # Its levels are called only when its round test is significant among all the cases decided together, as any
    # case's change is: two levels that move by chance (a level of two samples moves 5% easily) are no change.
    # 5 rounds a side reach p = 0.0079 at best; with the bimodal case counted, the lone level is 0.01 / 2 and
    # neither case is reachable. The control: alone, the same plain case is called.
    best = smallest_p(5, 5)
    plain = _evidence(by_rounds=True, best_p=best, p=best)
    two = _evidence(by_rounds=True, best_p=best, p=best, modes=TWO_LEVELS, head_modes=SLOWER_LEVELS, name="two")
    assert [row.outcome for row in decide_outcomes([plain, two], 10.0, 0.01)] == [UNDETECTABLE, BIMODAL]
    assert [row.outcome for row in decide_outcomes([plain], 10.0, 0.01)] == [SLOWER]
    assert [row.outcome for row in decide_outcomes([two], 10.0, 0.01)] == [SLOWER]


def test_a_starved_median_is_judged_as_starved_never_as_a_level():
    # Base in two levels, head starved in every sample: slower (starved in head), not bimodal.
    two_levels = np.array([100.0] * 8 + [300.0] * 7)
    row = compare_samples(KEY, two_levels, np.full(15, np.inf))
    assert (row.base_modes, row.outcome, outcome_text(row)) == (None, SLOWER, "slower (starved in head)")
    assert compare_samples(KEY, two_levels, two_levels * 1.01).outcome == BIMODAL  # the control: not starved
