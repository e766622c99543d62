"""What limited a comparison's judging (judge.compare.JudgingLimits), in words: a warning for each group of
cases that could never be called, and a note on how cases were judged. The limits themselves are counted in
judge.compare; this module only says them.
"""

from __future__ import annotations

from ..judge import paired as paired_rule
from ..judge.compare import MIN_GATE_ROUNDS, JudgingLimits
from ..judge.stats import smallest_p


def limit_warnings(limits: JudgingLimits, alpha: float) -> list[str]:
    """One warning per group of undetectable cases: what they lacked, and what would let them be called."""
    return [
        f"{count} paired case(s) have {rounds} round(s): a paired case calls a change only from "
        f"{paired_rule.MIN_CALL_ROUNDS} (where a worker's threads land can hold a case's rounds on one "
        "level), so they can never be called slower or faster (run more --rounds)"
        for rounds, count in limits.paired_rounds.items()
    ] + [
        f"{count} case(s) have {n_base} base and {n_head} head rounds: the U test on round medians "
        f"can reach p = {smallest_p(n_base, n_head):.3g} at best, not alpha {alpha:g} (about "
        f"{MIN_GATE_ROUNDS} rounds a side at 0.01), so they can never be called slower or faster (run "
        "bench with more --rounds)"
        for (n_base, n_head), count in limits.rounds.items()
    ] + [
        f"{count} case(s) have {n_base} base and {n_head} head samples: the smallest "
        f"possible p is {smallest_p(n_base, n_head):.3g}, not below alpha {alpha:g}, "
        "so they can never be called slower or faster (run more samples)"
        for (n_base, n_head), count in limits.samples.items()
    ]


def limit_notes(limits: JudgingLimits) -> list[str]:
    """The notes on how cases were judged: those compared on one process's samples (no between-round
    evidence), and those with too few rounds to be called alone among all the cases decided together."""
    notes = []
    if limits.one_process:
        count = f"{limits.one_process} case{'s' if limits.one_process != 1 else ''}"
        notes.append(
            f"samples from one process cannot show between-process variance: {count} compared on one round a "
            "side, so the U test treats them as independent and may call process-to-process noise a change (run "
            f"bench --rounds N, N >= {MIN_GATE_ROUNDS}, and 10 to call a change in one case among the full "
            "suite's)")
    lone = limits.lone_change
    if lone is not None:
        notes.append(
            f"{lone.count} of {lone.cases} cases undetectable (too few rounds): among {lone.cases} cases decided "
            f"together a change in one case alone is called only at p <= {lone.level:.2g} (alpha / {lone.cases}), "
            f"and the U test on {lone.base_rounds} and {lone.head_rounds} rounds reaches {lone.best_p:.2g} at "
            f"best; run at least {lone.rounds_needed} rounds a side (bench --rounds {lone.rounds_needed}) or "
            "compare fewer cases (--filter)")
    return notes


def comparison_warnings(comparison) -> list[str]:
    """All of a comparison's warnings: its files' problems, then its undetectable groups (a counts
    comparison, which has no JudgingLimits, has only the first)."""
    limits = getattr(comparison, "limits", None)
    return comparison.warnings + (limit_warnings(limits, comparison.alpha) if limits else [])


def comparison_notes(comparison) -> list[str]:
    """A comparison's notes on how its cases were judged (none for a counts comparison)."""
    limits = getattr(comparison, "limits", None)
    return limit_notes(limits) if limits else []
