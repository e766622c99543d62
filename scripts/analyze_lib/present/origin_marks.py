"""How the report names a variant a package brought: its id followed by the module that brought it, wherever a
variant is named (decision tables, every table of cases, the stress checks, the headlines), and the part that lists
every brought-in variant with its cases, so that none can vanish from the report for standing in no decision table."""

from __future__ import annotations

from collections import defaultdict
from types import MappingProxyType
from typing import Iterable, Mapping

from ..files.model import StressResult
from ..judge.situations import threads_text
from ..judge.stress import NOTHING_PROVEN, Proof, checks_by_variant
from .proof_marks import NOT_PROVEN

# Joins a name to its module (and, in the decision tables, a variant to its factor and a CI's ends), so that a
# table cell never wraps between them.
NBSP = "\u00a0"

Origins = Mapping[tuple[str, str], str]  # (suite, variant) -> the module that brought it
NO_ORIGINS: Origins = MappingProxyType({})  # a default no call can change


def marked(name: str, module: str | None) -> str:
    """``name``, or ``name (MyBench)`` when ``module`` brought it."""
    return f"{name}{NBSP}({module})" if module else name


def variant_module(origins: Origins, suite: str, variant: str) -> str | None:
    """The module that brought ``variant`` of ``suite``, or None for a built-in one."""
    return origins.get((suite, variant))


def stress_origins(stress: Iterable[StressResult] | None) -> dict[tuple[str, str], str]:
    """The modules that brought the variants a stress file checks, (family, variant) -> module: what a report
    names beside a check or a variant the timing file does not hold (a stress file alone, say)."""
    return {(r.family, r.variant): r.origin for r in stress or () if r.origin and not r.is_control}


def brought_in_rows(origins: Origins, cases, stress: Iterable[StressResult] | None,
                    proof: Proof = NOTHING_PROVEN) -> list[tuple[str, str, str, str]]:
    """A row per brought-in variant (its id and module, once however many suites it joins): its timed cases
    (``suite/benchmark`` at its thread counts) and its stress checks, a failed one marked with its forbidden
    outcomes and one that fell short of its minimum trials (``proof``) marked not proven, so that each is listed
    even when it stands in no decision table. ``cases`` are the timed CaseKeys; ``stress`` the stress file's
    results (None without a stress file)."""
    modules = {variant: module for (_, variant), module in origins.items()}
    timed: dict[str, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
    for key in cases:
        if (key.suite, key.variant) in origins:
            timed[key.variant][f"{key.suite}/{key.benchmark}"].add(key.threads)
    brought = [result for result in stress or () if result.origin]
    for result in brought:
        if not result.is_control:
            modules.setdefault(result.variant, result.origin)
    checked: dict[str, dict[str, tuple[str, ...]]] = defaultdict(dict)
    short: dict[str, set[str]] = defaultdict(set)
    for (family, variant), checks in checks_by_variant(brought).items():
        checked[variant].update(checks)
        short[variant] |= proof.short_checks(family, variant)
    rows = []
    for variant, module in sorted(modules.items()):
        timed_text = "; ".join(f"`{benchmark}` at {threads_text(threads)}"
                               for benchmark, threads in sorted(timed.get(variant, {}).items())) or "not timed here"
        checks = checked.get(variant, {})
        checks_text = ", ".join(f"**`{name}` FAILED** ({', '.join(outcomes)})" if outcomes
                                else f"`{name}` {NOT_PROVEN}" if name in short[variant] else f"`{name}`"
                                for name, outcomes in sorted(checks.items()))
        unchecked = "none in the stress file" if stress is not None else "no stress file given"
        rows.append((f"`{variant}`", module, timed_text, checks_text or unchecked))
    return rows
