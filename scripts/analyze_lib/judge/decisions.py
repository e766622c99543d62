"""Which one to use: per family, the decisions computed from the run.

For every situation a benchmark was measured in (one thread, contended, oversubscribed;
the fewest and the most of each swept parameter; each role), ``decide`` names the variant
to use, the runner-up and the variants to avoid, each with its factor to the recommended
one and the 95% bootstrap CI of that factor. A variant is *disqualified*, whatever its
median, when it failed a stress check (a forbidden outcome in any of its checks: then in every
situation of its suite), starves itself, starves another role of the same case, or is unfair;
it is listed with the reason, and marked when it was the fastest by median. A variant the stress
file does not prove (judge/stress.judge_proof: its checks made fewer trials than their minimum, or
did not run) is never the one to use or the runner-up while a proven one is eligible in the same
situation: it is listed with the disqualified, its reason ``Unproven``; where none is proven the
ranking stands, and each standing says whether it is proven. Fairness is judged only
where a thread that did little cannot have been waiting for a CPU instead (conditions.py):
not with more threads than CPUs, nor when the samples show the machine was busy; a decision
says when it was not.
present/decision_table.py renders a family's decisions; nothing here is written by hand.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

import numpy as np


from ..files.model import Case, CaseKey, Params
from ..fmt import fmt_count, fmt_multiple
from .conditions import fairness_not_judged, is_busy
from .situations import (
    FLOOR_SUITES,
    ROLE_PARAM,
    notes,
    params_label,
    situation_params,
    thread_label,
    thread_situations,
    varying_params,
)
from . import signals
from .evidence import FAIRNESS_MIN, StallFloor, counted_samples, starved_samples, unfair_samples
from .stats import RatioEstimate, finite_median
from .stress import NO_STRESS_FAILURES, NOTHING_PROVEN, Proof, StressFailures
from .summary import case_median, factor

# A variant to avoid costs at least this many times the recommended one, at the low end
# of the 95% CI of the ratio (so noise never puts a variant on the list).
AVOID_FACTOR = 3.0
# A role (the writer of isolation/roles, say) is starved when another role of the same case got
# at least this many times its share of time: each role's threads' share of their wall time on a
# CPU (signals.Split.running, where the file records the split), and its busiest thread's
# operations (medians over samples of thread_ops_max), both. Fewer operations alone are no proof:
# a role whose operations cost 100x more (a store that copies on every write) completes 100x
# fewer in a fair share of the time. Without the split only the operations are compared.
ROLE_STARVATION_FACTOR = 10.0
# Why a case bench abandoned as hung (schema 9's ``hung``) is disqualified: no sample, only a span without progress.
HUNG = "hung: no progress for bench's --hang-timeout (a lost wake-up or a deadlock); abandoned, never timed"
# Starved itself: at least this share of its samples completed no operation with nothing outside the variant to
# explain it (judge/evidence.py: not spoiled by the host, not a batch edge, its threads running), at least
# MIN_STARVED_SAMPLES of them, and more than the run's controls make likely (evidence.StallFloor).
STARVED_SHARE = 0.2
# Never on one sample: a lone sample without an operation can be a batch of operations published just after the
# sample's end, or a vCPU the host took, as likely as a starved thread (issue 73: one such sample of `os-lock` at 8
# threads disqualified it in all 10 once rows).
MIN_STARVED_SAMPLES = 2
# Unfair: below evidence.FAIRNESS_MIN, the line the run's controls are counted below too (evidence.stall_floor).
# bench's stopping rule takes a sign of each of these three lines (STARVED_SHARE, ROLE_STARVATION_FACTOR,
# FAIRNESS_MIN) at half of it (Sources/BenchCore/DisqualificationSigns.swift states them again; test_one_place
# holds the two equal).


# A measurement's role rows share this: (suite, benchmark, variant, threads, params without role).
RoleRowsKey = tuple[str, str, str, int, Params]


def _without_role(params: Params) -> Params:
    return tuple((k, v) for k, v in params if k != ROLE_PARAM)


def _role_text(case: Case) -> str:
    role = case.key.params_dict.get(ROLE_PARAM)
    return f"{ROLE_PARAM}={role}" if role is not None else "its role"


def role_rows(cases: Iterable[Case]) -> dict[RoleRowsKey, list[Case]]:
    """Every case grouped with the other role rows of the same measurement: key
    (suite, benchmark, variant, threads, params without role) -> its rows."""
    rows: dict[RoleRowsKey, list[Case]] = defaultdict(list)
    for case in cases:
        key = case.key
        rows[(key.suite, key.benchmark, key.variant, key.threads, _without_role(key.params))].append(case)
    return rows


def role_siblings(case: Case, rows: dict[RoleRowsKey, list[Case]]) -> list[Case]:
    """The role rows of ``case``'s measurement (``role_rows``), itself among them."""
    key = case.key
    return rows.get((key.suite, key.benchmark, key.variant, key.threads, _without_role(key.params)), [case])


def _running_share(row: Case) -> float | None:
    """The share of their wall time ``row``'s threads ran on a CPU (None without the split)."""
    split = signals.split(row)
    return split.running if split is not None and signals.finite(split.running) else None


# A lock whose readers starve its writer while the writer sleeps waiting for it prefers readers (glibc's default
# rwlock does): said so where the writer's threads were asleep at least this share of their time (the split). A
# writer that spun or waited for a CPU lost a race, not a policy (a spin lock's writer among seven readers on 2
# CPUs); writers that starve readers are never named a preference: a queue flooded with asynchronous barrier
# writes does it by volume.
PREFERENCE_BLOCKED_SHARE = 0.5


def _preference(starved: Case, favoured: Case) -> str:
    """``prefers readers: `` when ``favoured``'s role is read and ``starved``'s write, whose threads slept at least
    PREFERENCE_BLOCKED_SHARE of their time; else nothing."""
    roles = (starved.key.params_dict.get(ROLE_PARAM), favoured.key.params_dict.get(ROLE_PARAM))
    split = signals.split(starved)
    asleep = split is not None and signals.finite(split.blocked) and split.blocked >= PREFERENCE_BLOCKED_SHARE
    return "prefers readers: " if roles == ("write", "read") and asleep else ""


def role_starvation(siblings: list[Case], logical_cpus: int | None = None) -> str | None:
    """Why one role of a measurement is starved by another (ROLE_STARVATION_FACTOR), or None.

    The one rule: a role is starved when its threads completed no operation, or when another role
    got at least ROLE_STARVATION_FACTOR times its share of time. The share is each role's threads'
    running share (the split) and their busiest thread's operations, and both must fall short: a role
    whose operations cost more completes fewer of them in the same time, and is not starved. A file
    without the split compares the operations alone. Given ``logical_cpus``, a role that lost so with more
    threads than CPUs without blocking (waiter_preemption) is not starved by the other: its threads were off their
    CPUs when the lock came free, lock-waiter preemption, advice rather than a disqualification."""
    medians = {id(row): finite_median(row.columns["thread_ops_max"]) for row in siblings}
    busiest = {row_id: median for row_id, median in medians.items() if median is not None}
    measured = [row for row in siblings if id(row) in busiest]
    preempted = {id(row) for row in measured if logical_cpus is not None and waiter_preemption(row, logical_cpus)}
    if len(measured) < 2:
        return None
    least = min(measured, key=lambda row: busiest[id(row)])
    if id(least) in preempted:
        return None
    if busiest[id(least)] == 0:
        most = max(measured, key=lambda row: busiest[id(row)])
        return f"{_preference(least, most)}starves {_role_text(least)} (its threads completed no operation)"
    shares = {id(row): _running_share(row) for row in measured}
    timed = all(share is not None for share in shares.values())
    for row in sorted(measured, key=lambda row: busiest[id(row)]):
        if id(row) in preempted:
            continue
        others = [other for other in measured if other is not row]
        most = max(others, key=lambda other: busiest[id(other)])
        ops_factor = busiest[id(most)] / busiest[id(row)]
        if ops_factor < ROLE_STARVATION_FACTOR:
            continue
        if not timed:
            return (f"{_preference(row, most)}starves {_role_text(row)} ({fmt_multiple(ops_factor)}× fewer ops per "
                    f"thread than {_role_text(most)})")
        share = shares[id(row)]
        assert share is not None
        richest = max(others, key=lambda other: shares[id(other)] or 0.0)
        richest_share = shares[id(richest)] or 0.0
        if share == 0 or richest_share / share >= ROLE_STARVATION_FACTOR:
            return (f"{_preference(row, richest)}starves {_role_text(row)} (its threads ran {_percent(share)} of "
                    f"their time, {_role_text(richest)}'s {_percent(richest_share)}; {fmt_multiple(ops_factor)}× "
                    f"fewer ops per thread than {_role_text(most)})")
    return None


def self_starved(case: Case, logical_cpus: int, floor: StallFloor, cpu_share: float | None = None) -> bool:
    """The one rule for a case starved itself (the report's decisions and its diagnosis both ask it): of the samples
    the host did not spoil, at least STARVED_SHARE, and at least MIN_STARVED_SAMPLES, completed no operation with
    nothing outside the variant to explain it (evidence.starved_samples), more than ``floor``, the rate the run's
    controls looked starved at over the whole run (conditions.RunConditions.floor), makes likely. Never on a busy
    machine (``cpu_share``, conditions.is_busy): its other work holds threads off their CPUs, and a lock's holder
    with them, so a thread that did nothing may have been waiting for it, as fairness is not judged there either."""
    if is_busy(cpu_share):
        return False
    starved = int(starved_samples(case, logical_cpus).sum())
    counted = counted_samples(case)
    return starved >= MIN_STARVED_SAMPLES and starved >= STARVED_SHARE * counted and floor.beyond(starved, counted)


# Lock-waiter preemption: with more threads than CPUs, a case whose threads stalled without blocking (at most this
# share of their time asleep) was waiting for a thread that was not on a CPU, as a FIFO lock's next waiter or a spin
# lock's holder is: advice (avoid where threads can outnumber the CPUs), never a disqualification where it is fastest.
PREEMPTED_BLOCKED_SHARE = 0.1


def waiter_preemption(case: Case, logical_cpus: int) -> bool:
    """Whether ``case``'s starvation is lock-waiter preemption: more threads than CPUs, and its threads blocked at
    most PREEMPTED_BLOCKED_SHARE of their time (the split's level; False without the split)."""
    if case.key.threads <= logical_cpus:
        return False
    split = signals.split(case)
    return split is not None and signals.finite(split.blocked) and split.blocked <= PREEMPTED_BLOCKED_SHARE


def starved_reason(case: Case, logical_cpus: int, floor: StallFloor) -> str:
    """Where a self-starved case starved: ``5 of 10 samples (5 of 10 rounds; …)``, with what the floor rests on."""
    starved = starved_samples(case, logical_cpus)
    rounds = np.unique(case.round_ids[starved]).size
    counted = counted_samples(case)
    controls = (f"the controls looked starved in {floor.starved.looked} of {floor.starved.samples}" if floor.measured
                else "no control was timed")
    return (f"{int(starved.sum())} of {counted} samples ({rounds} of {fmt_count(case.round_count, 'round')}; "
            f"{controls})")


def _percent(share: float) -> str:
    return f"{share * 100:.2g}%" if share < 0.1 else f"{share * 100:.0f}%"


def disqualification(case: Case, rows: dict[RoleRowsKey, list[Case]], logical_cpus: int, *,
                      cpu_share: float | None, floor: StallFloor,
                      failed: StressFailures = NO_STRESS_FAILURES) -> str | None:
    """Why ``case``'s variant cannot be recommended in its situation, or None.

    A variant in ``failed`` (judge/stress.stress_failures: a forbidden outcome in one of its stress checks)
    is disqualified in every situation, for that first: whatever it costs, it broke its contract. A reason of
    ``failed`` that is ``Elsewhere`` (disqualified_anywhere) comes last, after the variant's own. Otherwise
    looks at every role row of the same measurement: starving any role, or being unfair
    within one, disqualifies the variant for all of them. Unfairness counts only where it
    can be judged: not above ``logical_cpus`` threads, nor when ``cpu_share`` (what the run's
    CPU-bound harness cases got of their CPUs) says the machine was busy
    (conditions.fairness_not_judged). Starving itself is not judged on a busy machine either, and it and
    unfairness count only beyond ``floor``: the floor the run's controls set, over the whole run, not the cases a
    report's filter selects (conditions.RunConditions.floor; self_starved, evidence.unfair_samples).
    """
    broken = failed.get((case.key.suite, case.key.variant))
    if broken is not None and not isinstance(broken, Elsewhere):
        return broken
    siblings = role_siblings(case, rows)
    if any(row.hung for row in siblings):
        return HUNG
    # One cause per measurement: a role starved by another is that, on every row of it, before its own count.
    starves = role_starvation(siblings, logical_cpus) if len(siblings) > 1 else None
    if starves is not None:
        return starves
    for row in [case] + [s for s in siblings if s is not case]:
        if self_starved(row, logical_cpus, floor, cpu_share) and not waiter_preemption(row, logical_cpus):
            where = "" if row is case else f" as {_role_text(row)}"
            return f"starved{where} in {starved_reason(row, logical_cpus, floor)}"
    if case.key.threads > 1 and fairness_not_judged(case.key.threads, logical_cpus, cpu_share) is None:
        for row in siblings:
            fairness = signals.fairness(row)
            behind = int(unfair_samples(row, logical_cpus, FAIRNESS_MIN).sum())
            counted = counted_samples(row)
            if fairness is not None and fairness < FAIRNESS_MIN and floor.unfair.beyond(behind, counted):
                within = f" within {_role_text(row)}" if len(siblings) > 1 else ""
                return (f"unfair{within} (slowest thread did {fairness:.2g} of the busiest one's ops; below "
                        f"{FAIRNESS_MIN:g} in {behind} of {counted} samples)")
    return broken  # disqualified elsewhere in its suite (Elsewhere), or None


@dataclass(frozen=True)
class Standing:
    """A variant's median and its factor to the recommended variant (None for that one), the
    case it was read from (None when built without one), and whether the stress file proves the
    variant (judge/stress.Proof; never, unless decide was given one that does)."""
    variant: str
    median: float
    factor: RatioEstimate | None = None
    key: CaseKey | None = None
    proven: bool = False


class Unproven(str):
    """The reason a variant the stress file does not prove is passed over where a proven variant is eligible
    (``not proven: `limit` made 2 of 1,000 trials at 1 thread``): it is not disqualified in the rest of its suite
    for that, and a situation with no proven variant keeps it in its ranking."""


@dataclass(frozen=True)
class Disqualified:
    """A variant that cannot be recommended, why, and whether it was the fastest by median."""
    standing: Standing
    reason: str
    fastest: bool


@dataclass(frozen=True)
class Decision:
    """One situation of one benchmark: what to use, what next, what to avoid, what not.

    The runner-up is the second fastest eligible variant unless it meets the avoid rule, in
    which case it is under ``avoid`` and there is no runner-up: no variant is in both.
    ``fairness_unjudged`` says why fairness was not judged at a thread count that fits the
    CPUs (the machine was busy), or is None: judged, one thread, or oversubscribed (where the
    rules never judge it)."""
    suite: str
    benchmark: str
    situation: str
    use: Standing | None
    runner_up: Standing | None
    avoid: tuple[Standing, ...]
    disqualified: tuple[Disqualified, ...]
    fairness_unjudged: str | None = None


def _avoided(standing: Standing) -> bool:
    """The avoid rule: at least AVOID_FACTOR times the recommended median even at the low
    end of the factor's CI."""
    return standing.factor is not None and standing.factor.low >= AVOID_FACTOR


def _factor_descending(standing: Standing) -> float:
    """Sorts avoided standings (each has a factor: ``_avoided``) largest factor first."""
    assert standing.factor is not None
    return -standing.factor.ratio


def _decide(suite: str, benchmark: str, situation: str, candidates: list[Case],
            rows: dict[RoleRowsKey, list[Case]], logical_cpus: int, cpu_share: float | None,
            failed: StressFailures, proof: Proof, floor: StallFloor) -> Decision:
    reasons: dict[str, str | None] = {
        c.key.variant: disqualification(c, rows, logical_cpus, cpu_share=cpu_share, floor=floor, failed=failed)
        for c in candidates}
    unproven = {c.key.variant: proof.unproven(suite, benchmark, c.key.variant) for c in candidates}
    ranked = sorted(candidates, key=lambda c: (case_median(c), c.key.variant))
    eligible = [c for c in ranked if reasons[c.key.variant] is None and math.isfinite(case_median(c))]
    if any(unproven[c.key.variant] is None for c in eligible):
        # The report never recommends what was not proven while something was: the others are passed over.
        for case in eligible:
            why = unproven[case.key.variant]
            if why is not None:
                reasons[case.key.variant] = Unproven(f"not proven: {why}")
        eligible = [c for c in eligible if unproven[c.key.variant] is None]
    best = eligible[0] if eligible else None

    def standing(case: Case) -> Standing:
        estimate = None
        if best is not None and case is not best and math.isfinite(case_median(case)):
            estimate = factor(case, best)
        return Standing(case.key.variant, case_median(case), estimate, case.key, unproven[case.key.variant] is None)

    others = [standing(c) for c in eligible[1:]]
    runner_up = others[0] if others and not _avoided(others[0]) else None
    avoid = [s for s in others if _avoided(s)]
    chosen = {id(c) for c in eligible}
    disqualified = tuple(Disqualified(standing(c), reasons[c.key.variant] or "starved", c is ranked[0])
                         for c in ranked if id(c) not in chosen)
    threads = candidates[0].key.threads
    unjudged = fairness_not_judged(threads, logical_cpus, cpu_share)
    return Decision(suite, benchmark, situation, standing(best) if best else None, runner_up,
                    tuple(sorted(avoid, key=_factor_descending)), disqualified,
                    unjudged if threads <= logical_cpus else None)


class Elsewhere(str):
    """A reason a variant is disqualified in its whole suite because it was disqualified in one of its cases
    (disqualified_anywhere): where the variant fails on its own, its own reason is given instead."""


def disqualified_anywhere(cases: dict[CaseKey, Case], logical_cpus: int, *, cpu_share: float | None,
                          floor: StallFloor, failed: StressFailures = NO_STRESS_FAILURES) -> StressFailures:
    """``failed`` and, for each variant disqualified in any case measured (``disqualification``: starved, starving
    a role, unfair), that reason for its whole suite, with where it held (``starves role=read (…) at roles, 2
    threads (contended), role=write``: the benchmark, the threads and the params that vary in it): a variant that
    failed where it was measured is not the one to use anywhere in its suite, as one that failed a stress check is
    not. Every case counts, not only those at the thread counts decisions are made at (situations.
    thread_situations: a variant starved at 4 threads, where 1, 2 and 8 are decided, is disqualified too). The
    first reason in case order is kept; a stress failure comes first. ``cpu_share`` and ``floor`` as in ``decide``:
    the whole run's, whatever ``cases`` a report's filter left."""
    rows = role_rows(cases.values())
    benchmarks: dict[tuple[str, str], list[Case]] = defaultdict(list)
    for case in cases.values():
        benchmarks[(case.key.suite, case.key.benchmark)].append(case)
    varying = {benchmark: varying_params(group) for benchmark, group in benchmarks.items()}
    found: dict[tuple[str, str], str] = {}
    for key in sorted(cases, key=CaseKey.sort_key):
        if (key.suite, key.variant) in found or key.suite in FLOOR_SUITES \
                or key.variant in notes(key.suite, key.benchmark).baselines:
            continue
        reason = disqualification(cases[key], rows, logical_cpus, cpu_share=cpu_share, floor=floor)
        if reason is not None:
            params = tuple((name, value) for name, value in key.params if name in varying[(key.suite, key.benchmark)])
            where = ", ".join(filter(None, (thread_label(key.threads, logical_cpus), params_label(params))))
            found[(key.suite, key.variant)] = Elsewhere(f"{reason} at {key.benchmark}, {where}")
    return {**found, **failed}


def decide(cases: dict[CaseKey, Case], logical_cpus: int, *, cpu_share: float | None, floor: StallFloor,
           failed: StressFailures = NO_STRESS_FAILURES, proof: Proof = NOTHING_PROVEN) -> list[Decision]:
    """Every decision of a run, by suite, benchmark, param situation and thread situation.
    ``cpu_share``: what the run's CPU-bound harness cases got of their CPUs (None: not measured),
    which decides where fairness can be judged (conditions.fairness_not_judged); ``floor``: the floor the run's
    controls set, over the whole run, not the filtered ``cases`` (conditions.RunConditions.floor; UNMEASURED_FLOOR
    only where there is no run, as in a test), beyond which alone starving itself and unfairness count;
    ``failed``: the variants that failed a stress check (judge/stress.stress_failures), disqualified everywhere;
    ``proof``: the variants the stress file proves (judge/stress.judge_proof; by default none, and every variant is
    ranked by its speed alone), the only ones recommended where one is eligible.

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

        def combo(case: Case, varying: list[str] = varying) -> Params:
            return tuple((k, v) for k, v in case.key.params if k in varying)

        measured = sorted({combo(c) for c in group}, key=lambda p: CaseKey("", "", "", 1, p).sort_key())
        for params in situation_params(measured):
            for threads_text, threads in thread_situations({c.key.threads for c in group}, logical_cpus):
                candidates = [c for c in group if c.key.threads == threads and combo(c) == params
                              and c.key.variant not in baselines]
                if len(candidates) < 2:
                    continue
                situation = threads_text + (f", {params_label(params)}" if params else "")
                decisions.append(_decide(suite, benchmark, situation, candidates, rows, logical_cpus, cpu_share,
                                         failed, proof, floor))
    return decisions
