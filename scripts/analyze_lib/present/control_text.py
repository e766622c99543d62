"""The same-code control in words: its table for bench-commits' Markdown, and its part of the verdict line
(judge/control.py states the rule)."""

from __future__ import annotations

from typing import Sequence

from ..fmt import fmt_count
from ..judge.control import CONTROL_LINE, MIN_CONTROL_CASES, SLOWER, SuiteControl


def control_markdown(suites: Sequence[SuiteControl]) -> list[str]:
    """The control's Markdown lines: the rule in one sentence, then each suite's change in each round."""
    lines = [f"**The control** ({_rounds(suites)} of every case, paired): a suite of at least {MIN_CONTROL_CASES} "
             f"cases (or the smaller ones together) **moved** when the median of its cases' changes is beyond "
             f"{CONTROL_LINE:g}× the same way in every round; so few rounds call no single case "
             "(docs/comparison-rule.md#the-control-of-identical-code).", ""]
    if not suites:
        return [*lines, "No case was paired on both sides: the control judged nothing."]
    lines += ["| suite | cases | change in each round (head / base) | moved |", "| --- | ---: | --- | --- |"]
    for suite in suites:
        changes = ", ".join(f"{change:.3f}×" for change in suite.changes)
        verdict = suite.moved or "no" if suite.judged else f"not judged: fewer than {MIN_CONTROL_CASES} cases"
        lines.append(f"| {suite.suite} | {suite.cases} | {changes} | {verdict} |")
    return lines


def control_headline(suites: Sequence[SuiteControl]) -> str:
    """The control's part of the verdict line: the suites that moved, each by the least move of its rounds, or that
    none did."""
    moved = [suite for suite in suites if suite.moved]
    judged = [suite for suite in suites if suite.judged]
    if not suites:
        return "nothing paired to judge"
    if not judged:
        cases = sum(suite.cases for suite in suites)
        return f"not judged: {fmt_count(cases, 'case')}, fewer than the {MIN_CONTROL_CASES} it needs"
    if not moved:
        unjudged = len(suites) - len(judged)
        return (f"no suite moved beyond {CONTROL_LINE:g}× in all {_rounds(suites)} "
                f"({fmt_count(len(judged), 'suite')}" + (f"; {unjudged} group too small to judge" if unjudged else "")
                + ")")
    words = "; ".join(f"{suite.suite} ({fmt_count(suite.cases, 'case')}) {suite.least_move:.2f}× or more "
                      f"{suite.moved} in every round" for suite in moved)
    status = "FAILED" if any(suite.moved == SLOWER for suite in moved) else "passed"
    return f"{status}, moved although the code is identical, a finding: {words}"


def _rounds(suites: Sequence[SuiteControl]) -> str:
    return fmt_count(max((len(suite.changes) for suite in suites), default=0), "round")
