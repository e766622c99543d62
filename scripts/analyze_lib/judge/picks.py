"""What to use within the CPUs: the first screen's answer, one pick per benchmark.

For each benchmark the report decided (judge/decisions.py), ``picks`` takes the decision at the most threads that
fit the CPUs (the contended situation; one thread where only that fits) and at its first param situation (the
fewest of every swept param, as situations.situation_params orders them), and gives the variant to use there with
its cost per operation and that cost's 95% interval (a two-level bootstrap over rounds and their samples), the
runner-up when the two are not told apart (its factor's interval holds 1), and beside it each seed pattern of the
benchmark (situations.Notes.seeds) measured in the same situation, with its cost and its factor to the pick. Pure: no
words.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..files.model import Case, CaseKey
from .decisions import Decision, Standing
from .situations import notes, thread_label
from .stats import RatioEstimate
from .summary import level_interval


@dataclass(frozen=True)
class SeedBeside:
    """A seed pattern in the pick's situation: its cost per op, its factor to the pick (None when it is the pick),
    and why it was disqualified there, if it was."""

    variant: str
    median: float
    factor: RatioEstimate | None
    reason: str | None = None


@dataclass(frozen=True)
class Pick:
    """The variant to use in ``decision``'s situation, its cost per op (``median``) with the 95% interval
    (``low``, ``high``), the benchmark's seed patterns measured there, and the runner-up when the interval of its
    factor to the pick holds 1 (``tied``: the two are not told apart, so the first screen names both)."""

    decision: Decision
    use: Standing
    low: float
    high: float
    seeds: tuple[SeedBeside, ...] = ()
    tied: Standing | None = None

    @property
    def median(self) -> float:
        return self.use.median


def _within(decision: Decision, logical_cpus: int) -> int | None:
    """The decision's thread count when it fits the CPUs, else None."""
    key = decision.use.key if decision.use is not None else None
    return key.threads if key is not None and key.threads <= logical_cpus else None


def picks(decisions: list[Decision], cases: dict[CaseKey, Case], logical_cpus: int) -> tuple[Pick, ...]:
    """One pick per benchmark (in the decisions' order): its first decision at the most threads that fit the CPUs.
    A benchmark none of whose decisions has a variant to use within the CPUs has none."""
    chosen: dict[tuple[str, str], Decision] = {}
    for decision in decisions:
        threads = _within(decision, logical_cpus)
        if threads is None:
            continue
        benchmark = (decision.suite, decision.benchmark)
        held = chosen.get(benchmark)
        if held is None or threads > (_within(held, logical_cpus) or 0):
            chosen[benchmark] = decision
    found = []
    for decision in chosen.values():
        use = decision.use
        assert use is not None and use.key is not None
        low, high = level_interval(cases[use.key])
        runner = decision.runner_up
        tied = runner if runner is not None and runner.factor is not None and runner.factor.reaches_one else None
        found.append(Pick(decision, use, low, high, tuple(_seeds(decision)), tied))
    return tuple(found)


def _seeds(decision: Decision) -> list[SeedBeside]:
    """The benchmark's seed patterns among ``decision``'s standings, in the order the notes name them."""
    standings: dict[str, tuple[Standing, str | None]] = {}
    for standing in (decision.use, decision.runner_up, *decision.avoid):
        if standing is not None:
            standings[standing.variant] = (standing, None)
    for out in decision.disqualified:
        standings[out.standing.variant] = (out.standing, out.reason)
    beside = []
    for variant in notes(decision.suite, decision.benchmark).seeds:
        if variant in standings:
            standing, reason = standings[variant]
            beside.append(SeedBeside(variant, standing.median, standing.factor, reason))
    return beside


def situation_text(pick: Pick, logical_cpus: int) -> str:
    """``2 threads, tokens=1``: the pick's thread count and its params, without the situation's name."""
    key = pick.use.key
    assert key is not None
    label = thread_label(key.threads, logical_cpus).split(" (", 1)[0]
    params = pick.decision.situation.split(", ", 1)[1] if ", " in pick.decision.situation else ""
    return f"{label}, {params}" if params else label
