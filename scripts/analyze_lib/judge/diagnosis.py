"""Why a case costs what it costs: one mechanism label per case, from its per-operation signals
(judge/signals.py), and the cliffs where a variant's cost jumps as threads are added.

Where the file records where the measured threads' time went (``Signals.split``, schema 8 on:
running, waiting on a run queue, blocked, switches in, each exact), the rules read it; where it
does not, they read the process's signals as before. The rusage user/system split is sampled at
the scheduler's tick (4 ms at 250 Hz) and decides only where the exact split has nothing to say:
which part of the running time was spent in system calls (SYSCALL_HEAVY). The rules, each stated
once in the constants below and in docs/diagnosis.md with the figures that chose its bounds, are
tried in this order and the first that holds labels the case:

1. STARVATION: the case starved itself (decisions.self_starved: samples with no operation that nothing outside the
   variant explains, beyond what the run's controls show), or (every thread having a CPU) one of its threads
   completed none in the median sample. With more threads than CPUs, a case whose threads stalled that way without
   blocking (decisions.waiter_preemption) is WAITER_PREEMPTION instead: the lock went to a thread that
   was not on a CPU (a FIFO lock's next waiter, a spin lock's holder), each hand-off waiting for a time slice; that
   is advice (avoid when threads can outnumber the CPUs), not a disqualification. So is, with the split, a case
   with more threads than CPUs whose threads hardly blocked yet were switched in at least CONVOY_SWITCHES_PER_OP
   times per operation at a cost beyond what taking turns explains (PROPORTION_SLACK × the proportion): each
   operation waited for a thread to get a CPU again, as a FIFO lock's next waiter does.
   Before both, ROLE_STARVED: one role of the measurement starves another (decisions.role_starvation), which names
   it, a lock that prefers readers starving its writer, say; every row of the measurement gets that one cause, as
   the decision table gives it.
2. HANDOFF and CONVOY: blocking hand-offs. With the split: at least CONVOY_SWITCHES_PER_OP switches in per operation
   with at least CONVOY_BLOCKED_SHARE of the time the threads did not wait for a CPU blocked (Split.blocked_own: a
   busy machine's run-queue time does not hide it). Callers that do so while at least HANDOFF_ELSEWHERE_SHARE of the
   process's CPU time runs on threads the case does not measure, or one caller alone (one measured thread, no other
   role's row beside it), wait for another thread to do their work and wake them: a HANDOFF, one cross-thread round
   trip per operation, never a convoy (which takes threads queued on each other). Several threads: CONVOY, and a
   convoy whose threads ran at least SPIN_BEFORE_SLEEP_NS on a CPU per switch in ran that long between sleeps:
   CONVOY_AFTER_SPINNING (Swift's Mutex; the time is exact, from each thread's CPU clock, never the tick-sampled
   kernel share). Without the split: at least CONVOY_SWITCHES_PER_OP voluntary switches per operation with at least
   CONVOY_KERNEL_SHARE of the CPU time in the kernel; as many switches with the kernel's share below it is UNCLEAR:
   the signals disagree.
3. SPINNING: more threads than CPUs, the CPUs kept busy (utilisation at least
   BUSY_UTILISATION), hardly a switch (at most FEW_SWITCHES_PER_OP), the threads hardly ever
   blocked (split: at most SPIN_BLOCKED_SHARE of their time; without it: kernel share at most
   SPIN_KERNEL_SHARE), and the cost grown beyond what sharing the CPUs explains (more than
   PROPORTION_SLACK × threads / the most threads that fit).
4. POOL_GROWTH: the process gained an OS thread during the median sample (a dispatch pool, or a
   cooperative pool, growing while measured).
5. UNFAIR: every thread had a CPU (conditions.fairness_not_judged) and the slowest did less than
   evidence.FAIRNESS_MIN of the busiest one's operations.
6. OFFLOADED (split only): at least OFFLOADED_CPU_SHARE of the process's CPU time ran on threads
   the case does not measure (Signals.elsewhere_share): the work went to a queue's, a group's or
   the cooperative pool's threads, and the measured threads' own figures do not say what it cost.
7. SYSCALL_HEAVY (split only): the threads ran (blocked at most SPIN_BLOCKED_SHARE of their time)
   with hardly a switch, and at least SYSCALL_KERNEL_SHARE of the CPU time went to the kernel:
   system calls that do not sleep (a futex wake, a semaphore's signal).
8. WAITING_FOR_CPU (split only): at least RUNQUEUE_SHARE of the threads' time waiting on a run
   queue. With more threads than CPUs that is OVERSUBSCRIPTION, measured. Within the CPUs, what held them is
   read from the run's controls and the process: when the CPU-bound harness cases got less than their CPUs
   (conditions.is_busy), other work held them, never the variant's doing (WAITING_FOR_CPU); else when the process
   kept at least HELPERS_BUSY_CPUS busy beyond the measured threads' own running time, its own other threads (a
   queue's, the pool's) held them: CROWDED_BY_HELPERS, the variant's doing. Else nothing measured held the CPUs,
   and no cause is named for the wait: the case is SERIALIZED by rule 9 if it holds, else UNCLEAR.
9. SERIALIZED: two threads or more on two CPUs or more kept about one CPU busy (at most
   SERIAL_BUSY_CPUS): the work went one at a time, through a serial queue or one lock; the
   signals cannot tell which (a queue borrows a pool thread that already exists).
10. OVERSUBSCRIPTION: more threads than CPUs and the cost grown at most PROPORTION_SLACK × in
    proportion to the threads over the most that fit: they take turns on the CPUs.
11. CPU_BOUND: threads within the CPUs with hardly a switch that hardly blocked (split: at most
    SPIN_BLOCKED_SHARE of their time, and less than RUNQUEUE_SHARE waiting, as rule 8 took the
    rest; without it: utilisation at least BUSY_UTILISATION, kernel share at most
    SPIN_KERNEL_SHARE): the cost is the work itself. Unless, at two threads or more, each thread's time per
    operation (ns/op × threads) is at least CONTENDED_GROWTH times the line's at one thread: CONTENDED, the threads
    spend it on each other (spin-waiting, the lock's cache line moving between CPUs), not on the work.
    PIPELINED (split only): threads with hardly a switch, but some, that blocked more than SPIN_BLOCKED_SHARE of
    their time while the process kept at least HELPERS_BUSY_CPUS busy beyond them: they hand work to other
    threads and run on, waiting now and then for those to catch up (asynchronous writes, a throttle, a group's
    notify); the cost is the slower stage's. RARE_LONG_SLEEPS (split only): several such threads with nothing
    busy beyond them slept rarely but long: a futex lock whose waiters mostly get it without sleeping. Without any
    switch the "blocked" time is no sleep (stolen time reads so): UNCLEAR.
12. UNCLEAR: anything else. Never a guess.

A cliff (``cliffs``) is the first thread count along a variant's line (same suite, benchmark,
variant and params) whose cost is at least CLIFF_FACTOR times the cost at the thread count
measured before it, with the diagnosis at the cliff. Pure: no I/O, no words beyond label ids
(present/diagnosis_text.py says them).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from ..files.model import Case, CaseKey, Params
from .conditions import fairness_not_judged, is_busy
from .decisions import (STARVED_SHARE, role_rows, role_siblings, role_starvation, self_starved, starved_reason,
                        waiter_preemption)
from .evidence import FAIRNESS_MIN, StallFloor, starved_samples, unspoiled
from .signals import Signals, finite, signals
from .summary import case_median

STARVATION = "starvation"
WAITER_PREEMPTION = "waiter-preemption"
ROLE_STARVED = "starves-a-role"
HANDOFF = "hand-off"
CONVOY = "convoy"
CONVOY_AFTER_SPINNING = "convoy-after-spinning"
RARE_LONG_SLEEPS = "rare-long-sleeps"
PIPELINED = "pipelined"
SPINNING = "spinning"
POOL_GROWTH = "pool-growth"
UNFAIR = "unfair"
OFFLOADED = "offloaded"
SYSCALL_HEAVY = "system-calls"
WAITING_FOR_CPU = "waiting-for-cpu"
CROWDED_BY_HELPERS = "crowded-by-helpers"
SERIALIZED = "serialized"
OVERSUBSCRIPTION = "oversubscription"
CPU_BOUND = "cpu-bound"
CONTENDED = "contended"
UNCLEAR = "unclear"
# Every label, in the order the rules try them (UNCLEAR last: what no rule explains).
LABELS = (STARVATION, WAITER_PREEMPTION, ROLE_STARVED, HANDOFF, CONVOY, CONVOY_AFTER_SPINNING, RARE_LONG_SLEEPS,
          SPINNING, POOL_GROWTH, UNFAIR, OFFLOADED, SYSCALL_HEAVY, WAITING_FOR_CPU, CROWDED_BY_HELPERS, SERIALIZED,
          OVERSUBSCRIPTION, CPU_BOUND, CONTENDED, PIPELINED, UNCLEAR)

# A blocking hand-off makes a thread sleep and another wake it: one voluntary switch per
# operation or more. In the reference run every case at or above half a switch per operation
# spent 21-99% of its CPU time in the kernel (1-5.8 µs per switch), but one (array-tracker at
# 2 threads, tokens=10000: 1.01 switches, 0% kernel), which is UNCLEAR.
CONVOY_SWITCHES_PER_OP = 0.5
CONVOY_KERNEL_SHARE = 0.2
# "Hardly a switch": the oversubscribed cases that burned the CPUs in user space in the reference
# run (Mutex and os-lock at 8 threads, rwlock at 4) had 0.0002-0.15 voluntary switches per
# operation and at most 6% of their CPU time in the kernel.
FEW_SWITCHES_PER_OP = 0.2
SPIN_KERNEL_SHARE = 0.1
# The CPUs kept busy: those cases' utilisation was 0.87-1.00.
BUSY_UTILISATION = 0.85
# "In proportion": with T threads on C CPUs taking turns, each thread runs C/T of the time;
# a cost that grew by at most this factor over T / (the most threads that fit) is explained by it.
PROPORTION_SLACK = 1.5
# About one CPU busy: a serial queue's or one lock's cases kept 1.0-1.2 CPUs busy.
SERIAL_BUSY_CPUS = 1.2
# OS threads gained during the median sample that make a pool growing.
POOL_GROWTH_THREADS = 1
# A cliff: the cost at one thread count at least this many times the cost at the one before.
CLIFF_FACTOR = 3.0

# The rules on the exact split (schema 8 on; docs/diagnosis.md#the-exact-split has the figures).
# Blocked: a convoy's threads sleep most of the time they do not wait for a CPU (at 8 threads Mutex,
# pthread-mutex-pi and serial-sync 60-78% of all their time), a spinning or CPU-bound team's hardly
# ever (harness/empty/loop at 4 and 8 threads: medians 0-3% of their time, samples up to 10%).
CONVOY_BLOCKED_SHARE = 0.2
SPIN_BLOCKED_SHARE = 0.1
# Spun before sleeping: time on a CPU per switch in. Swift's Mutex runs 29 µs before each sleep at 8
# threads, pthread-mutex-pi (which goes to the kernel at once) a few microseconds.
SPIN_BEFORE_SLEEP_NS = 10_000.0
# A hand-off, not a convoy: the callers block per operation while at least this share of the process's CPU time runs
# on threads the case does not measure (the queue's, the pool's, a responder's). A lock's convoy runs on the threads
# it measures: in the quiet full run of docs/findings/2026-11-28-why-measured.md every harness and lock case ran
# 0-1% elsewhere.
HANDOFF_ELSEWHERE_SHARE = 0.2
# Helpers busy: the process kept at least this many CPUs busy beyond the measured threads' own running time, on
# threads the case does not measure (a queue's, the pool's). Pipelined callers hand work to them and run on; callers
# within the CPUs that waited for one on a quiet machine were crowded by them. In the quiet full run of docs/findings/
# 2026-11-29-an-expert-report.md the asynchronous writes, group-notify and the semaphore throttle at one thread kept
# 0.38-1.04 CPUs busy beyond their caller; the futex locks at two threads none. In that of docs/findings/
# 2026-11-30-waiting-for-a-cpu-on-a-quiet-machine.md the cases within the CPUs that waited 20% or more of their time
# on a run queue kept 0.42-1.02 busy beside them where the pattern runs work on a queue or the pool
# (concurrent-perform, serial-async-write, group-notify), and serial-sync, which runs on its callers, 0.01.
HELPERS_BUSY_CPUS = 0.3
# Offloaded: most of the process's CPU time on threads the case does not measure. In a quiet full run
# (docs/findings/2026-11-28-why-measured.md) `isolation/mixed/actor` at 1 thread ran 89% of it elsewhere (its
# caller blocked 89% of its time), every harness case 0-1%.
OFFLOADED_CPU_SHARE = 0.5
# System calls that do not sleep: at least half of the (tick-sampled) CPU time in the kernel.
SYSCALL_KERNEL_SHARE = 0.5
# Waiting for a CPU: a quiet machine's threads within the CPUs wait 0-4% of their time on a run
# queue, threads beside as many busy processes as CPUs about half.
RUNQUEUE_SHARE = 0.2
# Contended: each thread's time per operation at least this many times its line's at one thread. Work that shares
# nothing costs each thread about what it cost alone (harness/empty/loop 1.0-1.1x at 2 threads); a contended
# `mutex` (isolation/mixed) at 2 threads costs 5.8x (92 ns alone, 532 ns/op of the system at 2: issue 73).
CONTENDED_GROWTH = 2.0


@dataclass(frozen=True)
class Diagnosis:
    """One case's label (one of LABELS) and the signals and growth it was read from.

    ``growth`` is the case's cost over its line's cost at ``reference_threads``, the most threads
    measured that fit the CPUs (None at or below them, or when that count was not measured);
    ``proportion`` is threads / reference_threads, what taking turns alone would explain;
    ``starved`` of the case's ``samples`` completed no operation with nothing outside the variant to explain it
    (evidence.starved_samples); ``hung``: bench abandoned the case as hung. ``starved_reason``: where a starved
    case starved, with what the floor rests on (decisions.starved_reason); ``role_reason``: which role the
    measurement starves (decisions.role_starvation); ``contention``: each thread's time per operation over its
    line's at one thread (None at one thread, or without it); ``elsewhere_cpus``: the CPUs the process kept busy
    beyond the measurement's threads' own running time (cpus_elsewhere; None without the split)."""

    key: CaseKey
    label: str
    signals: Signals
    median: float
    growth: float | None = None
    proportion: float | None = None
    reference_threads: int | None = None
    starved: int = 0
    samples: int = 0
    hung: bool = False
    starved_reason: str | None = None
    role_reason: str | None = None
    contention: float | None = None
    elsewhere_cpus: float | None = None


@dataclass(frozen=True)
class Cliff:
    """Where a variant's cost first jumps as threads are added: from ``before`` threads to ``at``
    threads, by ``factor`` (``inf`` when the case starved there), with the diagnosis at ``at``."""

    before: int
    at: int
    factor: float
    before_median: float
    diagnosis: Diagnosis

    @property
    def key(self) -> CaseKey:
        """The case at the cliff."""
        return self.diagnosis.key


def line_of(key: CaseKey) -> tuple[str, str, str, Params]:
    """A variant's line: the cases that differ only in threads."""
    return (key.suite, key.benchmark, key.variant, key.params)


def cpus_elsewhere(s: Signals, siblings: list[Signals]) -> float | None:
    """How many CPUs the process kept busy beyond the measurement's threads' running time: Signals.busy_cpus less,
    over the rows of the measurement (``siblings``, ``s`` among them: one per role), each row's running share times
    its threads (None where a row has no split)."""
    running = 0.0
    for row in siblings:
        split = row.split
        if split is None or not finite(split.running) or not finite(split.measured_threads):
            return None
        running += split.running * split.measured_threads
    return s.busy_cpus - running if finite(s.busy_cpus) else None


def _serialized(s: Signals) -> bool:
    """Rule 9: two threads or more on two CPUs or more kept at most SERIAL_BUSY_CPUS busy."""
    return s.threads > 1 and s.logical_cpus > 1 and finite(s.busy_cpus) and s.busy_cpus <= SERIAL_BUSY_CPUS


def label(s: Signals, starved_share: float, growth: float | None, proportion: float | None,
          fairness_judged: bool, *, role_starved: bool = False, contention: float | None = None,
          preempted: bool = False, one_caller: bool = False, elsewhere_cpus: float | None = None,
          busy_machine: bool = False) -> str:
    """The one label the rules (module doc) give a case with signals ``s``, ``starved_share`` of
    its samples starved (0 unless decisions.self_starved holds), ``growth`` and ``proportion`` as Diagnosis has
    them, whether its fairness can be judged (every thread had a CPU), whether its measurement starves a role
    (decisions.role_starvation), its ``contention`` (Diagnosis.contention), whether a starvation of it is
    lock-waiter preemption (decisions.waiter_preemption), whether its whole measurement timed one caller
    (``one_caller``: one thread, and no other role's row beside it), the CPUs its process kept busy beyond the
    measurement's threads (``elsewhere_cpus``: cpus_elsewhere) and whether the run's controls found other work
    holding the CPUs (``busy_machine``: conditions.is_busy)."""
    threads, cpus = s.threads, s.logical_cpus
    within = threads <= cpus
    split = s.split
    switches = split.switches_in if split is not None else None
    blocked = split.blocked if split is not None else None
    if not (finite(switches) and finite(blocked)):
        split = None
    beyond = growth is not None and proportion is not None and growth > PROPORTION_SLACK * proportion
    if role_starved:
        return ROLE_STARVED
    if starved_share > 0 and preempted:
        return WAITER_PREEMPTION
    if starved_share >= STARVED_SHARE or (within and fairness_judged and threads > 1 and s.fairness == 0):
        return STARVATION
    if split is not None and finite(switches) and finite(blocked):
        own = split.blocked_own
        if switches >= CONVOY_SWITCHES_PER_OP and finite(own) and own >= CONVOY_BLOCKED_SHARE:
            elsewhere = s.elsewhere_share
            if one_caller or (finite(elsewhere) and elsewhere >= HANDOFF_ELSEWHERE_SHARE):
                return HANDOFF
            spun = split.running_ns_per_switch
            return CONVOY_AFTER_SPINNING if finite(spun) and spun >= SPIN_BEFORE_SLEEP_NS else CONVOY
        few_switches = switches <= FEW_SWITCHES_PER_OP
        running = blocked <= SPIN_BLOCKED_SHARE
        if not within and running and switches >= CONVOY_SWITCHES_PER_OP and beyond:
            return WAITER_PREEMPTION
    else:
        if finite(s.voluntary) and s.voluntary >= CONVOY_SWITCHES_PER_OP:
            share = s.kernel_share
            return CONVOY if share is not None and share >= CONVOY_KERNEL_SHARE else UNCLEAR
        few_switches = finite(s.voluntary) and s.voluntary <= FEW_SWITCHES_PER_OP
        running = s.kernel_share is not None and s.kernel_share <= SPIN_KERNEL_SHARE
    busy = finite(s.utilisation) and s.utilisation >= BUSY_UTILISATION
    if not within and busy and running and few_switches and beyond:
        return SPINNING
    if finite(s.threads_created) and s.threads_created >= POOL_GROWTH_THREADS:
        return POOL_GROWTH
    if within and fairness_judged and threads > 1 and finite(s.fairness) and s.fairness < FAIRNESS_MIN:
        return UNFAIR
    if split is not None:
        elsewhere = s.elsewhere_share
        if finite(elsewhere) and elsewhere >= OFFLOADED_CPU_SHARE:
            return OFFLOADED
        kernel = s.kernel_share
        if running and few_switches and kernel is not None and kernel >= SYSCALL_KERNEL_SHARE:
            return SYSCALL_HEAVY
        if finite(split.runqueue) and split.runqueue >= RUNQUEUE_SHARE:
            if not within:
                return OVERSUBSCRIPTION
            if busy_machine:
                return WAITING_FOR_CPU
            if finite(elsewhere_cpus) and elsewhere_cpus >= HELPERS_BUSY_CPUS:
                return CROWDED_BY_HELPERS
            # Nothing measured held the CPUs: the wait is not explained, and no rule below that reads it as running.
            return SERIALIZED if _serialized(s) else UNCLEAR
    if _serialized(s):
        return SERIALIZED
    if not within and growth is not None and proportion is not None and not beyond:
        return OVERSUBSCRIPTION
    # With the split, threads that hardly blocked nor switched and waited little for a CPU (rule 8 took the
    # rest) spent their time running: on the work, or on each other when each op costs a thread far more than alone.
    if within and running and few_switches and (split is not None or busy):
        return CONTENDED if threads > 1 and contention is not None and contention >= CONTENDED_GROWTH else CPU_BOUND
    if split is not None and few_switches and not running and finite(switches) and switches > 0:
        if finite(elsewhere_cpus) and elsewhere_cpus >= HELPERS_BUSY_CPUS:
            return PIPELINED
        # Blocked time with no switch at all is no sleep: the host's stolen time shows so
        # (findings/2026-11-29-stalls-on-a-vm).
        if threads > 1:
            return RARE_LONG_SLEEPS
    return UNCLEAR


def diagnose(cases: dict[CaseKey, Case], logical_cpus: int, cpu_share: float | None = None, *,
             floor: StallFloor) -> dict[CaseKey, Diagnosis]:
    """Every case's Diagnosis. ``cpu_share``: what the run's CPU-bound harness cases got of their
    CPUs (conditions.RunConditions.cpu_share), which says where fairness can be judged and whether other work held
    the CPUs a case waited for (rule 8). Starvation is the decisions'
    (decisions.self_starved), beyond ``floor``: the floor the run's controls set, over the whole run, not the
    filtered ``cases`` (conditions.RunConditions.floor), as decisions.decide is given it."""
    rows = role_rows(cases.values())
    lines: dict[tuple[str, str, str, Params], dict[int, Case]] = defaultdict(dict)
    for case in cases.values():
        lines[line_of(case.key)][case.key.threads] = case
    # A case's level here, for its growth, its contention and the cliffs, leaves out the samples the host spoiled.
    level = {key: case_median(unspoiled(case)) for key, case in cases.items()}
    found = {}
    for key, case in cases.items():
        members = lines[line_of(key)]
        fitting = [t for t in members if t <= logical_cpus]
        reference = max(fitting) if fitting else None
        growth = proportion = contention = None
        if key.threads > logical_cpus and reference is not None:
            base = level[members[reference].key]
            if math.isfinite(base) and base > 0:
                growth, proportion = level[key] / base, key.threads / reference
        alone = level[members[1].key] if 1 in members else math.nan
        if key.threads > 1 and math.isfinite(alone) and alone > 0 and math.isfinite(level[key]):
            contention = level[key] * key.threads / alone
        siblings = role_siblings(case, rows)
        s = signals(case, logical_cpus, siblings)
        beside = cpus_elsewhere(s, [s if row is case else signals(row, logical_cpus, siblings) for row in siblings])
        judged = fairness_not_judged(key.threads, logical_cpus, cpu_share) is None
        starved = int(starved_samples(case, logical_cpus).sum())
        is_starved = case.n > 0 and self_starved(case, logical_cpus, floor, cpu_share)
        role_reason = role_starvation(siblings, logical_cpus) if len(siblings) > 1 else None
        if case.hung:
            name = STARVATION
        else:
            name = label(s, starved / case.n if is_starved else 0.0, growth, proportion, judged,
                         role_starved=role_reason is not None, contention=contention,
                         preempted=waiter_preemption(case, logical_cpus),
                         one_caller=len(siblings) == 1 and s.split is not None and s.split.measured_threads == 1,
                         elsewhere_cpus=beside, busy_machine=is_busy(cpu_share))
        found[key] = Diagnosis(key, name, s, level[key], growth, proportion,
                               reference if growth is not None else None, starved, case.n, case.hung,
                               starved_reason(case, logical_cpus, floor) if is_starved else None, role_reason,
                               contention, beside)
    return found


def cliffs(diagnoses: dict[CaseKey, Diagnosis]) -> list[Cliff]:
    """The first cliff of every line that has one, steepest first (then by case order)."""
    lines: dict[tuple[str, str, str, Params], list[Diagnosis]] = defaultdict(list)
    for diagnosis in diagnoses.values():
        lines[line_of(diagnosis.key)].append(diagnosis)
    found = []
    for members in lines.values():
        members.sort(key=lambda d: d.key.threads)
        for before, at in zip(members, members[1:]):
            if not (math.isfinite(before.median) and before.median > 0):
                continue
            if math.isinf(at.median) and at.label not in (STARVATION, WAITER_PREEMPTION):
                continue  # a median lost to samples the evidence rules do not count as starved is no cliff
            factor = at.median / before.median
            if factor >= CLIFF_FACTOR:
                found.append(Cliff(before.key.threads, at.key.threads, factor, before.median, at))
                break
    return sorted(found, key=lambda c: (-c.factor, c.key.sort_key()))
