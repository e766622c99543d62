"""The labels on the exact split (issue 62): where the measured threads' time went (schema 8's sched_
columns: running, waiting on a run queue, blocked, switches in) decides convoy, convoy after spinning,
spinning, system calls, waiting for a CPU and oversubscription; the process's tick-sampled user/system
split decides nothing the exact split can say. Each label is earned by a synthetic case and has a negative
control that differs in the one figure the rule reads; and a file without the columns gets today's labels."""

from __future__ import annotations

import math
import re

import pytest

from analyze_lib.files.loader import load_results
from analyze_lib.judge.conditions import run_conditions
from analyze_lib.judge.evidence import UNMEASURED_FLOOR
from analyze_lib.judge.diagnosis import (CONTENDED, CONVOY, CONVOY_AFTER_SPINNING, CPU_BOUND, OFFLOADED,
                                         OVERSUBSCRIPTION, RARE_LONG_SLEEPS, SERIALIZED, SPIN_BEFORE_SLEEP_NS, SPINNING,
                                         STARVATION, SYSCALL_HEAVY, UNCLEAR, WAITER_PREEMPTION, WAITING_FOR_CPU,
                                         diagnose)
from analyze_lib.judge import diagnosis
from analyze_lib.judge.signals import blocked_ns
from analyze_lib.present.diagnosis_text import cause_text, split_text
from csvgen import case, write_results

import numpy as np


def _line(variant: str, costs: dict[int, float]) -> dict:
    return {case("isolation", "mixed", variant, t, "read_pct=0"): cost for t, cost in costs.items()}


def _diagnoses(tmp_path, cases: dict, signals: dict, version: int = 8, cpu_share: float | None = 1.0):
    path = write_results(tmp_path / f"run-v{version}.csv", cases, version=version, run={"logical_cpus": "2"},
                         signals=signals)
    loaded = load_results(path)
    found = diagnose(loaded.cases, loaded.logical_cpus, cpu_share, floor=run_conditions(loaded).floor)
    return {(k.variant, k.threads): d for k, d in found.items()}


def _split(running: float, runqueue: float, switches_in: float) -> dict:
    """A schedule for csvgen: shares of each thread's time running and waiting (the rest blocked)."""
    return {"running": running, "runqueue": runqueue, "switches_in": switches_in}


# The measured Mutex of isolation/mixed at 8 threads (docs/diagnosis.md): 31.5 µs per op, each thread 12%
# running, 12% waiting, 76% blocked, about one switch in per op; the process's kernel share 0.3%.
MUTEX = _line("mutex", {1: 53.0, 2: 128.0, 8: 31548.0})
MUTEX_SIGNALS = {"voluntary": 1.0, "utilisation": 0.5, "kernel_share": 0.003, "schedule": _split(0.12, 0.12, 1.0)}
# pthread-mutex-pi at 8 threads: 5.8 µs per op, 1.39 switches in, 77% blocked, 81% in the kernel.
PI = _line("pthread-mutex-pi", {1: 61.0, 2: 67.0, 8: 5766.0})
PI_SIGNALS = {"voluntary": 1.0, "utilisation": 0.5, "kernel_share": 0.81, "schedule": _split(0.12, 0.10, 1.39)}


def test_a_sleep_per_op_after_many_microseconds_on_a_cpu_is_a_convoy_after_spinning(tmp_path):
    found = _diagnoses(tmp_path, MUTEX, {case("isolation", "mixed", "mutex", 8, "read_pct=0"): MUTEX_SIGNALS})
    mutex = found[("mutex", 8)]
    assert mutex.label == CONVOY_AFTER_SPINNING
    # 12% of 8 threads × 31.5 µs running per op, one switch in per op: 30 µs before each sleep.
    assert mutex.signals.split.running_ns_per_switch == pytest.approx(0.12 * 8 * 31548, rel=0.01)
    assert cause_text(mutex).startswith("convoy after spinning: 1 switch in and ")
    # Without the split (schema 7), today's rule reads the tick-sampled kernel share and cannot tell: unclear.
    old = _diagnoses(tmp_path, MUTEX, {case("isolation", "mixed", "mutex", 8, "read_pct=0"): MUTEX_SIGNALS},
                     version=7)
    assert old[("mutex", 8)].label == UNCLEAR and old[("mutex", 8)].signals.split is None


def test_a_sleep_per_op_straight_into_the_kernel_is_a_convoy_not_after_spinning(tmp_path):
    key = case("isolation", "mixed", "pthread-mutex-pi", 8, "read_pct=0")
    found = _diagnoses(tmp_path, PI, {key: PI_SIGNALS})[("pthread-mutex-pi", 8)]
    assert found.label == CONVOY
    assert found.signals.split.running_ns_per_switch < SPIN_BEFORE_SLEEP_NS
    # The tick-sampled kernel share does not decide: with none counted, still a convoy.
    quiet_kernel = _diagnoses(tmp_path, PI, {key: {**PI_SIGNALS, "kernel_share": 0.0}})
    assert quiet_kernel[("pthread-mutex-pi", 8)].label == CONVOY


def test_switches_without_blocked_time_or_blocked_time_without_switches_is_no_convoy(tmp_path):
    key = case("isolation", "mixed", "pthread-mutex-pi", 8, "read_pct=0")
    # Negative controls: as many switches in, but the threads ran or waited for a CPU all the time (5% blocked) ...
    running = _diagnoses(tmp_path, PI, {key: {**PI_SIGNALS, "schedule": _split(0.25, 0.70, 1.39)}})
    assert running[("pthread-mutex-pi", 8)].label not in (CONVOY, CONVOY_AFTER_SPINNING)
    # ... and as much blocked time, but hardly a switch per op.
    rare = _diagnoses(tmp_path, PI, {key: {**PI_SIGNALS, "schedule": _split(0.12, 0.10, 0.1)}})
    assert rare[("pthread-mutex-pi", 8)].label not in (CONVOY, CONVOY_AFTER_SPINNING)


# The semaphore handoff at 2 threads on a machine another job kept busy: a switch in per round trip, but half of
# each thread's time waiting for a CPU, so only 19% of it blocked.
HANDOFF = {case("wait", "handoff", "semaphore", t): cost for t, cost in {2: 6691.0}.items()}
HANDOFF_2 = case("wait", "handoff", "semaphore", 2)


def test_a_hand_off_on_a_busy_machine_is_still_a_hand_off_when_blocked_of_its_own_time(tmp_path):
    # A third of the process's CPU time ran on threads the case does not measure (the responder): a hand-off.
    busy = {"utilisation": 0.5, "kernel_share": 0.3, "voluntary": 1.0, "schedule": _split(0.32, 0.49, 1.0)}
    found = _diagnoses(tmp_path, HANDOFF, {HANDOFF_2: busy}, cpu_share=0.5)[("semaphore", 2)]
    assert found.label == diagnosis.HANDOFF
    assert found.signals.split.blocked == pytest.approx(0.19, abs=0.01)
    assert found.signals.split.blocked_own == pytest.approx(0.19 / 0.51, abs=0.01)
    # Negative control: as many switches, but 5% of the time not spent waiting blocked: waiting for a CPU.
    running = {**busy, "schedule": _split(0.48, 0.49, 1.0)}
    assert _diagnoses(tmp_path, HANDOFF, {HANDOFF_2: running}, cpu_share=0.5)[("semaphore", 2)].label == WAITING_FOR_CPU


# A lock-free once hit on a machine another job kept busy: 2 threads, 1.0 CPU busy, each thread half its time
# waiting for a CPU.
ONCE = {case("once", "hit", "dispatch-once", t): cost for t, cost in {1: 1.0, 2: 50.8}.items()}
ONCE_2 = case("once", "hit", "dispatch-once", 2)
BUSY = {"utilisation": 0.5, "kernel_share": 0.0, "voluntary": 1e-5}


def _once(tmp_path, signals: dict, version: int = 8) -> str:
    found = _diagnoses(tmp_path, ONCE, {ONCE_2: signals}, version=version, cpu_share=0.5)
    return found[("dispatch-once", 2)].label


def test_threads_waiting_for_cpus_other_work_holds_are_waiting_for_a_cpu_never_serialized(tmp_path):
    assert _once(tmp_path, {**BUSY, "schedule": _split(0.5, 0.5, 1e-5)}) == WAITING_FOR_CPU
    # Negative controls: the same process figures without the split are today's serialized; and threads that
    # blocked (not waited for a CPU) half their time went one at a time: serialized.
    assert _once(tmp_path, BUSY) == SERIALIZED
    assert _once(tmp_path, BUSY, version=7) == SERIALIZED
    assert _once(tmp_path, {**BUSY, "schedule": _split(0.5, 0.02, 1e-5)}) == SERIALIZED


SPIN = _line("spin-lock", {1: 20.0, 2: 100.0, 8: 2000.0})
SPIN_8 = case("isolation", "mixed", "spin-lock", 8, "read_pct=0")
SPINNING_SIGNALS = {"utilisation": 1.0, "voluntary": 0.001, "schedule": _split(0.25, 0.74, 0.001)}


def test_busy_cpus_that_never_block_and_a_cost_beyond_the_cpus_are_spinning_whatever_the_tick_says(tmp_path):
    # The tick-sampled split put 30% in the kernel: today's rule refuses spinning; the exact split shows the threads
    # never blocked.
    signals = {**SPINNING_SIGNALS, "kernel_share": 0.3}
    assert _diagnoses(tmp_path, SPIN, {SPIN_8: signals})[("spin-lock", 8)].label == SPINNING
    assert _diagnoses(tmp_path, SPIN, {SPIN_8: signals}, version=7)[("spin-lock", 8)].label != SPINNING
    # Negative control: a third of the threads' time blocked is not spinning.
    blocked = {**signals, "schedule": _split(0.25, 0.4, 0.001)}
    assert _diagnoses(tmp_path, SPIN, {SPIN_8: blocked})[("spin-lock", 8)].label != SPINNING


def test_threads_waiting_on_a_run_queue_beyond_the_cpus_are_oversubscription_measured(tmp_path):
    # A busy machine (utilisation 0.5): the growth is beyond proportion, but the threads waited for CPUs 88% of
    # their time and never blocked. Today's rules see one CPU busy and blame the variant: serialized.
    signals = {"utilisation": 0.5, "kernel_share": 0.0, "voluntary": 0.0002, "schedule": _split(0.12, 0.88, 0.0002)}
    found = _diagnoses(tmp_path, SPIN, {SPIN_8: signals})[("spin-lock", 8)]
    assert found.label == OVERSUBSCRIPTION
    assert "88% of each thread's time waiting for one" in cause_text(found)
    assert _diagnoses(tmp_path, SPIN, {SPIN_8: signals}, version=7)[("spin-lock", 8)].label == SERIALIZED
    # Negative control: the same threads, but waiting little (5%): not oversubscription.
    little = {**signals, "schedule": _split(0.9, 0.05, 0.0002)}
    assert _diagnoses(tmp_path, SPIN, {SPIN_8: little})[("spin-lock", 8)].label != OVERSUBSCRIPTION


# The DispatchSemaphore(value: 1) lock at 8 threads: 0.0056 switches per op, 70% of its CPU time in the
# kernel, CPUs 100% busy.
SEMAPHORE = _line("semaphore", {1: 100.0, 2: 150.0, 8: 509.0})
SEMAPHORE_8 = case("isolation", "mixed", "semaphore", 8, "read_pct=0")
SYSCALL_SIGNALS = {"utilisation": 1.0, "kernel_share": 0.7, "voluntary": 0.0056,
                   "schedule": _split(0.25, 0.72, 0.0056)}


def test_kernel_time_with_hardly_a_sleep_is_system_calls(tmp_path):
    found = _diagnoses(tmp_path, SEMAPHORE, {SEMAPHORE_8: SYSCALL_SIGNALS})[("semaphore", 8)]
    assert found.label == SYSCALL_HEAVY
    assert cause_text(found).startswith("system calls: 70% of the CPU time in the kernel")
    # Negative controls: little kernel time (the threads take turns on the CPUs) ...
    user = {**SYSCALL_SIGNALS, "kernel_share": 0.05}
    assert _diagnoses(tmp_path, SEMAPHORE, {SEMAPHORE_8: user})[("semaphore", 8)].label == OVERSUBSCRIPTION
    # ... and without the split, today's rules (no label of its own).
    old = _diagnoses(tmp_path, SEMAPHORE, {SEMAPHORE_8: SYSCALL_SIGNALS}, version=7)
    assert old[("semaphore", 8)].label != SYSCALL_HEAVY


def test_one_thread_that_ran_and_never_slept_is_cpu_bound_on_a_busy_machine(tmp_path):
    line = _line("pthread-mutex-pi", {1: 93.0})
    key = case("isolation", "mixed", "pthread-mutex-pi", 1, "read_pct=0")
    # 83% of the CPU (another job took some), 19% waiting, never blocked: today's unclear, the split's CPU-bound.
    signals = {"utilisation": 0.83, "kernel_share": 0.01, "voluntary": 1e-5, "schedule": _split(0.83, 0.17, 3e-5)}
    assert _diagnoses(tmp_path, line, {key: signals})[("pthread-mutex-pi", 1)].label == CPU_BOUND
    assert _diagnoses(tmp_path, line, {key: signals}, version=7)[("pthread-mutex-pi", 1)].label == UNCLEAR
    # Negative control: a third of its time blocked with hardly a switch (time nobody accounts for): unclear.
    blocked = {**signals, "schedule": _split(0.6, 0.07, 3e-5)}
    found = _diagnoses(tmp_path, line, {key: blocked})[("pthread-mutex-pi", 1)]
    assert found.label == UNCLEAR and "33% blocked" in cause_text(found)


def test_a_file_without_the_split_gets_todays_labels_and_says_so(tmp_path):
    # The same cases at schema 8 with empty sched_ columns (a platform without schedstat) and at schema 7.
    cases = {**MUTEX, **PI, **SPIN, **SEMAPHORE}
    signals = {case("isolation", "mixed", "mutex", 8, "read_pct=0"): MUTEX_SIGNALS,
               case("isolation", "mixed", "pthread-mutex-pi", 8, "read_pct=0"): PI_SIGNALS,
               SPIN_8: SPINNING_SIGNALS, SEMAPHORE_8: SYSCALL_SIGNALS}
    empty = {key: {k: v for k, v in s.items() if k != "schedule"} for key, s in signals.items()}
    missing = _diagnoses(tmp_path, cases, empty)
    old = _diagnoses(tmp_path, cases, signals, version=7)
    assert {k: d.label for k, d in missing.items()} == {k: d.label for k, d in old.items()}
    assert all(d.signals.split is None for d in missing.values())
    assert split_text(None).startswith("where the threads' time went is not recorded")
    # The control: with the split, some labels differ.
    exact = _diagnoses(tmp_path, cases, signals)
    assert {k: d.label for k, d in exact.items()} != {k: d.label for k, d in old.items()}


def test_blocked_time_is_what_is_left_of_the_threads_wall_time_and_never_below_zero():
    threads, elapsed = np.array([2.0, 1.0]), np.array([100.0, 100.0])
    running, runqueue = np.array([120.0, 90.0]), np.array([30.0, 15.0])
    assert list(blocked_ns(threads, elapsed, running, runqueue)) == [50.0, 0.0]


def test_the_report_shows_each_cases_split_and_says_when_the_file_has_none(tmp_path):
    from analyze_lib.cli import main
    from analyze_lib.present.report import NO_SPLIT_NOTE

    signals = {case("isolation", "mixed", "mutex", 8, "read_pct=0"): MUTEX_SIGNALS}
    with_split = write_results(tmp_path / "v8.csv", MUTEX, version=8, run={"logical_cpus": "2"}, signals=signals)
    assert main(["report", str(with_split), "--out", str(tmp_path / "v8")]) == 0
    markdown = (tmp_path / "v8" / "report.md").read_text()
    # Only the 8-thread case has a schedule (csvgen leaves the others' columns empty): one row.
    assert "Where each case's time went: 1 case" in markdown
    [row] = [line for line in markdown.splitlines() if line.startswith("| mixed/mutex threads:8") and "%" in line]
    assert "| convoy-after-spinning | 12% | 12% | 76% |" in row
    assert NO_SPLIT_NOTE not in markdown
    # Negative control: the same cases without the split (schema 7) have no such table, and the report says why.
    without = write_results(tmp_path / "v7.csv", MUTEX, version=7, run={"logical_cpus": "2"}, signals=signals)
    assert main(["report", str(without), "--out", str(tmp_path / "v7")]) == 0
    old = (tmp_path / "v7" / "report.md").read_text()
    assert "Where each case's time went" not in old and NO_SPLIT_NOTE in old


# The actor of isolation/mixed at 1 thread in a quiet full run: its caller ran 11% of its time and blocked 89%, with
# a switch in per thousand ops, while the process kept 1.04 CPUs busy: the actor's executor ran the work.
ACTOR = _line("actor", {1: 98.0})
ACTOR_KEY = case("isolation", "mixed", "actor", 1, "read_pct=0")
ACTOR_SIGNALS = {"voluntary": 0.001, "utilisation": 1.04, "kernel_share": 0.05, "schedule": _split(0.11, 0.0, 0.001)}


def test_most_of_the_cpu_time_on_threads_the_case_does_not_measure_is_offloaded(tmp_path):
    actor = _diagnoses(tmp_path, ACTOR, {ACTOR_KEY: ACTOR_SIGNALS})[("actor", 1)]
    assert actor.label == OFFLOADED
    assert actor.signals.elsewhere_share == pytest.approx(1 - 0.11 / 1.04, abs=0.01)
    assert cause_text(actor).startswith("offloaded: 89% of the CPU time on threads the case does not measure")
    # Negative control: the same blocked caller, but the process ran no more than the caller did (12% of a CPU).
    alone = _diagnoses(tmp_path, ACTOR, {ACTOR_KEY: {**ACTOR_SIGNALS, "utilisation": 0.12}})[("actor", 1)]
    assert alone.label != OFFLOADED and alone.signals.elsewhere_share < 0.5
    # Without the split nothing says which threads ran: no offloaded.
    old = _diagnoses(tmp_path, ACTOR, {ACTOR_KEY: ACTOR_SIGNALS}, version=7)[("actor", 1)]
    assert old.label != OFFLOADED and old.signals.elsewhere_share is None


# Issue 73: the semaphore's fan-out at one thread, one caller and its tasks: a switch in and 90% of its time blocked
# per op, as a convoy's threads are; but one thread cannot queue behind others.
FAN_OUT = {case("wait", "fan-out", "semaphore", 1, "tasks=1"): 3500.0}
FAN_OUT_SIGNALS = {"voluntary": 1.0, "utilisation": 0.2, "kernel_share": 0.5, "schedule": _split(0.1, 0.0, 1.0)}


def test_a_fan_out_at_one_thread_is_a_hand_off_not_a_convoy(tmp_path):
    [found] = _diagnoses(tmp_path, FAN_OUT, dict.fromkeys(FAN_OUT, FAN_OUT_SIGNALS)).values()
    assert found.label == diagnosis.HANDOFF
    assert cause_text(found).startswith("hand-off: a cross-thread round trip, the caller waiting 3.1 µs per op")
    # Two callers whose tasks run on the pool (half the process's CPU time on threads not measured): hand-offs too.
    two = {case("wait", "fan-out", "semaphore", 2, "tasks=1"): 3500.0}
    [found] = _diagnoses(tmp_path, two, dict.fromkeys(two, FAN_OUT_SIGNALS)).values()
    assert found.label == diagnosis.HANDOFF and found.signals.elsewhere_share == pytest.approx(0.5, abs=0.02)
    # Negative control: two threads that run all the process's CPU time themselves queue on each other: a convoy.
    [found] = _diagnoses(tmp_path, two, dict.fromkeys(two, {**FAN_OUT_SIGNALS, "utilisation": 0.1})).values()
    assert found.label == CONVOY


# The futex locks at 2 threads: 13-38% of their time blocked at about 0.001 switches per op.
FUTEX = _line("pthread-mutex", {1: 60.0, 2: 50.0})
FUTEX_2 = case("isolation", "mixed", "pthread-mutex", 2, "read_pct=0")


def test_threads_that_block_long_but_rarely_are_rare_long_sleeps(tmp_path):
    rare = {"voluntary": 0.001, "utilisation": 0.75, "kernel_share": 0.02, "schedule": _split(0.7, 0.0, 0.001)}
    found = _diagnoses(tmp_path, FUTEX, {FUTEX_2: rare})[("pthread-mutex", 2)]
    assert found.label == RARE_LONG_SLEEPS
    assert cause_text(found).startswith("rare long sleeps: 30% of each thread's time blocked at 0.001 switches in")
    # Negative control: blocked 5% of the time, they ran: on the CPU.
    ran = {**rare, "utilisation": 0.97, "schedule": _split(0.95, 0.0, 0.001)}
    assert _diagnoses(tmp_path, FUTEX, {FUTEX_2: ran})[("pthread-mutex", 2)].label == CPU_BOUND


def test_threads_that_each_spend_far_more_per_op_than_alone_are_contended_not_cpu_bound(tmp_path):
    # The mutex: 92 ns alone, 532 ns/op of the system at 2 threads: each thread 11.6x its time alone.
    line = _line("mutex", {1: 92.0, 2: 532.0})
    key = case("isolation", "mixed", "mutex", 2, "read_pct=0")
    ran = {"voluntary": 0.001, "utilisation": 1.0, "kernel_share": 0.01, "schedule": _split(0.99, 0.0, 0.001)}
    found = _diagnoses(tmp_path, line, {key: ran})[("mutex", 2)]
    assert found.label == CONTENDED and found.contention == pytest.approx(532 * 2 / 92, rel=0.05)
    assert re.match(r"contended: each thread spends 1\d(\.\d)?× its one-thread time per op", cause_text(found))
    # Negative control: 50 ns/op at 2 threads, each thread about its time alone: the work.
    fair = _line("mutex", {1: 92.0, 2: 50.0})
    assert _diagnoses(tmp_path, fair, {key: ran})[("mutex", 2)].label == CPU_BOUND


def test_an_oversubscribed_lock_whose_threads_stall_without_sleeping_is_waiter_preemption(tmp_path):
    # The FIFO ticket lock at 8 threads on 2 CPUs: no operation in half the samples, its threads running or
    # waiting for a CPU, hardly ever asleep.
    from analyze_lib.judge.decisions import disqualification, role_rows

    line = _line("ticket-lock", {1: 20.0, 2: 40.0})
    key = case("isolation", "mixed", "ticket-lock", 8, "read_pct=0")
    line[key] = [math.inf] * 8 + [5000.0] * 7
    spun = {"voluntary": 0.001, "utilisation": 1.0, "kernel_share": 0.01, "schedule": _split(0.25, 0.74, 0.001)}
    path = write_results(tmp_path / "ticket.csv", line, version=8, run={"logical_cpus": "2"}, signals={key: spun})
    cases = load_results(path).cases
    [found] = [d for k, d in diagnose(cases, 2, 1.0, floor=UNMEASURED_FLOOR).items() if k.threads == 8]
    assert found.label == WAITER_PREEMPTION
    assert "avoid it where threads can outnumber the CPUs" in cause_text(found)
    eight = next(c for k, c in cases.items() if k.threads == 8)
    assert disqualification(eight, role_rows(cases.values()), 2, cpu_share=1.0, floor=UNMEASURED_FLOOR) is None
    # Negative control: the same stalls with the threads asleep 60% of their time are starvation, disqualifying.
    asleep = {**spun, "schedule": _split(0.2, 0.2, 0.001)}
    path = write_results(tmp_path / "asleep.csv", line, version=8, run={"logical_cpus": "2"}, signals={key: asleep})
    cases = load_results(path).cases
    [found] = [d for k, d in diagnose(cases, 2, 1.0, floor=UNMEASURED_FLOOR).items() if k.threads == 8]
    assert found.label == STARVATION
    eight = next(c for k, c in cases.items() if k.threads == 8)
    reason = disqualification(eight, role_rows(cases.values()), 2, cpu_share=1.0, floor=UNMEASURED_FLOOR)
    assert reason.startswith("starved in 8 of 15")


def test_blocked_time_without_any_switch_is_no_sleep(tmp_path):
    # Time the host stole is neither running nor waiting for a CPU, so it reads as blocked: without a switch in, no
    # thread slept, and the rule does not call it one (findings/2026-11-29-stalls-on-a-vm.md).
    never = {"voluntary": 0.0, "utilisation": 0.75, "kernel_share": 0.02, "schedule": _split(0.7, 0.0, 0.0)}
    assert _diagnoses(tmp_path, FUTEX, {FUTEX_2: never})[("pthread-mutex", 2)].label == UNCLEAR


# Issue 73: the semaphore throttle at one thread in a quiet full run: its caller ran 59% of its time and blocked 22%,
# a switch in per hundred tasks, while the process kept 1.1 CPUs busy: the tasks ran on the pool beside it (less than
# half the process's CPU time there, or it would be offloaded).
THROTTLE = {case("wait", "throttle", "semaphore-limit", 1, "limit=1;tasks=256;work=0"): 563.0}
THROTTLE_SIGNALS = {"voluntary": 0.01, "utilisation": 1.1, "kernel_share": 0.01, "schedule": _split(0.59, 0.19, 0.01)}


def test_a_caller_that_hands_work_on_and_runs_on_is_pipelined(tmp_path):
    [found] = _diagnoses(tmp_path, THROTTLE, dict.fromkeys(THROTTLE, THROTTLE_SIGNALS)).values()
    assert found.label == diagnosis.PIPELINED
    assert cause_text(found).startswith("pipelined: the caller hands work to other threads and runs on (1.1 CPUs busy")
    # Negative control: the process kept no more busy than the caller's own running: nothing beside it, unclear.
    alone = {**THROTTLE_SIGNALS, "utilisation": 0.6}
    [found] = _diagnoses(tmp_path, THROTTLE, dict.fromkeys(THROTTLE, alone)).values()
    assert found.label == UNCLEAR


def test_oversubscribed_threads_that_never_sleep_yet_switch_every_op_are_waiter_preemption(tmp_path):
    # Issue 73's ticket lock: 48 ns at 1 thread, 153 at 2, about 2 ms at 4 threads on 2 CPUs: its threads half their
    # time waiting for a CPU, never asleep, a switch in per op. Each op waited for the next ticket's holder to run.
    line = _line("ticket-lock", {1: 48.0, 2: 153.0, 4: 2_084_846.0})
    key = case("isolation", "mixed", "ticket-lock", 4, "read_pct=0")
    preempted = {"voluntary": 0.0, "utilisation": 1.0, "kernel_share": 0.0, "schedule": _split(0.5, 0.5, 0.87)}
    found = _diagnoses(tmp_path, line, {key: preempted})[("ticket-lock", 4)]
    assert found.label == diagnosis.WAITER_PREEMPTION
    assert "avoid it where threads can outnumber the CPUs" in cause_text(found)
    # Negative control: the same threads taking turns at a cost in proportion to the threads: oversubscription.
    turns = _line("ticket-lock", {1: 48.0, 2: 153.0, 4: 300.0})
    assert _diagnoses(tmp_path, turns, {key: preempted})[("ticket-lock", 4)].label == OVERSUBSCRIPTION


# A fan-out whose callers each hand their iterations to the pool: in a quiet full run (findings/
# 2026-11-30-waiting-for-a-cpu-on-a-quiet-machine.md) `concurrent-perform` at 2 threads, tasks=16, waited 50% of its
# time on a run queue, never blocked, while the process kept both CPUs busy: 1.0 of them beyond its callers.
PERFORM = {case("wait", "fan-out", "concurrent-perform", t, "tasks=16;work=0"): cost
           for t, cost in {1: 20.0, 2: 26.0}.items()}
PERFORM_2 = case("wait", "fan-out", "concurrent-perform", 2, "tasks=16;work=0")
CROWDED = {"utilisation": 1.0, "kernel_share": 0.05, "voluntary": 1e-5, "schedule": _split(0.5, 0.5, 1e-5)}


def _perform(tmp_path, signals: dict, cpu_share: float | None) -> diagnosis.Diagnosis:
    return _diagnoses(tmp_path, PERFORM, {PERFORM_2: signals}, cpu_share=cpu_share)[("concurrent-perform", 2)]


def test_callers_waiting_for_a_cpu_on_a_quiet_machine_beside_their_own_pool_are_crowded_by_helpers(tmp_path):
    found = _perform(tmp_path, CROWDED, cpu_share=1.0)
    assert found.label == diagnosis.CROWDED_BY_HELPERS
    assert found.elsewhere_cpus == pytest.approx(1.0, abs=0.01)
    assert cause_text(found) == (
        "crowded by its helpers: 50% of each thread's time on a run queue with 2 threads on 2 CPUs, on a machine "
        "otherwise quiet, while the pattern's other threads (a queue's or the pool's) kept 1.0 CPUs busy beside its "
        "measured threads' 1.0: the work its callers waited behind was its own")
    # A run that timed no harness case cannot say the machine was busy either: the helpers it measured are named.
    assert _perform(tmp_path, CROWDED, cpu_share=None).label == diagnosis.CROWDED_BY_HELPERS


def test_the_same_wait_on_a_busy_machine_is_other_work_and_without_helpers_names_no_cause(tmp_path):
    # Control: the run's harness cases got half their CPUs: other work held them, whatever the process ran beside.
    busy = _perform(tmp_path, CROWDED, cpu_share=0.5)
    assert busy.label == WAITING_FOR_CPU
    assert cause_text(busy).endswith("other work held the CPUs (the CPU-bound harness cases got less than their "
                                     "CPUs too)")
    # Control: a quiet machine and nothing busy beyond the callers (1.0 CPU, all theirs): nothing measured held the
    # CPUs. Two threads keeping one CPU busy went one at a time (serialized); one thread names no cause.
    alone = {**CROWDED, "utilisation": 0.5}
    assert _perform(tmp_path, alone, cpu_share=1.0).label == SERIALIZED
    one = {case("wait", "fan-out", "concurrent-perform", 1, "tasks=16;work=0"): 20.0}
    found = _diagnoses(tmp_path, one, dict.fromkeys(one, {**CROWDED, "utilisation": 0.5}))
    assert found[("concurrent-perform", 1)].label == UNCLEAR
