"""Which one to use: per family, a short table of decisions computed from the run.

For every situation a benchmark was measured in (one thread, contended, oversubscribed;
the fewest and the most of each swept parameter; each role), ``decide`` names the variant
to use, the runner-up and the variants to avoid, each with its factor to the recommended
one and the 95% bootstrap CI of that factor. A variant is *disqualified*, whatever its
median, when it starves itself, starves another role of the same case, or is unfair; it is
listed with the reason, and marked when it was the fastest by median.
``decision_table`` renders a family's decisions; nothing here is written by hand.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from .doc import Table
from ..files.model import Case, CaseKey
from .presentation import (
    FLOOR_SUITES,
    ROLE_PARAM,
    metric,
    notes,
    params_label,
    situation_params,
    thread_situations,
    varying_params,
)
from .render import fmt_ns, fmt_ratio
from ..judge.stats import RatioEstimate, starved_count
from ..judge.summary import case_median, factor

# A variant to avoid costs at least this many times the recommended one, at the low end
# of the 95% CI of the ratio (so noise never puts a variant on the list).
AVOID_FACTOR = 3.0
# A role (the writer of isolation/roles, say) is starved when its busiest thread completed
# at least this many times fewer operations than the busiest thread of another role of
# the same case (medians over samples of thread_ops_max): every thread is given the same time.
ROLE_STARVATION_FACTOR = 10.0
# Unfair: the slowest thread completed less than this share of the busiest thread's
# operations (median over samples of thread_ops_min / thread_ops_max). Judged only when
# every thread has a CPU of its own: with more threads than CPUs, a thread that did
# little may have been waiting for a CPU, not for the variant.
FAIRNESS_MIN = 0.1
# Starved itself: at least this share of its samples completed no operation.
STARVED_SHARE = 0.2
# A factor whose CI reaches 1 is not told apart from the recommended variant.
TIE_PREFIX = "≈"
NONE_TEXT = "—"
# The decision table's columns, in percent of the page (the lists need the room).
COLUMN_WIDTHS = (10, 13, 11, 17, 24, 25)
# Joins a variant to its factor, and a CI's ends, so that a table cell never wraps inside them.
NBSP = "\u00a0"


def fmt_multiple(value: float) -> str:
    """A factor with three significant digits: 1.23, 12.3, 123, 2,352 (a 2352.02× ratio is
    noise in the last places); ``∞`` for inf."""
    if math.isfinite(value) and value >= 100:
        return f"{value:,.0f}"
    if math.isfinite(value) and value >= 10:
        return f"{value:.1f}"
    return fmt_ratio(value)


def _without_role(params: tuple) -> tuple:
    return tuple((k, v) for k, v in params if k != ROLE_PARAM)


def _role_text(case: Case) -> str:
    role = case.key.params_dict.get(ROLE_PARAM)
    return f"{ROLE_PARAM}={role}" if role is not None else "its role"


def role_rows(cases) -> dict[tuple, list[Case]]:
    """Every case grouped with the other role rows of the same measurement: key
    (suite, benchmark, variant, threads, params without role) -> its rows."""
    rows: dict[tuple, list[Case]] = defaultdict(list)
    for case in cases:
        key = case.key
        rows[(key.suite, key.benchmark, key.variant, key.threads, _without_role(key.params))].append(case)
    return rows


def _siblings(case: Case, rows: dict[tuple, list[Case]]) -> list[Case]:
    key = case.key
    return rows.get((key.suite, key.benchmark, key.variant, key.threads, _without_role(key.params)), [case])


def _finite_median(values: np.ndarray) -> float | None:
    finite = values[np.isfinite(values)]
    return float(np.median(finite)) if finite.size else None


def _fairness(case: Case) -> float | None:
    """Median over samples of the slowest thread's operations over the busiest's."""
    fewest, most = case.columns["thread_ops_min"], case.columns["thread_ops_max"]
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = np.where(most > 0, fewest / most, np.nan)
    return _finite_median(shares)


def disqualification(case: Case, rows: dict[tuple, list[Case]], logical_cpus: int) -> str | None:
    """Why ``case``'s variant cannot be recommended in its situation, or None.

    Looks at every role row of the same measurement: starving any role, or being unfair
    within one, disqualifies the variant for all of them.
    """
    siblings = _siblings(case, rows)
    for row in [case] + [s for s in siblings if s is not case]:
        starved = starved_count(row.ns_per_op)
        if starved and starved >= STARVED_SHARE * row.n:
            where = "" if row is case else f" as {_role_text(row)}"
            return f"starved{where} in {starved} of {row.n} samples"
    busiest = {id(row): _finite_median(row.columns["thread_ops_max"]) for row in siblings}
    measured = [row for row in siblings if busiest[id(row)] is not None]
    if len(measured) > 1:
        most = max(measured, key=lambda row: busiest[id(row)])
        least = min(measured, key=lambda row: busiest[id(row)])
        if busiest[id(least)] == 0:
            return f"starves {_role_text(least)} (its threads completed no operation)"
        factor = busiest[id(most)] / busiest[id(least)]
        if factor >= ROLE_STARVATION_FACTOR:
            return (f"starves {_role_text(least)} ({fmt_multiple(factor)}× fewer ops per thread than "
                    f"{_role_text(most)})")
    if 1 < case.key.threads <= logical_cpus:
        for row in siblings:
            fairness = _fairness(row)
            if fairness is not None and fairness < FAIRNESS_MIN:
                within = f" within {_role_text(row)}" if len(siblings) > 1 else ""
                return f"unfair{within} (slowest thread did {fairness:.2g} of the busiest one's ops)"
    return None


@dataclass(frozen=True)
class Standing:
    """A variant's median and its factor to the recommended variant (None for that one)."""
    variant: str
    median: float
    factor: RatioEstimate | None = None


@dataclass(frozen=True)
class Disqualified:
    """A variant that cannot be recommended, why, and whether it was the fastest by median."""
    standing: Standing
    reason: str
    fastest: bool


@dataclass(frozen=True)
class Decision:
    """One situation of one benchmark: what to use, what next, what to avoid, what not."""
    suite: str
    benchmark: str
    situation: str
    use: Standing | None
    runner_up: Standing | None
    avoid: tuple[Standing, ...]
    disqualified: tuple[Disqualified, ...]


def _decide(suite: str, benchmark: str, situation: str, candidates: list[Case],
            rows: dict[tuple, list[Case]], logical_cpus: int) -> Decision:
    reasons = {c.key.variant: disqualification(c, rows, logical_cpus) for c in candidates}
    ranked = sorted(candidates, key=lambda c: (case_median(c), c.key.variant))
    eligible = [c for c in ranked if reasons[c.key.variant] is None and math.isfinite(case_median(c))]
    best = eligible[0] if eligible else None

    def standing(case: Case) -> Standing:
        estimate = None
        if best is not None and case is not best and math.isfinite(case_median(case)):
            estimate = factor(case, best)
        return Standing(case.key.variant, case_median(case), estimate)

    runner_up = standing(eligible[1]) if len(eligible) > 1 else None
    avoid = [standing(c) for c in eligible[2:]]
    avoid = [s for s in avoid if s.factor is not None and s.factor.low >= AVOID_FACTOR]
    chosen = {id(c) for c in eligible}
    disqualified = tuple(Disqualified(standing(c), reasons[c.key.variant] or "starved", c is ranked[0])
                         for c in ranked if id(c) not in chosen)
    return Decision(suite, benchmark, situation, standing(best) if best else None, runner_up,
                    tuple(sorted(avoid, key=lambda s: -s.factor.ratio)), disqualified)


def decide(cases: dict[CaseKey, Case], logical_cpus: int) -> list[Decision]:
    """Every decision of a run, by suite, benchmark, param situation and thread situation.

    A situation needs two candidates (baselines such as once/race's barrier-only are not
    candidates); the floor suites (the harness) have none.
    """
    rows = role_rows(cases.values())
    by_benchmark: dict[tuple[str, str], list[Case]] = defaultdict(list)
    for case in cases.values():
        if case.key.suite not in FLOOR_SUITES:
            by_benchmark[(case.key.suite, case.key.benchmark)].append(case)
    decisions = []
    for (suite, benchmark), group in sorted(by_benchmark.items()):
        baselines = notes(suite, benchmark).baselines
        varying = varying_params(group)

        def combo(case: Case) -> tuple:
            return tuple((k, v) for k, v in case.key.params if k in varying)

        measured = sorted({combo(c) for c in group}, key=lambda p: CaseKey("", "", "", 1, p).sort_key())
        for params in situation_params(measured):
            for thread_label, threads in thread_situations({c.key.threads for c in group}, logical_cpus):
                candidates = [c for c in group if c.key.threads == threads and combo(c) == params
                              and c.key.variant not in baselines]
                if len(candidates) < 2:
                    continue
                situation = thread_label + (f", {params_label(params)}" if params else "")
                decisions.append(_decide(suite, benchmark, situation, candidates, rows, logical_cpus))
    return decisions


def _factor_text(standing: Standing, with_ci: bool = True) -> str:
    """``lock 18.0× [17.6, 18.4]``: the variant, its factor to the recommended one and the
    factor's 95% CI (``≈`` when the CI reaches 1); no-break spaces keep name and factor,
    and the CI, each on one line."""
    factor, name = standing.factor, f"`{standing.variant}`"
    if factor is None:
        return name if math.isfinite(standing.median) else f"{name} (starved)"
    tie = TIE_PREFIX if factor.low <= 1.0 <= factor.high else ""
    text = f"{name}{NBSP}{tie}{fmt_multiple(factor.ratio)}×"
    return f"{text} [{fmt_multiple(factor.low)},{NBSP}{fmt_multiple(factor.high)}]" if with_ci else text


def _unit(suite: str, benchmark: str) -> str:
    name = metric(suite, benchmark)
    return "ns" if name == "ns/op" else name


def decision_table(decisions: list[Decision]) -> Table:
    """One family's decisions as a table: a row per benchmark and situation; in the lists
    (avoid, disqualified) each variant takes a line."""
    rows = []
    for d in decisions:
        use = (f"**`{d.use.variant}`** {fmt_ns(d.use.median)} {_unit(d.suite, d.benchmark)}" if d.use
               else "none: every variant is disqualified")
        disqualified = "\n".join(
            f"{_factor_text(x.standing, with_ci=False)}: {'fastest by median, but ' if x.fastest else ''}"
            f"{x.reason}" for x in d.disqualified)
        rows.append((d.benchmark, d.situation, use,
                     _factor_text(d.runner_up) if d.runner_up else NONE_TEXT,
                     "\n".join(_factor_text(s) for s in d.avoid) or NONE_TEXT,
                     disqualified or NONE_TEXT))
    return Table(("Benchmark", "Situation", "Use", "Runner-up", "Avoid", "Disqualified"), tuple(rows), "llllll",
                 COLUMN_WIDTHS)


def rules_text(logical_cpus: int) -> str:
    """The rules behind the decision tables, in one paragraph."""
    return (f"**Use**: the lowest median among the variants not disqualified. Factors are medians "
            f"relative to it, with the 95% bootstrap CI of the ratio (`{TIE_PREFIX}`: the CI reaches 1). "
            f"**Avoid**: at least {AVOID_FACTOR:g}× slower even at the CI's low end. **Disqualified**, "
            f"however fast: starves another role of the same case ({ROLE_STARVATION_FACTOR:g}× fewer ops "
            f"per thread), unfair (its slowest thread did less than {FAIRNESS_MIN:g} of the busiest one's "
            f"ops; judged only when every thread has a CPU), or starved in {STARVED_SHARE:.0%} of its "
            f"samples or more. Situations: 1 thread; contended, the most threads that fit the "
            f"{logical_cpus} CPUs; oversubscribed, the most threads measured; each at the fewest and the "
            "most of every swept parameter.")
