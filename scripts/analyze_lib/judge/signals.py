"""What a case's samples say besides its time: per-operation signals of how the time was spent.

Every timing row holds, for its sample, the whole process's user and kernel CPU time, its
voluntary and involuntary context switches, the operations its fewest and busiest thread
completed, the OS threads at the sample's start and end and (schema 8 on, where the platform
keeps them) where the measured threads' time went: running on a CPU, waiting on a run queue for
one, and how often they were switched in (docs/csv-schema.md). ``signals``
turns them into one number each per case, the way judge/summary.py summarizes the time: each
sample's value, then the median of each round's samples, then the median of those round
medians (samples with no finite value, a starved sample's, are left out).

The CPU and switch counts are the process's, so a case measured once per role (``role=read``
and ``role=write``) shares them between its role rows: they are divided by the operations of
every role of the sample (``role_rows`` finds them), not by the row's own. The schedule columns
are the row's own threads' (those of its role), so they are divided by the row's own operations
and threads. The time those threads were blocked is derived here alone (``blocked_ns``). Pure:
no I/O, no words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeGuard

import numpy as np

from ..files.model import Case
from .stats import finite_median, split_by_round

OPS = "ops"
ELAPSED = "elapsed_ns"
USER = "cpu_user_ns"
SYS = "cpu_sys_ns"
VOLUNTARY = "ctx_voluntary"
INVOLUNTARY = "ctx_involuntary"
FEWEST = "thread_ops_min"
MOST = "thread_ops_max"
OS_THREADS_START = "os_threads_start"
OS_THREADS_END = "os_threads_end"
SCHED_THREADS = "sched_threads"
SCHED_RUNNING = "sched_running_ns"
SCHED_RUNQUEUE = "sched_runqueue_ns"
SCHED_SWITCHES = "sched_switches_in"


@dataclass(frozen=True)
class Split:
    """Where a case's measured threads' time went, exactly (the kernel counts it at each switch):
    each a level (``signal_level``) of its per-sample value.

    ``running``, ``runqueue`` and ``blocked``: shares of each thread's wall time spent on a CPU,
    runnable but waiting on a run queue for a CPU, and neither (asleep in a lock, a futex, a
    queue); they sum to about 1. ``running_ns``, ``runqueue_ns`` and ``blocked_ns``: the same
    times summed over the threads, per operation (they sum to threads × ns/op).
    ``switches_in``: switches in per operation (after each sleep and each preemption).
    ``blocked_own``: blocked over running + blocked: the share of the time the threads were not
    waiting for a CPU that they slept, which other work on the machine does not dilute.
    ``measured_threads``: how many threads the figures sum (the row's role's, or the callers of a hand-off).

    Each is a level of its own, so the three shares need not sum to 1 exactly."""

    running: float | None
    runqueue: float | None
    blocked: float | None
    running_ns: float | None
    runqueue_ns: float | None
    blocked_ns: float | None
    switches_in: float | None
    blocked_own: float | None = None
    measured_threads: float | None = None

    @property
    def running_ns_per_switch(self) -> float | None:
        """Time on a CPU between two switches in (None without switches): how long a thread ran
        before it slept or was preempted again."""
        if not finite(self.running_ns) or not finite(self.switches_in) or self.switches_in <= 0:
            return None
        return self.running_ns / self.switches_in


@dataclass(frozen=True)
class Signals:
    """One case's per-operation signals, each the median of its round medians (None where the
    file has no value: OS threads before schema 3, or every sample starved).

    ``voluntary`` and ``involuntary``: context switches per operation (a voluntary one is a
    thread that blocked); ``kernel_ns`` and ``user_ns``: the process's system and user CPU time
    per operation; ``utilisation``: CPU time over the time the case's threads could have had,
    elapsed × min(threads, logical CPUs) (near 1: every thread kept a CPU busy; above 1: other
    threads of the process, a dispatch pool's, ran too); ``fairness``: the slowest thread's
    operations over the busiest's; ``threads_created``: OS threads at the sample's end minus at
    its start; ``os_threads``: OS threads at the sample's end.

    ``split`` is where the measured threads' time went (None where the file does not record it:
    schema before 8, or a platform without per-thread scheduler statistics)."""

    threads: int
    logical_cpus: int
    voluntary: float | None
    involuntary: float | None
    kernel_ns: float | None
    user_ns: float | None
    utilisation: float | None
    fairness: float | None
    threads_created: float | None = None
    os_threads: float | None = None
    split: Split | None = None

    @property
    def kernel_share(self) -> float | None:
        """The kernel's share of the CPU time per operation, sys / (user + sys); None when the
        process used no CPU time that was counted."""
        if self.kernel_ns is None or self.user_ns is None or self.kernel_ns + self.user_ns <= 0:
            return None
        return self.kernel_ns / (self.kernel_ns + self.user_ns)

    @property
    def elsewhere_share(self) -> float | None:
        """The share of the process's CPU time that ran on threads the case does not measure (a queue's, a
        group's, the cooperative pool's): 1 − the measured threads' running time over the process's CPU time, per
        op, at least 0. The process's total CPU time is exact (only its user/system split is tick-sampled). None
        without the split or without CPU time."""
        split = self.split
        if split is None or not finite(split.running_ns) or self.kernel_ns is None or self.user_ns is None:
            return None
        total = self.kernel_ns + self.user_ns
        if total <= 0:
            return None
        return max(0.0, 1.0 - split.running_ns / total)

    @property
    def kernel_ns_per_switch(self) -> float | None:
        """Kernel CPU time per voluntary switch (None without switches): a thread that blocks
        and is woken spends a microsecond or more of it in the kernel."""
        if self.kernel_ns is None or not self.voluntary:
            return None
        return self.kernel_ns / self.voluntary

    @property
    def busy_cpus(self) -> float | None:
        """How many CPUs the process kept busy on average: utilisation × min(threads, CPUs)."""
        if self.utilisation is None:
            return None
        return self.utilisation * min(self.threads, self.logical_cpus)


def signal_level(values: np.ndarray, rounds: np.ndarray) -> float | None:
    """The median of the per-round medians of the finite ``values`` (None when none is finite)."""
    medians = [m for m in (finite_median(group) for group in split_by_round(values, rounds)) if m is not None]
    return float(np.median(medians)) if medians else None


def _per(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan)


def sample_ops(case: Case, siblings: list[Case] | None = None) -> np.ndarray:
    """Each sample's operations of every role of the measurement: the row's own ``ops``, plus
    those of its sibling role rows when they hold the same samples (same count, same rounds)."""
    ops = np.asarray(case.columns[OPS], dtype=float)
    for other in siblings or ():
        if other is case:
            continue
        if other.n == case.n and np.array_equal(other.round_ids, case.round_ids):
            ops = ops + np.asarray(other.columns[OPS], dtype=float)
    return ops


def cpu_share(case: Case, logical_cpus: int) -> np.ndarray:
    """Each sample's CPU time over elapsed × min(threads, CPUs): the utilisation of the sample."""
    columns = case.columns
    capacity = np.asarray(columns[ELAPSED], dtype=float) * min(case.key.threads, logical_cpus)
    return _per(np.asarray(columns[USER], dtype=float) + np.asarray(columns[SYS], dtype=float), capacity)


def fairness(case: Case) -> float | None:
    """The case's fairness, the one definition every rule and table uses: each sample's slowest thread's
    operations over its busiest thread's, as a level (``signal_level``: the median of the round medians, as a
    case's ns/op); None where no sample recorded them."""
    with np.errstate(invalid="ignore", divide="ignore"):
        fewest, most = case.columns[FEWEST], case.columns[MOST]
        shares = np.where(most > 0, fewest / np.where(most > 0, most, 1), np.nan)
    return signal_level(shares, case.round_ids)


def blocked_ns(threads: np.ndarray, elapsed: np.ndarray, running: np.ndarray, runqueue: np.ndarray) -> np.ndarray:
    """The one definition of the time a sample's measured threads were blocked: threads × wall
    time, minus their time on a CPU and waiting on a run queue; never below 0 (the threads are read
    just outside the timed region, so a thread that never blocked can show a few microseconds
    less than nothing)."""
    blocked: np.ndarray = np.maximum(threads * elapsed - running - runqueue, 0.0)
    return blocked


def split(case: Case) -> Split | None:
    """Where ``case``'s measured threads' time went (Split), or None when no sample recorded it."""
    columns, rounds = case.columns, case.round_ids
    threads = columns.get(SCHED_THREADS)
    if threads is None or not np.isfinite(threads).any():
        return None
    elapsed = np.asarray(columns[ELAPSED], dtype=float)
    running = np.asarray(columns[SCHED_RUNNING], dtype=float)
    runqueue = np.asarray(columns[SCHED_RUNQUEUE], dtype=float)
    blocked = blocked_ns(threads, elapsed, running, runqueue)
    span, ops = threads * elapsed, np.asarray(columns[OPS], dtype=float)
    return Split(
        running=signal_level(_per(running, span), rounds), runqueue=signal_level(_per(runqueue, span), rounds),
        blocked=signal_level(_per(blocked, span), rounds),
        running_ns=signal_level(_per(running, ops), rounds), runqueue_ns=signal_level(_per(runqueue, ops), rounds),
        blocked_ns=signal_level(_per(blocked, ops), rounds),
        switches_in=signal_level(_per(np.asarray(columns[SCHED_SWITCHES], dtype=float), ops), rounds),
        blocked_own=signal_level(_per(blocked, running + blocked), rounds),
        measured_threads=signal_level(np.asarray(threads, dtype=float), rounds))


def signals(case: Case, logical_cpus: int, siblings: list[Case] | None = None) -> Signals:
    """``case``'s Signals; ``siblings``: the other role rows of the same measurement, whose
    operations share the process's CPU time and switches (decisions.role_rows)."""
    columns, rounds = case.columns, case.round_ids
    ops = sample_ops(case, siblings)

    def per_op(column: str) -> float | None:
        return signal_level(_per(np.asarray(columns[column], dtype=float), ops), rounds)

    start, end = columns.get(OS_THREADS_START), columns.get(OS_THREADS_END)
    created = signal_level(end - start, rounds) if start is not None and end is not None else None
    return Signals(
        threads=case.key.threads, logical_cpus=logical_cpus,
        voluntary=per_op(VOLUNTARY), involuntary=per_op(INVOLUNTARY),
        kernel_ns=per_op(SYS), user_ns=per_op(USER),
        utilisation=signal_level(cpu_share(case, logical_cpus), rounds),
        fairness=fairness(case),
        threads_created=created,
        os_threads=signal_level(end, rounds) if end is not None else None,
        split=split(case))


def finite(value: float | None) -> TypeGuard[float]:
    """Whether ``value`` is a number a rule can use (not None, not NaN or infinite)."""
    return value is not None and math.isfinite(value)
