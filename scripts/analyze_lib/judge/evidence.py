"""Which samples of a case are evidence that a thread starved, and how many it takes to go beyond chance.

A sample that completed no operation (``ns_per_op`` inf, or a thread at ``thread_ops_min`` 0) says a thread starved
only when nothing outside the variant explains it. Three things can, and each is read from the sample itself:

- **The host took the CPUs** (``spoiled``): the hypervisor stole at least HOST_SPOILED_SHARE of the time of the
  CPUs the row's threads ran on (schema 10's ``steal_ns`` over ``steal_cpus`` × ``elapsed_ns``). Such a sample
  counts towards no starvation, unfairness or cliff.
- **A batch straddled the sample's edge** (``batch_edge``): a thread publishes its count every ``batch_ops``
  operations (schema 10), so a sample shorter than EDGE_BATCHES batches at the case's own pace can end before any
  batch did, though its threads worked throughout (`serial-worker` at 1 thread: 256 tasks a batch, 2-8 ms).
- **A thread was not running** (``not_running``): within the CPUs, threads that waited on a run queue for at least
  NOT_RUNNING_SHARE of a thread's sample between them were held off their CPU by other work, not by the variant,
  and a lock's holder so held off holds its waiters up too (beside two `yes` processes, a mutex's idle thread at 2
  threads had waited a whole sample: the team's run-queue time was half its time).

What is left still happens by chance on a virtual machine: a vCPU can stall for milliseconds while its thread's
clock says it ran, and on this kind of kernel the steal column does not see it (docs/findings/
2026-11-29-stalls-on-a-vm.md). So the run's own controls, the harness suite's loops that cannot starve (CONTROLS),
set the floor (``StallFloor``): the rate at which their samples look starved. A case is starved only when its count of
evidence samples is beyond that rate, a binomial tail below STARVATION_ALPHA. Pure: no I/O, no words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
from .lazy_scipy import scipy_stats

from ..files.model import Case

STEAL = "steal_ns"
STEAL_CPUS = "steal_cpus"
BATCH_OPS = "batch_ops"

# Spoiled by the host: at least this share of the counted CPUs' time stolen during the sample. /proc/stat counts
# steal in ticks of 10 ms, so one tick across an 8 ms sample on two CPUs is 62%: any tick marks it.
HOST_SPOILED_SHARE = 0.1
# A sample's zero is evidence only when at least this many batches fit in it at the case's own pace.
EDGE_BATCHES = 3
# Not running: the row's threads waited on a run queue for at least this share of one thread's sample, between them.
NOT_RUNNING_SHARE = 0.5
# Unfair: the slowest thread completed less than this share of the busiest thread's
# operations (signals.fairness: thread_ops_min / thread_ops_max, the median of round medians). Judged only when
# every thread has a CPU of its own (conditions.fairness_not_judged): with more threads
# than CPUs, or other work holding them, a thread that did little may have been waiting for
# a CPU, not for the variant. decisions.disqualification's line, and the line the controls' samples are counted
# below (stall_floor).
FAIRNESS_MIN = 0.1
# The harness cases that only compute (suite, benchmark, variant): no lock, no wait, no
# allocation, so their threads use all the CPU time they are given (conditions.measured_cpu_share).
CPU_BOUND_HARNESS = (("harness", "empty", "loop"), ("harness", "spin", "loop"))
# The run's controls: the harness loops that share nothing between threads and take no lock (harness/mutex-pair's
# locks are each a thread's own, but a brought lock joins it, and harness/allocate calls malloc, which can lock):
# code that cannot starve nor be unfair, so what they show is chance. `bench` times the CPU-bound ones in every run.
CONTROLS = frozenset(CPU_BOUND_HARNESS) | {("harness", "nops", "asm"), ("harness", "opaque-call", "call"),
                                            ("harness", "lazy-static", "static-let")}
# Beyond chance: the probability that the floor's rate alone gives at least as many starved samples.
STARVATION_ALPHA = 0.01
# The rate assumed when the run timed no control: one sample in 20 of any case may look starved by chance. The
# worst measured so far is on an Intel Xeon VM (issue 73: 1 of 51 two-thread samples of lock-free code with a thread
# at zero), and the prior below puts a run of 40 clean control samples at 1 in 42.
UNMEASURED_STALL_RATE = 0.05


def _column(case: Case, name: str) -> np.ndarray:
    """``case``'s column ``name`` as floats, NaN throughout where the file has no such column."""
    values = case.columns.get(name)
    return np.full(case.n, np.nan) if values is None else np.asarray(values, dtype=float)


def spoiled(case: Case) -> np.ndarray:
    """Each sample: whether the host stole at least HOST_SPOILED_SHARE of the counted CPUs' time (False where the
    file records no steal)."""
    steal, cpus, elapsed = _column(case, STEAL), _column(case, STEAL_CPUS), _column(case, "elapsed_ns")
    with np.errstate(invalid="ignore", divide="ignore"):
        share = steal / (cpus * elapsed)
    return np.asarray(np.isfinite(share) & (share >= HOST_SPOILED_SHARE))


def counted_samples(case: Case) -> int:
    """How many of ``case``'s samples the host did not spoil: those a rate of starved or unfair samples is out of."""
    return case.n - int(spoiled(case).sum())


def unspoiled(case: Case) -> Case:
    """``case`` with only the samples the host did not spoil (``case`` itself when it spoiled none; when it spoiled
    every one, ``case`` too: a level from spoiled samples, said to be, beats none)."""
    kept = ~spoiled(case)
    if kept.all() or not kept.any():
        return case
    rounds = case.rounds[kept] if case.rounds is not None else None
    return Case(case.key, {name: values[kept] for name, values in case.columns.items()}, rounds, case.hung)


def steal_recorded(case: Case) -> bool:
    """Whether any sample of ``case`` records the host's steal."""
    return bool(np.isfinite(_column(case, STEAL)).any())


def _counted_threads(case: Case) -> np.ndarray:
    """The threads each sample's operations count: ``sched_threads`` where recorded, else the case's threads (a
    role row's are fewer, so its pace then reads slower and more of its zeros are taken for batch edges)."""
    counted = _column(case, "sched_threads")
    return np.where(np.isfinite(counted) & (counted > 0), counted, float(case.key.threads))


def zero(case: Case, logical_cpus: int) -> np.ndarray:
    """Each sample: whether it, or within the CPUs one of its threads, completed no operation. With more threads than
    CPUs a thread with nothing may have been waiting for a CPU (the fairness rule does not judge there either)."""
    fewest = _column(case, "thread_ops_min")
    one_thread = case.key.threads <= logical_cpus and (np.isfinite(fewest) & (fewest == 0))
    either: np.ndarray = np.isinf(case.ns_per_op) | one_thread
    return either


def batch_edge(case: Case, logical_cpus: int) -> np.ndarray:
    """Each sample: whether it has a zero (``zero``) yet was shorter than EDGE_BATCHES batches at the case's own
    pace (the median over its samples that did complete some of one thread's time per operation). False where the
    file records no batch size; a case none of whose samples completed an operation has no pace, and its zeros
    stand."""
    batch, elapsed = _column(case, BATCH_OPS), _column(case, "elapsed_ns")
    ops = _column(case, "ops")
    worked = ops > 0
    if not worked.any():
        return np.zeros(case.n, dtype=bool)
    pace = float(np.median(elapsed[worked] * _counted_threads(case)[worked] / ops[worked]))
    with np.errstate(invalid="ignore"):
        short = elapsed < EDGE_BATCHES * batch * pace
    return np.asarray(zero(case, logical_cpus) & np.isfinite(batch) & short)


def not_running(case: Case, logical_cpus: int) -> np.ndarray:
    """Each sample: whether, within the CPUs, the row's threads waited on a run queue for at least NOT_RUNNING_SHARE
    of the sample between them (half a thread's sample: one thread held off its CPU for half of it, or a lock's
    holder, whose waiters then wait too). False with more threads than CPUs, where the wait is the case's own, and
    where the file records no split."""
    if case.key.threads > logical_cpus:
        return np.zeros(case.n, dtype=bool)
    runqueue = _column(case, "sched_runqueue_ns")
    with np.errstate(invalid="ignore", divide="ignore"):
        share = runqueue / _column(case, "elapsed_ns")
    return np.asarray(np.isfinite(share) & (share >= NOT_RUNNING_SHARE))


def explained(case: Case, logical_cpus: int) -> np.ndarray:
    """Each sample: whether something outside the variant explains a zero in it (spoiled, a batch edge, not
    running)."""
    either: np.ndarray = spoiled(case) | batch_edge(case, logical_cpus) | not_running(case, logical_cpus)
    return either


def starved_samples(case: Case, logical_cpus: int) -> np.ndarray:
    """Each sample: whether it, or within the CPUs one of its threads, completed no operation (``zero``) with
    nothing outside the variant to explain it."""
    starved: np.ndarray = zero(case, logical_cpus) & ~explained(case, logical_cpus)
    return starved


def unfair_samples(case: Case, logical_cpus: int, fairness_min: float) -> np.ndarray:
    """Each sample of a case of several threads within the CPUs: whether its slowest thread did less than
    ``fairness_min`` of its busiest one's operations with nothing outside the variant to explain it (all False
    beyond the CPUs or at one thread, where fairness is not judged)."""
    if not 1 < case.key.threads <= logical_cpus:
        return np.zeros(case.n, dtype=bool)
    fewest, most = _column(case, "thread_ops_min"), _column(case, "thread_ops_max")
    with np.errstate(invalid="ignore", divide="ignore"):
        behind = np.isfinite(most) & (most > 0) & (fewest < fairness_min * most)
    return np.asarray(behind & ~explained(case, logical_cpus))


@dataclass(frozen=True)
class Chance:
    """How often ``looked`` of ``samples`` of the run's controls, which cannot starve nor be unfair, looked so
    anyway. ``rate`` is the floor a case's count must go beyond: (looked + 1) / (samples + 2), a count that saw
    nothing not taken for a machine that never stalls; UNMEASURED_STALL_RATE when the run timed no control."""

    looked: int = 0
    samples: int = 0

    @property
    def measured(self) -> bool:
        return self.samples > 0

    @property
    def rate(self) -> float:
        if not self.measured:
            return UNMEASURED_STALL_RATE
        return (self.looked + 1) / (self.samples + 2)

    def chance(self, count: int, samples: int) -> float:
        """The probability that ``samples`` samples at the floor's rate give ``count`` or more."""
        if count <= 0:
            return 1.0
        return float(scipy_stats().binom.sf(count - 1, samples, self.rate))

    def beyond(self, count: int, samples: int) -> bool:
        """Whether ``count`` of ``samples`` go beyond chance (below STARVATION_ALPHA)."""
        return self.chance(count, samples) < STARVATION_ALPHA


@dataclass(frozen=True)
class StallFloor:
    """What the run's controls (the harness suite's loops) show by chance: samples with a thread at no operation
    (``starved``) and samples with a thread below the fairness line (``unfair``, of those within the CPUs), each
    unexplained."""

    starved: Chance = Chance()
    unfair: Chance = Chance()

    @property
    def measured(self) -> bool:
        return self.starved.measured

    def beyond(self, starved: int, samples: int) -> bool:
        """Whether ``starved`` starved samples of ``samples`` go beyond chance."""
        return self.starved.beyond(starved, samples)


UNMEASURED_FLOOR = StallFloor()


def stall_floor(cases: Iterable[Case], logical_cpus: int, fairness_min: float = 0.0) -> StallFloor:
    """The floor the run's controls (CONTROLS) set: every sample of theirs that the host did not spoil, each judged
    as a variant's would be (``starved_samples``; ``unfair_samples`` below ``fairness_min``)."""
    starved = samples = unfair = judged = 0
    for case in cases:
        if (case.key.suite, case.key.benchmark, case.key.variant) in CONTROLS and not case.hung:
            counted = ~spoiled(case)
            starved += int((starved_samples(case, logical_cpus) & counted).sum())
            samples += int(counted.sum())
            if 1 < case.key.threads <= logical_cpus:
                unfair += int((unfair_samples(case, logical_cpus, fairness_min) & counted).sum())
                judged += int(counted.sum())
    return StallFloor(Chance(starved, samples), Chance(unfair, judged))


def spoiled_count(cases: Iterable[Case]) -> tuple[int, int, bool]:
    """Over ``cases``: how many samples the host spoiled, of how many, and whether any recorded the steal."""
    spoilt = total = 0
    recorded = False
    for case in cases:
        spoilt += int(spoiled(case).sum())
        total += case.n
        recorded = recorded or steal_recorded(case)
    return spoilt, total, recorded
