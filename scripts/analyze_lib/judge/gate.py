"""The gate's decision: from a Comparison to a status and an exit code, with the facts behind it.

A gate passes only when it could have failed: every base case was measured in head
(or the user said a filtered head is fine), at least one case could be decided, no
decided case and no suite is slower, and nothing it could not judge stands against a pass
(pass_evidence: cases not judged that moved, most cases not judged, the machine's canary
moved in separate runs). The rule, stated once: docs/comparison-rule.md#when-the-gate-may-pass.
``decide_gate()`` is pure; present.gate_text says it in words.
``decide_counts_gate()`` is the same for counts files, whose cases are always decided and
fail the gate when worse (more instructions or allocations per op).
"""

from __future__ import annotations

import math
from typing import Any, Iterable
from dataclasses import dataclass, replace

from .compare import Comparison, paired_resolutions
from .counts_compare import CountsComparison
from .pass_evidence import PassEvidence, pass_evidence
from ..exit_codes import EXIT_INCOMPLETE, EXIT_INCONCLUSIVE, EXIT_PASSED, EXIT_REGRESSION
from ..files.model import CaseKey

# Statuses, in order of precedence when several apply: a regression found is a fact
# whatever else is wrong; a head missing cases is a broken run (rerun it); a gate that
# could decide nothing needs more samples.
REGRESSION = "regression"
INCOMPLETE = "incomplete"
INCONCLUSIVE = "inconclusive"
PASSED = "passed"

EXIT_CODES = {
    PASSED: EXIT_PASSED,
    REGRESSION: EXIT_REGRESSION,
    INCONCLUSIVE: EXIT_INCONCLUSIVE,
    INCOMPLETE: EXIT_INCOMPLETE,
}

# Raising --threshold above the unstable cases' noise floors is advice only while their floors are at
# most this factor: a gate that resolves only changes coarser than 2x resolves nothing worth gating.
MODEST_NOISE_FLOOR = 2.0


def threshold_would_help(noise_floors: Iterable[float]) -> bool:
    """Whether raising --threshold above these noise floors (factors, e.g. 1.3 for 30%) leaves a gate
    worth having: every floor finite and at most MODEST_NOISE_FLOOR."""
    floors = list(noise_floors)
    return bool(floors) and all(math.isfinite(floor) and floor <= MODEST_NOISE_FLOOR for floor in floors)


def _status(failing: int, missing: tuple[CaseKey, ...], allow_missing: bool, head_incomplete: str | None,
            none_decided: bool, untrusted: bool = False, unsupported: bool = False) -> str:
    """The gate's status by the one order of precedence, for timing and counts alike: REGRESSION
    when any case fails it (slower, or worse), unless the comparison is ``untrusted`` (the machine
    moved: INCONCLUSIVE); then INCOMPLETE when head's run did not complete or base cases are
    ``missing`` from head (unless ``allow_missing``), then INCONCLUSIVE when ``none_decided`` (no
    compared case could be decided) or a pass is ``unsupported`` (PassEvidence.blocks_pass), else
    PASSED."""
    if failing:
        return INCONCLUSIVE if untrusted else REGRESSION
    if head_incomplete or (missing and not allow_missing):
        return INCOMPLETE
    if none_decided or unsupported:
        return INCONCLUSIVE
    return PASSED


class _GateOutcome:
    """What every gate decision shares: its exit code and the head of its JSON. Needs the field ``status``."""

    status: str  # a field of each subclass (a dataclass); declared here only for the type checker

    @property
    def exit_code(self) -> int:
        """What the process exits with (EXIT_CODES)."""
        return EXIT_CODES[self.status]

    @property
    def passed(self) -> bool:
        """True only for PASSED."""
        return self.status == PASSED

    def _json_head(self) -> dict[str, Any]:
        """The first keys of every gate object in --format json, in their order."""
        return {"status": self.status, "passed": self.passed, "exit_code": self.exit_code}


@dataclass(frozen=True)
class GateDecision(_GateOutcome):
    """The gate's outcome for one comparison, with the facts behind it.

    ``missing`` are the base cases head lacks (after --filter); ``undetectable`` the
    compared cases whose sample counts can never give p < alpha, so they were not judged.
    """

    status: str
    slower: int
    compared: int
    base_total: int
    missing: tuple[CaseKey, ...]
    undetectable: tuple[CaseKey, ...]
    undetectable_sizes: tuple[tuple[int, int], ...]
    allow_missing: bool
    alpha: float
    # Cases with rounds whose noise floor reaches the threshold (not gated), each with
    # its floor; and the threshold, which names the change the gate resolves.
    unstable: tuple[tuple[CaseKey, float], ...] = ()
    threshold: float = 10.0
    # True when every undetectable case has rounds (too few of them) rather than samples.
    undetectable_by_rounds: bool = False
    # Cases whose samples fall in two levels on either side (not gated).
    bimodal: tuple[CaseKey, ...] = ()
    # The resolution of each paired case (compare.paired_resolutions); empty when none is paired.
    paired_resolutions: tuple[float, ...] = ()
    # Why head is known to be incomplete (loader.incompleteness), or None.
    head_incomplete: str | None = None
    # What stands against a pass beyond the cases' outcomes (pass_evidence).
    evidence: PassEvidence = PassEvidence()

    # Cases not called whose interval reaches the threshold (compare.UNRESOLVED): judged, not resolved.
    unresolved: tuple[CaseKey, ...] = ()
    # Paired cases whose starved pairs leave them no change to call (compare.STARVED_PAIRS): not gated.
    starved_pairs: tuple[CaseKey, ...] = ()
    # Of those, the ones left short of the rounds a call needs by rounds starved on both sides
    # (compare.CaseEvidence.starved_short); the others starved both ways.
    starved_short: tuple[CaseKey, ...] = ()

    @property
    def not_gated(self) -> int:
        """How many compared cases the gate could not judge (undetectable, unstable, bimodal or starved)."""
        return len(self.undetectable) + len(self.unstable) + len(self.bimodal) + len(self.starved_pairs)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (the ``gate`` object of --format json)."""
        return {
            **self._json_head(),
            "slower": self.slower,
            "missing": len(self.missing),
            "undetectable": len(self.undetectable),
            "allow_missing": self.allow_missing,
            # Only when present, so documents without rounds keep their exact shape.
            **({"unstable": len(self.unstable)} if self.unstable else {}),
            **({"bimodal": len(self.bimodal)} if self.bimodal else {}),
            **({"starved": len(self.starved_pairs)} if self.starved_pairs else {}),
            **({"unresolved": len(self.unresolved)} if self.unresolved else {}),
            **({"head_incomplete": self.head_incomplete} if self.head_incomplete else {}),
            # What pass_evidence found, only when it found it.
            **({"suites_slower": [shift.suite for shift in self.evidence.suites_slower]}
               if self.evidence.suites_slower else {}),
            **({"not_judged_slower": len(self.evidence.unseen_slower)} if self.evidence.unseen_slower else {}),
            **({"machine_moved": True} if self.evidence.machine_moved else {}),
        }


def decide_gate(comparison: Comparison, allow_missing: bool = False,
                head_incomplete: str | None = None, suites_judged: bool = True) -> GateDecision:
    """Decide the gate for ``comparison``; ``allow_missing`` stops base cases missing
    from head (a head run filtered on purpose) from failing it; ``head_incomplete`` says why
    head's run did not complete (ResultsFile.incomplete), which fails it. ``suites_judged`` False
    leaves whole suites to another rule: in a comparison of two builds of identical code, the control's
    (judge/control.py), so a suite's geometric mean does not fail it here.

    Precedence: REGRESSION (any decided case or suite slower; INCONCLUSIVE instead when the
    machine's canary moved between separate runs), then INCOMPLETE (head incomplete, or cases
    missing unless allowed), then INCONCLUSIVE (no compared case can be decided, or pass_evidence
    stands against a pass), else PASSED. Unstable, bimodal and starved paired cases are never gated
    and always counted and named.
    Cases only in head never fail the gate.
    """
    undetectable = comparison.undetectable
    missing = tuple(comparison.base_only)
    slower = len(comparison.slower)
    evidence = pass_evidence(comparison)
    if not suites_judged:
        evidence = replace(evidence, suites_slower=())
    status = _status(failing=slower + len(evidence.suites_slower), missing=missing, allow_missing=allow_missing,
                     head_incomplete=head_incomplete,
                     none_decided=(len(undetectable) + len(comparison.unstable) + len(comparison.bimodal)
                                   + len(comparison.starved_pairs) == len(comparison.rows)),
                     untrusted=bool(evidence.machine_moved), unsupported=evidence.blocks_pass)
    return GateDecision(
        status=status,
        slower=slower,
        compared=len(comparison.rows),
        base_total=len(comparison.rows) + len(missing),
        missing=missing,
        undetectable=tuple(row.key for row in undetectable),
        undetectable_sizes=tuple(sorted({(row.base_n, row.head_n) for row in undetectable})),
        allow_missing=allow_missing,
        alpha=comparison.alpha,
        unstable=tuple((row.key, row.noise_floor) for row in comparison.unstable),
        threshold=comparison.threshold,
        undetectable_by_rounds=bool(undetectable) and all(row.short_of_rounds for row in undetectable),
        bimodal=tuple(row.key for row in comparison.bimodal),
        unresolved=tuple(row.key for row in comparison.unresolved),
        starved_pairs=tuple(row.key for row in comparison.starved_pairs),
        starved_short=tuple(row.key for row in comparison.starved_pairs if row.starved_short),
        paired_resolutions=paired_resolutions(comparison.rows),
        head_incomplete=head_incomplete,
        evidence=evidence,
    )


@dataclass(frozen=True)
class CountsGateDecision(_GateOutcome):
    """The gate's outcome for a comparison of counts files.

    Counts are exact, so every compared case is decided (there is no INCONCLUSIVE):
    REGRESSION when a case is worse, INCOMPLETE when base cases are missing from head
    (unless allowed), else PASSED. Better cases never fail the gate; they are named, since
    an unexplained improvement is a finding too.
    """

    status: str
    worse: int
    better: int
    compared: int
    base_total: int
    missing: tuple[CaseKey, ...]
    allow_missing: bool
    # As GateDecision.head_incomplete.
    head_incomplete: str | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (the ``gate`` object of --format json)."""
        return {
            **self._json_head(),
            "worse": self.worse,
            "better": self.better,
            "missing": len(self.missing),
            "allow_missing": self.allow_missing,
            **({"head_incomplete": self.head_incomplete} if self.head_incomplete else {}),
        }


def decide_counts_gate(comparison: CountsComparison, allow_missing: bool = False,
                       head_incomplete: str | None = None) -> CountsGateDecision:
    """Decide the gate for a comparison of counts files; ``allow_missing`` and
    ``head_incomplete`` as in decide_gate.

    Precedence: REGRESSION (any case worse), then INCOMPLETE (head incomplete, or cases
    missing unless allowed), else PASSED. Cases only in head never fail the gate.
    """
    missing = tuple(comparison.base_only)
    worse = len(comparison.worse)
    status = _status(failing=worse, missing=missing, allow_missing=allow_missing, head_incomplete=head_incomplete,
                     none_decided=False)
    return CountsGateDecision(
        status=status,
        worse=worse,
        better=len(comparison.better),
        compared=len(comparison.rows),
        base_total=len(comparison.rows) + len(missing),
        missing=missing,
        allow_missing=allow_missing,
        head_incomplete=head_incomplete,
    )
