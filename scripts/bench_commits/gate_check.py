"""The gate check (``--check-gate``), decided without side effects: its comparisons of one build with itself,
with or without a slowdown planted in harness/spin, and whether the gate judged each as it must.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from analyze_lib.exit_codes import EXIT_INCOMPLETE, EXIT_INCONCLUSIVE, EXIT_PASSED, EXIT_REGRESSION
from analyze_lib.judge.compare import FASTER, SLOWER, ResolutionGroup

# The case the gate check plants a slowdown in (bench --spin-scale scales it alone).
SPIN_SUITE = "harness"
SPIN_BENCHMARK = "spin"


@dataclass(frozen=True)
class SpinRow:
    """One harness/spin case in a gate-check comparison: its label, the gate's outcome (slower, unchanged,
    unstable, …) and its noise floor (the larger side's; NaN when it has none)."""

    label: str
    outcome: str
    floor: float

    def describe(self) -> str:
        floor = "" if math.isnan(self.floor) else f", floor {self.floor:.2f}×"
        return f"{self.label} ({self.outcome}{floor})"


# Why a comparison of identical code that flagged no case did not pass, by the gate's exit: a regression with no
# case flagged is a whole suite called slower (the geometric-mean rule:
# docs/findings/2026-11-29-check-gate-aa-suite-rule.md).
_UNPLANTED_FAILURES = {EXIT_REGRESSION: "a whole suite called slower on identical code, no case flagged",
                       EXIT_INCONCLUSIVE: "nothing could be decided",
                       EXIT_INCOMPLETE: "incomplete: a case of one side is missing from the other"}


@dataclass(frozen=True)
class Observed:
    """What one gate-check comparison showed, as the gate saw it.

    ``flagged`` are the cases judged slower or faster, as (label, verdict); ``spin`` are the harness/spin
    cases compared; ``resolutions`` the paired cases' resolutions per suite and thread count (none when the
    runs were not paired).
    """

    compared: int
    flagged: tuple[tuple[str, str], ...]
    spin: tuple[SpinRow, ...]
    unstable: int
    gate_exit: int
    resolutions: tuple[ResolutionGroup, ...] = ()


@dataclass(frozen=True)
class GateCheckSpec:
    """One of the gate check's comparisons: HEAD against HEAD, harness/spin's work scaled ``spin_scale``
    times on side B; ``must_resolve`` says whether the gate must call that in one harness/spin row at least
    (a change it must resolve on any runner it gates), rather than report how far it resolved it.

    Both sides of a planted comparison get ``--spin-scale``, A at 1, written to one width, so that the two
    processes differ in the factor's value and nothing else: not in the length of their arguments, nor in
    what parsing them allocates. (With the option on B alone, an unplanted case was once called faster in B;
    that the arguments were the cause is not proven.)"""

    name: str
    spin_scale: float = 1.0
    must_resolve: bool = False

    @property
    def planted(self) -> bool:
        return self.spin_scale != 1

    @property
    def a_options(self) -> tuple[str, ...]:
        return _spin_scale_options(1.0) if self.planted else ()

    @property
    def b_options(self) -> tuple[str, ...]:
        return _spin_scale_options(self.spin_scale) if self.planted else ()


def _spin_scale_options(factor: float) -> tuple[str, ...]:
    return ("--spin-scale", f"{factor:.2f}")


GATE_CHECKS = (
    GateCheckSpec("A/A"),
    GateCheckSpec("spin ×1.25", 1.25, must_resolve=True),
    GateCheckSpec("spin ×1.10", 1.10),
)
# A quick paired run has few rounds, so the change it must resolve is ×3, and ×1.25 is reported
# (docs/bench-commits.md#the-gates-check---check-gate).
QUICK_PAIRED_GATE_CHECKS = (
    GateCheckSpec("A/A"),
    GateCheckSpec("spin ×3", 3.0, must_resolve=True),
    GateCheckSpec("spin ×1.25", 1.25),
)


def planted_check(factor: float) -> GateCheckSpec:
    """The gate check's comparison with harness/spin slowed ``factor`` times on side B (--plant)."""
    return GateCheckSpec(f"spin ×{factor:.2f}", factor)


def gate_checks(quick: bool, paired: bool) -> tuple[GateCheckSpec, ...]:
    """The gate check's comparisons: ``QUICK_PAIRED_GATE_CHECKS`` for a quick paired check, else
    ``GATE_CHECKS``."""
    return QUICK_PAIRED_GATE_CHECKS if quick and paired else GATE_CHECKS


def judge_check_gate(spec: GateCheckSpec, observed: Observed) -> tuple[bool, str]:
    """Whether a comparison came out as it must, and why in a few words.

    A/A must flag nothing and decide something (a gate that is inconclusive resolves nothing). A planted
    slowdown must flag nothing but harness/spin and never call it faster: those would be the gate's errors.
    Whether it resolves the slowdown is what the runner allows: each harness/spin row not called slower is
    named with its outcome and floor (unstable: its floor reaches the smallest change the gate calls;
    unchanged: not significant among all the cases). ``must_resolve`` asks for one row called slower at
    least: a gate that resolves no such change on this runner fails.
    """
    if not spec.planted:
        if observed.flagged:
            return False, f"flagged {len(observed.flagged)} case(s) of identical code"
        if observed.gate_exit != EXIT_PASSED:
            return False, f"gate exit {observed.gate_exit}: {_UNPLANTED_FAILURES.get(observed.gate_exit, 'not passed')}"
        return True, "nothing flagged"
    if not observed.spin:
        return False, f"no {SPIN_SUITE}/{SPIN_BENCHMARK} case compared"
    spin_labels = {row.label for row in observed.spin}
    others = [label for label, _ in observed.flagged if label not in spin_labels]
    if others:
        return False, f"flagged {len(others)} other case(s): " + ", ".join(others)
    faster = [row.label for row in observed.spin if row.outcome == FASTER]
    if faster:
        return False, "called a slowed-down case faster: " + ", ".join(faster)
    caught = sum(row.outcome == SLOWER for row in observed.spin)
    missed = [row.describe() for row in observed.spin if row.outcome != SLOWER]
    if spec.must_resolve and not caught:
        return False, "resolved in no row: " + ", ".join(missed)
    found = f"{caught} of {len(observed.spin)} {SPIN_SUITE}/{SPIN_BENCHMARK} rows slower"
    return True, found + (f" (not resolved: {', '.join(missed)})" if missed else "") + ", nothing else"
