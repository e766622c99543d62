"""The report's headlines in words (judge/headlines.py chooses them), each with its figure and its
cause: one line per failed-stress finding, starvation, cliff and family of seed patterns."""

from __future__ import annotations

from ..fmt import fmt_count, fmt_multiple
from ..judge.headlines import Headlines, SeedCost
from .diagnosis_text import cause_text, cliff_text


def _case(key) -> str:
    params = f" {key.params_text.replace(';', ', ')}" if key.params else ""
    return f"`{key.filter_name}`{params}"


def _seed_text(cost: SeedCost) -> str:
    name = f"`{cost.variant}`"
    if cost.recommended:
        return f"{name}: the one to use wherever it was measured within the CPUs"
    where = f"{cost.decision.benchmark}, {cost.decision.situation}"
    best = cost.decision.use.variant if cost.decision.use else None
    cause = f"; {cause_text(cost.diagnosis)}" if cost.diagnosis is not None else ""
    if cost.reason is not None:
        return f"{name}: disqualified at {where} ({cost.reason}){cause}"
    return f"{name}: {fmt_multiple(cost.standing.factor.ratio)}× `{best}` at {where}{cause}"


def headline_items(h: Headlines) -> tuple[str, ...]:
    """One line per headline, most serious first; empty when the run has none."""
    items = []
    if h.failed_checks:
        items.append(f"**Correctness: forbidden outcomes in {fmt_count(len(h.failed_checks), 'stress check')}** "
                     f"({', '.join(f'`{c}`' for c in h.failed_checks)}): see Stress checks.")
    if h.starved:
        more = f", and {h.starved_total - len(h.starved)} more" if h.starved_total > len(h.starved) else ""
        items.append("**Starvation:** " + "; ".join(f"{_case(d.key)} threads:{d.key.threads}: {cause_text(d)}"
                                                    for d in h.starved) + more + ".")
    for cliff in h.cliffs:
        key = cliff.key
        params = f" ({key.params_text.replace(';', ', ')})" if key.params else ""
        items.append(f"**`{key.variant}`** ({key.suite}/{key.benchmark}{params}): {cliff_text(cliff)}.")
    by_suite: dict[str, list[SeedCost]] = {}
    for cost in h.seeds:
        by_suite.setdefault(cost.suite, []).append(cost)
    for suite, costs in by_suite.items():
        items.append(f"**Seed patterns in {suite}**, at worst against the one to use: "
                     + "; ".join(_seed_text(c) for c in costs) + ".")
    return tuple(items)
