"""A diagnosis in words (judge/diagnosis.py decides it): the label and the figures that earned it,
e.g. ``convoy: 1.15 switches and 2.2 µs in the kernel per op``, where the threads' time went
(``split_text``: ``per thread 12% running, 3% waiting for a CPU, 85% blocked``), a cliff, e.g. ``cliff between 4
and 8 threads (226×)``, and what moved with a slower case (judge/moved.py), e.g. ``switches per op
0.01 → 0.9: now blocking``. Nothing is decided here; docs/diagnosis.md states the rules."""

from __future__ import annotations

import math

from ..fmt import fmt_count, fmt_duration, fmt_multiple, fmt_rate
from ..judge.decisions import HUNG
from ..judge.diagnosis import (CONTENDED, CONVOY, CONVOY_AFTER_SPINNING, CPU_BOUND, CROWDED_BY_HELPERS, HANDOFF,
                               OFFLOADED, OVERSUBSCRIPTION, PIPELINED, POOL_GROWTH, RARE_LONG_SLEEPS, ROLE_STARVED,
                               SERIALIZED, SPINNING, STARVATION, SYSCALL_HEAVY, UNCLEAR, UNFAIR, WAITER_PREEMPTION,
                               WAITING_FOR_CPU, Cliff, Diagnosis)
from ..judge.moved import INVOLUNTARY, KERNEL, VOLUNTARY, SignalMove, WhatMoved
from ..judge.signals import Split, finite

# Where the rules are stated, for a reader who wants the why of a label.
RULES_PAGE = "docs/diagnosis.md"


def _switches(value: float | None) -> str:
    return f"{fmt_rate(value)} switch{'' if value == 1 else 'es'}" if finite(value) else "switches not recorded"


def _time(value: float | None) -> str:
    return fmt_duration(value) if finite(value) else "—"


def _share(value: float | None) -> str:
    return f"{value:.0%}" if finite(value) else "—"


def _growth(d: Diagnosis) -> str:
    if d.growth is None:
        return ""
    return f", {fmt_multiple(d.growth)}× the cost at {d.reference_threads} threads"


def _switches_in(value: float | None) -> str:
    if not finite(value):
        return "switches not recorded"
    text = fmt_rate(value)
    return f"{text} switch{'' if text == '1' else 'es'} in"


def split_text(split: Split | None) -> str:
    """Where the measured threads' time went: each thread's shares, then per op the threads' time
    in each state and their switches in: ``per thread 12% running, 3% waiting for a CPU, 85%
    blocked; per op 2.1 µs running, 0.5 µs waiting, 15 µs blocked, 1.0 switch in``; or that the
    file does not record it."""
    if split is None:
        return "where the threads' time went is not recorded (schema before 8, or no schedstat)"
    return (f"per thread {_share(split.running)} running, {_share(split.runqueue)} waiting for a CPU, "
            f"{_share(split.blocked)} blocked; per op {_time(split.running_ns)} running, "
            f"{_time(split.runqueue_ns)} waiting, {_time(split.blocked_ns)} blocked, {_switches_in(split.switches_in)}")


def _per_sleep(split: Split) -> str:
    """How long a thread slept each time it blocked: its blocked time over its switches in, per op."""
    if not finite(split.blocked_ns) or not finite(split.switches_in) or split.switches_in <= 0:
        return "—"
    return fmt_duration(split.blocked_ns / split.switches_in)


def cause_text(d: Diagnosis) -> str:
    """The label and its figures in a short phrase, per operation."""
    s = d.signals
    split = s.split
    if d.label == ROLE_STARVED and d.role_reason is not None:
        return d.role_reason
    if d.label == WAITER_PREEMPTION:
        stalled = (f"no operation completed in {d.starved_reason}" if d.starved_reason is not None else
                   f"{_switches_in(split.switches_in if split else None)} per op{_growth(d)}")
        return (f"waiter preemption: {stalled}, with {s.threads} threads on {s.logical_cpus} CPUs, the threads "
                f"{_share(split.blocked if split else None)} blocked: the lock went to a thread that was not on a CPU, "
                "and each hand-off waited for a time slice; avoid it where threads can outnumber the CPUs")
    if d.label == HANDOFF and split is not None:
        return (f"hand-off: a cross-thread round trip, the caller waiting {_time(split.blocked_ns)} per op for "
                f"another thread's work and wake-up ({_share(split.blocked_own)} of the time it did not wait for a "
                f"CPU), {_switches_in(split.switches_in)} per op")
    if d.label == RARE_LONG_SLEEPS and split is not None:
        return (f"rare long sleeps: {_share(split.blocked)} of each thread's time blocked at "
                f"{_switches_in(split.switches_in)} per op, {_per_sleep(split)} a sleep: the threads mostly run, and "
                "now and then sleep long (a futex lock's waiters that mostly get it without sleeping, callers that "
                "wait once per batch of tasks)")
    if d.label == PIPELINED and split is not None:
        return (f"pipelined: the caller hands work to other threads and runs on ({s.busy_cpus:.1f} CPUs busy, its own "
                f"threads {_share(split.running)} running), blocked {_share(split.blocked)} of its time waiting for "
                f"them to catch up, {_switches_in(split.switches_in)} per op: the slower stage sets the cost")
    if d.label == CONTENDED:
        running = f"{_share(split.running)} of each thread's time running, " if split is not None else ""
        return (f"contended: each thread spends {fmt_multiple(d.contention or math.nan)}× its one-thread time per op, "
                f"{running}{_switches_in(split.switches_in if split else None)} per op: on each other (spin-waiting, "
                "the lock's cache line moving between CPUs), not on the work")
    if d.label in (CONVOY, CONVOY_AFTER_SPINNING) and split is not None:
        # Where the spin ran (user space or the kernel) only the tick-sampled split says: a detail, never the bound.
        spun = (f", {_time(split.running_ns_per_switch)} on a CPU before each sleep ({_share(s.kernel_share)} of "
                "the CPU time in the kernel, tick-sampled)" if d.label == CONVOY_AFTER_SPINNING else "")
        return (f"{'convoy after spinning' if d.label == CONVOY_AFTER_SPINNING else 'convoy'}: "
                f"{_switches_in(split.switches_in)} and {_time(split.blocked_ns)} blocked per op "
                f"({_share(split.blocked)} of each thread's time, {_share(split.blocked_own)} of the time it did "
                f"not wait for a CPU){spun}")
    if d.label == CONVOY:
        return f"convoy: {_switches(s.voluntary)} and {_time(s.kernel_ns)} in the kernel per op"
    if d.label == OFFLOADED:
        return (f"offloaded: {_share(s.elsewhere_share)} of the CPU time on threads the case does not measure (a "
                f"queue's or a pool's), its own threads {_share(split.blocked if split else None)} blocked")
    if d.label == SYSCALL_HEAVY:
        return (f"system calls: {_share(s.kernel_share)} of the CPU time in the kernel, "
                f"{_switches_in(split.switches_in if split else None)} per op, "
                f"{_share(split.blocked if split else None)} blocked")
    if d.label == WAITING_FOR_CPU:
        return (f"waiting for a CPU: {_share(split.runqueue if split else None)} of each thread's time on a run "
                f"queue with {fmt_count(s.threads, 'thread')} on {s.logical_cpus} CPUs: other work held the CPUs "
                "(the CPU-bound harness cases got less than their CPUs too)")
    helpers = d.elsewhere_cpus
    if d.label == CROWDED_BY_HELPERS and split is not None and helpers is not None and finite(s.busy_cpus):
        return (f"crowded by its helpers: {_share(split.runqueue)} of each thread's time on a run queue with "
                f"{fmt_count(s.threads, 'thread')} on {s.logical_cpus} CPUs, on a machine otherwise quiet, while the "
                f"pattern's other threads (a queue's or the pool's) kept {helpers:.1f} CPUs busy beside its measured "
                f"threads' {s.busy_cpus - helpers:.1f}: the work its callers waited behind was its own")
    if d.label == OVERSUBSCRIPTION and split is not None and finite(split.runqueue):
        return (f"oversubscription: {s.threads} threads take turns on {s.logical_cpus} CPUs, "
                f"{_share(split.runqueue)} of each thread's time waiting for one{_growth(d)}")
    if d.label == SPINNING:
        return (f"spinning: CPUs {_share(s.utilisation)} busy, {_time(s.user_ns)} of user time and "
                f"{_switches(s.voluntary)} per op{_growth(d)}")
    if d.label == POOL_GROWTH:
        return f"pool growth: {s.threads_created:g} OS threads started during a sample"
    if d.label == UNFAIR:
        return f"unfair: the slowest thread did {s.fairness:.2g} of the busiest one's ops"
    if d.label == STARVATION:
        if d.hung:
            return HUNG
        if d.median == math.inf or not finite(s.fairness) or s.fairness > 0:
            return f"starvation: no operation completed in {d.starved} of {d.samples} samples"
        return "starvation: a thread completed no operation"
    if d.label == SERIALIZED:
        return (f"serialized: {s.busy_cpus:.1f} CPUs busy at {s.threads} threads (one at a time: a serial queue "
                "or one lock)")
    if d.label == OVERSUBSCRIPTION:
        return f"oversubscription: {s.threads} threads take turns on {s.logical_cpus} CPUs{_growth(d)}"
    if d.label == CPU_BOUND and split is not None:
        return f"on the CPU: {_time(split.running_ns)} running per op ({_share(split.running)} of each thread's time)"
    if d.label == CPU_BOUND:
        return f"on the CPU: {_time(s.user_ns)} of user time per op, no blocking"
    assert d.label == UNCLEAR, d.label
    if split is not None:
        # The split is what the rules read: say it, so that the reader sees which bound none of them met.
        return f"unclear: {split_text(split)}, CPUs {_share(s.utilisation)} busy"
    return (f"unclear: {_switches(s.voluntary)}, {_time(s.kernel_ns)} in the kernel and {_time(s.user_ns)} of "
            f"user time per op, CPUs {_share(s.utilisation)} busy")


def cliff_text(cliff: Cliff) -> str:
    """``cliff between 4 and 8 threads (226×): convoy: …``."""
    factor = "starved" if math.isinf(cliff.factor) else f"{fmt_multiple(cliff.factor)}×"
    return f"cliff between {cliff.before} and {cliff.at} threads ({factor}): {cause_text(cliff.diagnosis)}"


# What each watched signal is called, and how its values are spelt.
_MOVE_NAMES = {VOLUNTARY: "switches per op", KERNEL: "kernel time per op", INVOLUNTARY: "preemptions per op"}


def _value(name: str, value: float | None) -> str:
    if not finite(value):
        return "—"
    return fmt_duration(value) if name == KERNEL else fmt_rate(value)


def _move(move: SignalMove) -> str:
    return f"{_MOVE_NAMES[move.name]} {_value(move.name, move.base)} → {_value(move.name, move.head)}"


def moved_text(what: WhatMoved) -> str:
    """What moved with a slower case: ``switches per op 0.01 → 0.9: now blocking; kernel time per op
    20 ns → 2.1 µs``, or that switches and kernel time did not move (with their figures)."""
    if what.moved:
        parts = []
        for move in what.moved:
            text = _move(move)
            if move.name == VOLUNTARY and what.blocking:
                text += f": {what.blocking} blocking"
            parts.append(text)
        return "; ".join(parts)
    shown = [m for m in what.moves if m.name != INVOLUNTARY]
    return "switches and kernel time per op did not move (" + ", ".join(_move(m) for m in shown) + ")"
