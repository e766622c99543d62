"""The same-code control's rule, stated once (docs/comparison-rule.md#the-control-of-identical-code).

The cases that run identical code in both builds (every case, when the builds are the same code: bench_commits.
same_code; those a selected comparison leaves out: bench_commits.case_selection) get a control of a few paired
rounds, for what code identity cannot see: the machine, the environment, a file the code reads. A few rounds
call no single case: the paired rule needs ``paired.MIN_CALL_ROUNDS`` before it calls one, because a contended
case's rounds sit on a few levels (where its threads landed), and three rounds that share one level look like a
change. Between two builds of identical code, 3 to 7 of 640 cases moved by 1.5× or more the same way in three
rounds in a row (docs/findings/2026-11-28-a-control-in-three-rounds.md).

So the control judges each **suite** as a whole, whose median over its cases that scatter leaves alone:

- The groups: each suite of at least ``MIN_CONTROL_CASES`` cases; the cases of the smaller suites together, as one.
  A group of fewer cases is **not judged**: the median of a few cases moves as a single case does (of random groups
  of 1, 2, 5, 10 and 20 cases of identical code, 8.7%, 9.7%, 2.5%, 0.6% and 0.07% moved; of 30 and 50, none).
- In each round, a group's **change** is the exponential of the median, over its paired cases, of each case's median
  log ratio (head over base) in that round.
- A group **moved** when it is judged and its change is beyond ``CONTROL_LINE`` in the same direction in every
  control round, and there are at least ``MIN_CONTROL_ROUNDS``. The rule calls nothing else: a case is never called
  by the control.

What it cannot see: a move of fewer than half a group's cases, a move smaller than the line, and any move in a
comparison of fewer than ``MIN_CONTROL_CASES`` cases. ``--all``, or ``--rounds 10`` and more, judge every case on
its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from ..files.model import CaseKey
from . import paired as paired_rule

# A suite whose change is beyond this factor in every control round moved.
CONTROL_LINE = paired_rule.TARGET_RESOLUTION
# The fewest rounds from which a suite can be said to have moved.
MIN_CONTROL_ROUNDS = 2
# The fewest cases a group needs to be judged (the module doc says why).
MIN_CONTROL_CASES = 20

SLOWER = "slower"
FASTER = "faster"


@dataclass(frozen=True)
class SuiteControl:
    """One group in the control (a suite, or the smaller suites together): its name, how many paired cases it has,
    and its change in each round (round order)."""

    suite: str
    cases: int
    changes: tuple[float, ...]

    @property
    def judged(self) -> bool:
        """Whether the group has the cases the rule needs to judge it (MIN_CONTROL_CASES)."""
        return self.cases >= MIN_CONTROL_CASES

    @property
    def moved(self) -> str | None:
        """SLOWER or FASTER when the group moved by the rule above, else None."""
        if not self.judged or len(self.changes) < MIN_CONTROL_ROUNDS:
            return None
        if all(change > CONTROL_LINE for change in self.changes):
            return SLOWER
        if all(change < 1 / CONTROL_LINE for change in self.changes):
            return FASTER
        return None

    @property
    def least_move(self) -> float:
        """The change of the round closest to no change, as a factor >= 1 (the move the rule can vouch for)."""
        return min(max(change, 1 / change) for change in self.changes) if self.changes else math.nan


def suite_controls(round_log_ratios: Mapping[CaseKey, Mapping[int, float]]) -> list[SuiteControl]:
    """Each group's control (the suites of MIN_CONTROL_CASES cases or more, in suite order, then the smaller ones
    together), from each paired case's median log ratio by round id (a case's rounds that hold no ratio, both sides
    starved, are left out of that round)."""
    sizes: dict[str, int] = {}
    for key in round_log_ratios:
        sizes[key.suite] = sizes.get(key.suite, 0) + 1
    small = sorted(suite for suite, size in sizes.items() if size < MIN_CONTROL_CASES)
    pooled = " and ".join(small) if len(small) < 2 else f"{', '.join(small[:-1])} and {small[-1]} together"
    by_group: dict[str, dict[int, list[float]]] = {}
    cases: dict[str, int] = {}
    for key, by_round in round_log_ratios.items():
        group = pooled if key.suite in small else key.suite
        cases[group] = cases.get(group, 0) + 1
        rounds = by_group.setdefault(group, {})
        for round_id, value in by_round.items():
            if math.isfinite(value):
                rounds.setdefault(round_id, []).append(value)
    order = [suite for suite in sorted(by_group) if suite != pooled] + ([pooled] if small else [])
    return [SuiteControl(group, cases[group],
                         tuple(math.exp(float(np.median(values))) for _, values in sorted(by_group[group].items())))
            for group in order]
