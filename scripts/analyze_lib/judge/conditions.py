"""Under what conditions a timing run was made, and what they allow a report to judge.

``run_conditions`` reads a loaded timing file's run settings (``--quick``, rounds, samples,
sample length, ``--filter``, ``--threads``), how many rounds each case got (an adaptive run stops
each case between run_min_rounds and run_rounds) and what its samples measured of the machine;
``RunConditions.busy`` says whether the machine was busy, and ``fairness_not_judged`` whether a
thread that did little can be blamed on the variant: only when every thread had a CPU to itself.

Busy is judged from the samples, not from the load average: the CPU-bound harness cases
(CPU_BOUND_HARNESS) only compute, so at threads within the CPUs their process's CPU time is
elapsed × threads when every thread had its CPU (``cpu_share`` near 1) and less when other work
held the CPUs. The load average (``load_avg_1m``, recorded once as the run started, so it counts
the build ``swift run`` had just done) is kept as a figure to show; it decides nothing. A run
without those cases (filtered out) has no ``cpu_share``: it is not called busy and its fairness
is judged as before (threads within the CPUs). docs/diagnosis.md states the bound and its figures.

The stall floor (``floor``: how often the run's controls looked starved or unfair by chance, evidence.stall_floor)
is read once from the whole file too, as ``cpu_share`` is: a report's ``--filter`` selects the cases it judges,
never the controls they are judged against, so a filter that leaves out the harness judges as the whole run does
(and as the report's machine box says).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from ..files.model import Case, ResultsFile
from .evidence import CPU_BOUND_HARNESS, FAIRNESS_MIN, UNMEASURED_FLOOR, StallFloor, stall_floor
from .signals import cpu_share, signal_level

# Quiet: the CPU-bound harness cases (evidence.CPU_BOUND_HARNESS) got at least this share of their CPUs (CPU time
# over elapsed × threads, median of round medians) at every thread count within the CPUs. In the reference run
# (Results/reference/20261121-235927-59ca2b3.csv) harness/empty/loop got 1.00 and 0.99 at 1
# and 2 threads; a run on the same VM while another session measured got 0.50.
QUIET_CPU_SHARE = 0.9
OVERSUBSCRIBED_REASON = "more threads than CPUs"


@dataclass(frozen=True)
class RunConditions:
    """How one timing run was made: its settings as ``bench`` recorded them (None where the
    file's schema predates them), the thread counts and rounds its cases hold, the load average as the run started
    (shown, never deciding), what share of their CPUs the CPU-bound harness cases got and how often the run's
    controls looked starved or unfair by chance."""

    logical_cpus: int
    threads: tuple[int, ...]
    rounds: int
    # The fewest rounds a case of the run gets (run_min_rounds): below ``rounds`` in an adaptive
    # run, None where the file predates it.
    min_rounds: int | None = None
    # How many cases got how many rounds: (rounds, cases), fewest rounds first.
    rounds_per_case: tuple[tuple[int, int], ...] = ()
    quick: bool | None = None
    filter: str | None = None
    samples: int | None = None
    warmup: int | None = None
    sample_ns: int | None = None
    load_at_start: float | None = None
    # The share of their CPUs the CPU-bound harness cases got (the least over the thread counts
    # within the CPUs), None when the run has none of them.
    cpu_share: float | None = None
    # The CPU-bound harness cases (suite/benchmark/variant) a filtered run holds that its filter does not select:
    # the controls bench adds to such a run (unless --no-controls).
    added_controls: tuple[str, ...] = ()
    # The floor the run's controls (evidence.CONTROLS) set over the whole run, whatever a report's filter selects:
    # how often their samples looked starved, or unfair (below FAIRNESS_MIN), by chance (evidence.stall_floor);
    # UNMEASURED_FLOOR when the run timed none. Starvation and unfairness count only beyond it (decisions.decide).
    floor: StallFloor = UNMEASURED_FLOOR

    @property
    def recorded(self) -> bool:
        """Whether the file records its run settings (schema 3 and later)."""
        return self.quick is not None

    @property
    def adaptive(self) -> bool:
        """Whether each case stopped once bench's stopping rule settled it, between ``min_rounds``
        and ``rounds`` (bench without --rounds)."""
        return self.min_rounds is not None and self.min_rounds < self.rounds

    @property
    def busy(self) -> bool:
        """Whether other work held the CPUs while the run measured: the CPU-bound harness cases
        got less than QUIET_CPU_SHARE of them (False when the run has none of those cases)."""
        return is_busy(self.cpu_share)

    @property
    def fairness_unjudged_threads(self) -> tuple[int, ...]:
        """The thread counts measured that fit the CPUs but at which the machine was too busy
        to judge fairness."""
        return tuple(t for t in self.threads if 1 < t <= self.logical_cpus
                     and fairness_not_judged(t, self.logical_cpus, self.cpu_share) is not None)

    @property
    def narrowed(self) -> bool:
        """Whether the run was quick or filtered: its recommendations rest on fewer samples
        or fewer variants than a full run's."""
        return bool(self.quick) or bool(self.filter)


def run_conditions(results: ResultsFile) -> RunConditions:
    """The conditions of ``results``' run, from its run-level columns and its cases: all of them, whatever a
    report's filter selects of them (``cpu_share`` and ``floor`` are the whole run's)."""
    run = results.run
    cases = results.cases.values()
    per_case = Counter(c.round_count for c in cases)
    return RunConditions(
        logical_cpus=results.logical_cpus,
        threads=tuple(sorted({c.key.threads for c in cases})),
        rounds=run.get("run_rounds") or max((c.round_count for c in cases), default=1),
        min_rounds=run.get("run_min_rounds"), rounds_per_case=tuple(sorted(per_case.items())),
        quick=run.get("run_quick"), filter=run.get("run_filter"), samples=run.get("run_samples"),
        warmup=run.get("run_warmup"), sample_ns=run.get("run_sample_ns"),
        load_at_start=run.get("load_avg_1m"),
        cpu_share=measured_cpu_share(results.cases.values(), results.logical_cpus),
        added_controls=added_controls(results.cases.values(), run.get("run_filter")),
        floor=stall_floor(results.cases.values(), results.logical_cpus, FAIRNESS_MIN))


def added_controls(cases: Iterable[Case], pattern: str | None) -> tuple[str, ...]:
    """The CPU-bound harness cases among ``cases`` that the run's ``--filter`` ``pattern`` does not select (a
    regular expression searched in ``suite/benchmark/variant``): those bench added as controls. None without a
    filter."""
    if not pattern:
        return ()
    try:
        selects = re.compile(pattern).search
    except re.error:
        return ()
    present = {"/".join(name) for name in CPU_BOUND_HARNESS
               if any((c.key.suite, c.key.benchmark, c.key.variant) == name for c in cases)}
    return tuple(sorted(path for path in present if not selects(path)))


def measured_cpu_share(cases: Iterable[Case], logical_cpus: int) -> float | None:
    """The share of their CPUs the CPU-bound harness cases among ``cases`` got: per thread count
    within the CPUs the median over those cases of each one's median of round medians of
    CPU time / (elapsed × threads), then the least over the thread counts; None without them."""
    by_threads: dict[int, list[float]] = {}
    for case in cases:
        key = case.key
        if (key.suite, key.benchmark, key.variant) in CPU_BOUND_HARNESS and key.threads <= logical_cpus:
            share = signal_level(cpu_share(case, logical_cpus), case.round_ids)
            if share is not None:
                by_threads.setdefault(key.threads, []).append(share)
    if not by_threads:
        return None
    return min(float(np.median(shares)) for shares in by_threads.values())


def is_busy(share: float | None) -> bool:
    """Whether a measured CPU share (``measured_cpu_share``) says other work held the CPUs."""
    return share is not None and share < QUIET_CPU_SHARE


def fairness_not_judged(threads: int, logical_cpus: int, share: float | None) -> str | None:
    """Why fairness cannot be judged at ``threads`` threads, or None when it can (or, at one
    thread, has nothing to judge). A thread that waited for a CPU, because there were more
    threads than CPUs or because other work held them (``share``, what the CPU-bound harness
    cases got of their CPUs, below QUIET_CPU_SHARE; None when not measured, then judged), did
    little without the variant being unfair."""
    if threads <= 1:
        return None
    if threads > logical_cpus:
        return OVERSUBSCRIBED_REASON
    if is_busy(share):
        return f"the machine was busy: the CPU-bound harness cases got {share:.0%} of their CPUs"
    return None
