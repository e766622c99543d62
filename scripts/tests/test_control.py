"""The same-code control's rule (analyze_lib/judge/control.py) and its words: a group of enough cases moved only when
the median of its cases is beyond the line the same way in every round. Synthetic rounds, known answers; each rule
has its negative control."""

from __future__ import annotations

import math

from analyze_lib.files.model import CaseKey
from analyze_lib.judge.control import CONTROL_LINE, FASTER, MIN_CONTROL_CASES, SLOWER, SuiteControl, suite_controls
from analyze_lib.present.control_text import control_headline, control_markdown

ENOUGH = MIN_CONTROL_CASES


def key(suite: str, variant: str) -> CaseKey:
    return CaseKey(suite, "bench", variant, 1, "")


def rounds(*factors: float) -> dict[int, float]:
    """A case's median log ratio in rounds 1, 2, … from its change in each."""
    return {index: math.log(factor) for index, factor in enumerate(factors, start=1)}


def test_a_suite_moved_when_beyond_the_line_the_same_way_in_every_round():
    assert SuiteControl("s", ENOUGH, (1.05, 1.04, 1.10)).moved == SLOWER
    assert SuiteControl("s", ENOUGH, (0.95, 0.96, 0.90)).moved == FASTER


def test_one_round_within_the_line_or_the_other_way_is_no_move():
    # The negative controls of the one above: the same suites with one round that does not agree.
    assert SuiteControl("s", ENOUGH, (1.05, 1.02, 1.10)).moved is None
    assert SuiteControl("s", ENOUGH, (1.05, 0.95, 1.10)).moved is None
    assert SuiteControl("s", ENOUGH, (0.95, 0.99, 0.90)).moved is None


def test_one_round_moves_nothing():
    assert SuiteControl("s", ENOUGH, (2.0,)).moved is None
    assert SuiteControl("s", ENOUGH, (2.0, 2.0)).moved == SLOWER


def test_a_group_of_too_few_cases_is_not_judged_however_far_it_moved():
    few = SuiteControl("s", ENOUGH - 1, (2.0, 2.0, 2.0))
    assert not few.judged and few.moved is None
    assert SuiteControl("s", ENOUGH, (2.0, 2.0, 2.0)).judged


def test_the_change_is_the_median_of_the_suites_cases_in_each_round():
    # Most of a suite's cases 1.10× slower in every round: the median moves. Fewer than half (the control): it does
    # not, however far those moved; the rule cannot see a move of fewer than half a suite's cases.
    half = ENOUGH // 2
    most = {key("once", f"v{i}"): rounds(1.10, 1.10, 1.10) for i in range(half + 1)}
    most |= {key("once", f"w{i}"): rounds(1.0, 1.0, 1.0) for i in range(half - 1)}
    few = {key("wait", f"v{i}"): rounds(5.0, 5.0, 5.0) for i in range(half - 1)}
    few |= {key("wait", f"w{i}"): rounds(1.0, 1.0, 1.0) for i in range(half + 1)}
    once, wait = suite_controls(most | few)
    assert (once.suite, once.cases, once.moved) == ("once", ENOUGH, SLOWER)
    assert once.changes == tuple(math.exp(math.log(1.10)) for _ in range(3))
    assert (wait.suite, wait.cases, wait.moved) == ("wait", ENOUGH, None)


def test_the_smaller_suites_are_judged_together():
    cases = {key("a", f"v{i}"): rounds(1.2, 1.2, 1.2) for i in range(ENOUGH // 2)}
    cases |= {key("b", f"v{i}"): rounds(1.2, 1.2, 1.2) for i in range(ENOUGH // 2)}
    cases |= {key("big", f"v{i}"): rounds(1.0, 1.0, 1.0) for i in range(ENOUGH)}
    big, together = suite_controls(cases)
    assert (big.suite, big.moved) == ("big", None)
    assert (together.suite, together.cases, together.moved) == ("a and b together", ENOUGH, SLOWER)
    # Its negative control: one small suite alone is too few.
    lone, = suite_controls({key("a", f"v{i}"): rounds(1.2, 1.2, 1.2) for i in range(ENOUGH // 2)})
    assert (lone.suite, lone.judged, lone.moved) == ("a", False, None)


def test_a_round_without_a_ratio_is_left_out_of_that_round():
    control, = suite_controls({key("once", "a"): {1: math.log(1.2), 2: math.nan},
                               key("once", "b"): {1: math.log(1.4), 2: math.log(1.1)}})
    assert control.changes == (math.exp((math.log(1.2) + math.log(1.4)) / 2), 1.1)


def test_the_headline_names_what_moved_and_says_when_nothing_did_or_nothing_was_judged():
    still = SuiteControl("harness", 25, (1.0, 1.01, 0.99))
    assert control_headline([still]) == f"no suite moved beyond {CONTROL_LINE:g}× in all 3 rounds (1 suite)"
    small = SuiteControl("a", 3, (2.0, 2.0, 2.0))
    assert control_headline([still, small]) == \
        f"no suite moved beyond {CONTROL_LINE:g}× in all 3 rounds (1 suite; 1 group too small to judge)"
    assert control_headline([small]) == f"not judged: 3 cases, fewer than the {ENOUGH} it needs"
    slower = SuiteControl("once", 134, (1.2, 1.1, 1.3))
    assert control_headline([still, slower]) == \
        "FAILED, moved although the code is identical, a finding: once (134 cases) 1.10× or more slower in every round"
    faster = SuiteControl("wait", 141, (0.8, 0.9, 0.85))
    assert control_headline([faster]).startswith("passed, moved although the code is identical")
    assert control_headline([]) == "nothing paired to judge"


def test_the_table_gives_each_suites_rounds():
    lines = control_markdown([SuiteControl("once", 134, (1.2, 1.1, 1.3)), SuiteControl("wait", 141, (1.0, 0.99)),
                              SuiteControl("a", 3, (1.0, 1.0))])
    assert "| once | 134 | 1.200×, 1.100×, 1.300× | slower |" in lines
    assert "| wait | 141 | 1.000×, 0.990× | no |" in lines
    assert f"| a | 3 | 1.000×, 1.000× | not judged: fewer than {ENOUGH} cases |" in lines
    assert lines[0].startswith("**The control** (3 rounds of every case, paired)")
