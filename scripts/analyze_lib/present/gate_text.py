"""The gate's words: the one-line headline and the further notes of a gate decision (judge.gate), timing or
counts.

The headline starts ``Gate: `` and the word of the decision's exit code (passed, FAILED, INCONCLUSIVE,
INCOMPLETE); a gate that could not pass says in it what would decide the question. The notes are facts the
headline does not say, one sentence each.
"""

from __future__ import annotations

import math

from ..judge.gate import (INCOMPLETE, INCONCLUSIVE, PASSED, REGRESSION, CountsGateDecision, GateDecision,
                          threshold_would_help)
from ..fmt import fmt_count
from .outcome_text import resolution_summary

MISSING_HINT = "interrupted or filtered run? --allow-missing if filtered on purpose"
# An incomplete head fails the gate as missing cases do; no option passes it.
INCOMPLETE_HEAD_HINT = "rerun it to the end"
# What would decide a comparison the gate could not pass, in one line.
DECIDE_HINT = ("to decide it: compare the two builds paired (scripts/bench-commits), gate the counts, "
               "or --filter to the cases that matter")
# The same, for files that are already a paired comparison's (bench-commits' own output).
PAIRED_DECIDE_HINT = ("to decide it: give the paired comparison more time (bench-commits --budget), gate the counts, "
                      "or --filter to the cases that matter")
# What steadies unstable cases (unpaired rounds) when raising --threshold would not be worth it.
STEADY_HINT = "run more rounds, compare the two builds paired (scripts/bench-commits), or leave them out with --filter"
# What would let a paired case whose pairs starved (compare.STARVED_PAIRS) be decided.
STARVED_HINT = "give them longer samples (bench-commits --sample-time) or leave them out with --filter"
# Counts: what a worse and a better case are.
WORSE_TEXT = "more instructions or allocations per op"
BETTER_TEXT = "fewer instructions or allocations per op"


def headline(gate: GateDecision | CountsGateDecision) -> str:
    """The verdict in one line, e.g. ``Gate: FAILED, 2 cases slower``."""
    if isinstance(gate, CountsGateDecision):
        return _counts_headline(gate)
    return _timing_headline(gate)


def notes(gate: GateDecision | CountsGateDecision) -> list[str]:
    """Further facts the headline does not say, one sentence each."""
    found = _missing_notes(gate)
    if isinstance(gate, CountsGateDecision):
        if gate.better and not gate.passed:
            found.append(f"Also: {_better_text(gate)}")
        return found
    if gate.undetectable and gate.status in (REGRESSION, INCOMPLETE):
        found.append(f"Also: {_undetectable_text(gate)}, not judged")
    if gate.unstable and (gate.status in (REGRESSION, INCOMPLETE) or gate.bimodal or gate.starved_pairs):
        found.append(f"Also: {_unstable_text(gate)}")
    if gate.bimodal:
        found.append(f"Also: {_bimodal_text(gate)}")
    if gate.starved_pairs and _starved_text(gate) not in _timing_headline(gate):
        found.append(f"Also: {_starved_text(gate)}")
    if gate.unresolved and gate.status == PASSED and gate.not_gated:  # a pass whose headline names others
        found.append(f"Also: {_unresolved_text(gate)}")
    if gate.undetectable and (gate.bimodal or gate.starved_pairs) and gate.status not in (REGRESSION, INCOMPLETE):
        found.append(f"Also: {_undetectable_text(gate)}, not judged")
    return found


def _missing_text(gate) -> str:
    return f"{len(gate.missing)} of {gate.base_total} base cases are missing from head"


def _incomplete_head_headline(gate) -> str:
    return f"Gate: INCOMPLETE, head is incomplete: {gate.head_incomplete} ({INCOMPLETE_HEAD_HINT})"


def _missing_notes(gate) -> list[str]:
    """The notes on missing cases and an incomplete head when the headline does not already say them."""
    found = []
    if gate.head_incomplete and gate.status != INCOMPLETE:
        found.append(f"Also: head is incomplete: {gate.head_incomplete}")
    if gate.missing and gate.allow_missing:
        found.append(f"{_missing_text(gate)}: not gated (--allow-missing)")
    elif gate.missing and (gate.status != INCOMPLETE or gate.head_incomplete):
        found.append(f"Also: {_missing_text(gate)} ({MISSING_HINT})")
    return found


def _undetectable_text(gate: GateDecision) -> str:
    if gate.undetectable_by_rounds:
        return f"{len(gate.undetectable)} of {gate.compared} cases undetectable (too few rounds)"
    return (f"{len(gate.undetectable)} of {gate.compared} cases undetectable (too few samples: "
            f"p can never be below alpha {gate.alpha:g})")


def _unstable_text(gate: GateDecision) -> str:
    return (f"{len(gate.unstable)} of {gate.compared} cases unstable, not gated: their rounds' "
            f"noise floor is at least the {1 + gate.threshold / 100:.2f}× change the gate resolves")


def _bimodal_text(gate: GateDecision) -> str:
    return (f"{len(gate.bimodal)} of {gate.compared} cases bimodal, not gated: their samples "
            "fall in two levels, and a median between them describes neither")


def _starved_text(gate: GateDecision) -> str:
    """The paired cases whose starved pairs leave them no change to call, by kind (compare.STARVED_PAIRS)."""
    short = len(gate.starved_short)
    kinds = [(len(gate.starved_pairs) - short,
              "starved on the base alone in some pairs and on the head alone in others (a ratio that mixes bounds in "
              "both directions, so no change is called)"),
             (short, "starved on both sides in every pair of so many rounds that too few were left to call a change "
              "from")]
    present = [(count, text) for count, text in kinds if count]
    one_kind = len(present) == 1
    said = [f"{'each' if one_kind else count} {text}" for count, text in present]
    return f"{len(gate.starved_pairs)} of {gate.compared} cases starved, not gated: {'; '.join(said)}"


def _passed_among_decided(decided: int, rest: str) -> str:
    return f"Gate: passed, no case slower among {fmt_count(decided, 'decidable case')}; {rest}"


def _decide_hint(gate: GateDecision) -> str:
    """What would decide ``gate``: more of what made its files (paired ones), or the paired comparison."""
    return PAIRED_DECIDE_HINT if gate.paired_resolutions else DECIDE_HINT


def _evidence_headline(gate: GateDecision) -> str | None:
    """The headline when pass_evidence decided the status, else None."""
    evidence = gate.evidence
    if gate.status == REGRESSION:
        called = [f"{fmt_count(gate.slower, 'case')} slower"] if gate.slower else []
        called += [f"suite {shift.describe()} slower" for shift in evidence.suites_slower]
        return "Gate: FAILED, " + "; ".join(called)
    if gate.status != INCONCLUSIVE:
        return None
    if evidence.machine_moved:
        key, ratio = max(evidence.machine_moved, key=lambda moved: abs(math.log(moved[1])))
        would = f"; it would have called {fmt_count(gate.slower, 'case')} slower" if gate.slower else ""
        return (f"Gate: INCONCLUSIVE, the machine moved between the runs: {key.label} (an empty loop no "
                f"pattern's change touches) went {ratio:.2f}×{would}; {_decide_hint(gate)}")
    if gate.compared == gate.not_gated:
        return None
    if evidence.unseen_slower:
        key, ratio = max(evidence.unseen_slower, key=lambda moved: moved[1])
        return (f"Gate: INCONCLUSIVE, no decided case slower, but {fmt_count(len(evidence.unseen_slower), 'case')} it "
                f"could not judge moved {1 + gate.threshold / 100:.2f}× or more (up to {ratio:.2f}×, "
                f"{key.label}); {_decide_hint(gate)}")
    if evidence.mostly_unseen:
        return (f"Gate: INCONCLUSIVE, {gate.not_gated} of {gate.compared} cases could not be judged, too many "
                f"for a pass to mean much; {_decide_hint(gate)}")
    return None


def _unresolved_text(gate: GateDecision) -> str:
    return (f"{len(gate.unresolved)} of {gate.compared} cases not resolved: not called, but their intervals reach "
            f"the {1 + gate.threshold / 100:.2f}× threshold")


def _timing_headline(gate: GateDecision) -> str:
    by_evidence = _evidence_headline(gate)
    if by_evidence:
        return by_evidence
    if gate.paired_resolutions and gate.status == PASSED and not gate.not_gated:
        return (f"Gate: passed, no case slower; it {resolution_summary(gate.paired_resolutions)}"
                + (f"; {_unresolved_text(gate)}" if gate.unresolved else ""))
    if gate.unresolved and gate.status == PASSED and not gate.not_gated:
        return f"Gate: passed, no case slower; {_unresolved_text(gate)}"
    if gate.status == INCOMPLETE and gate.head_incomplete:
        return _incomplete_head_headline(gate)
    if gate.status == INCOMPLETE:
        return f"Gate: INCOMPLETE, {_missing_text(gate)} ({MISSING_HINT})"
    if gate.status == INCONCLUSIVE and gate.bimodal:
        return f"Gate: INCONCLUSIVE, none of the {gate.compared} cases can be decided: {_bimodal_text(gate)}"
    if gate.status == INCONCLUSIVE and gate.starved_pairs:
        return (f"Gate: INCONCLUSIVE, none of the {gate.compared} cases can be decided: {_starved_text(gate)} "
                f"({STARVED_HINT})")
    if (gate.bimodal or gate.starved_pairs) and gate.status == PASSED:
        return _passed_among_decided(gate.compared - gate.not_gated,
                                     f"{gate.not_gated} of {gate.compared} cases not gated")
    if gate.status == INCONCLUSIVE and gate.unstable:
        return (f"Gate: INCONCLUSIVE, none of the {gate.compared} cases can be decided: {_unstable_text(gate)}"
                + (f"; {_undetectable_text(gate)}" if gate.undetectable else "")
                + (" (run more rounds or raise --threshold)"
                   if threshold_would_help(floor for _, floor in gate.unstable) else f" ({STEADY_HINT})"))
    if gate.status == INCONCLUSIVE and gate.undetectable_by_rounds:
        return (f"Gate: INCONCLUSIVE, none of the {gate.compared} cases can be decided: "
                f"{_undetectable_text(gate)} (run more rounds)")
    if gate.status == INCONCLUSIVE:
        if len(gate.undetectable_sizes) == 1:
            [(n_base, n_head)] = gate.undetectable_sizes
            why = f"with {n_base} base and {n_head} head samples"
        else:
            why = "with these sample counts"
        return (f"Gate: INCONCLUSIVE, none of the {gate.compared} cases can be decided: {why} "
                f"p can never be below alpha {gate.alpha:g} (run more samples)")
    if gate.unstable:
        extra = f"; {_undetectable_text(gate)}" if gate.undetectable else ""
        return _passed_among_decided(gate.compared - gate.not_gated, f"{_unstable_text(gate)}{extra}")
    if gate.undetectable:
        why = "too few rounds" if gate.undetectable_by_rounds else "too few samples"
        return _passed_among_decided(gate.compared - len(gate.undetectable),
                                     f"{len(gate.undetectable)} of {gate.compared} cases undetectable ({why})")
    return "Gate: passed, no case slower"


# The largest "change that could hide" a headline states as a bound: beyond it the case's samples vary too much for
# the figure to bound anything a gate acts on (one comparison printed 1151240.81×).
MEANINGFUL_BOUND = 10.0


def code_headline(cases: int, same_code: str | None = None, timed_all: bool = False, changed: str | None = None,
                  unknown: str | None = None, identical: int = 0, coarsest: float = math.nan,
                  control_rounds: int = 0, harness: int = 0, controlled: int | None = None) -> str:
    """bench-commits' words on what two builds' code says of their ``cases`` (bench_commits.same_code and
    case_selection decide): every case runs identical code (``same_code``: the evidence; ``timed_all``: timed all
    the same), or ``cases`` may run changed code (``changed``: what differs) and were timed, resolving each change
    of ``coarsest`` (×) or more, while ``identical`` more run identical code and were not, or only in a control of
    ``control_rounds`` (``controlled`` of them, when not all), and ``harness`` controls were timed beside them (a
    filtered run's); or the code was not compared (``unknown``: why)."""
    if same_code is not None:
        return (f"0 cases run changed code; {cases} run identical code (same code: {same_code})"
                + ("; every case timed as asked" if timed_all else ""))
    if changed is not None:
        hide = ""
        if math.isfinite(coarsest) and coarsest > MEANINGFUL_BOUND:
            # A bound of a million times says nothing a gate can act on (issue 74): said as what it is.
            hide = f", but a case of them resolves no change under {MEANINGFUL_BOUND:g}×: it bounds nothing"
        elif math.isfinite(coarsest):
            hide = f", the largest change that could hide in one {coarsest:.2f}×"
        timed = f"timed in a control of {fmt_count(control_rounds, 'round')}" if control_rounds else "not timed"
        if control_rounds and controlled is not None and controlled < identical:
            timed = f"{controlled} of them {timed}"
        beside = f" with {fmt_count(harness, 'harness control')}" if harness else ""
        return (f"{fmt_count(cases, 'case')} may run changed code, timed{beside}{hide}; {identical} run identical "
                f"code, {timed} ({changed})")
    return f"not compared ({unknown}); {fmt_count(cases, 'case')} timed"


def _better_text(gate: CountsGateDecision) -> str:
    return f"{fmt_count(gate.better, 'case')} better ({BETTER_TEXT}: check why)"


def _counts_headline(gate: CountsGateDecision) -> str:
    if gate.status == REGRESSION:
        return f"Gate: FAILED, {fmt_count(gate.worse, 'case')} worse ({WORSE_TEXT})"
    if gate.status == INCOMPLETE and gate.head_incomplete:
        return _incomplete_head_headline(gate)
    if gate.status == INCOMPLETE:
        return f"Gate: INCOMPLETE, {_missing_text(gate)} ({MISSING_HINT})"
    if gate.better:
        return f"Gate: passed, no case worse; {_better_text(gate)}"
    return "Gate: passed, no case worse"
