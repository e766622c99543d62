"""Why a case costs what it costs (issue 55): each mechanism label earned by a synthetic case built
for it, each with a negative control that differs in the one signal the rule reads; and the cliff
along threads, with its label."""

from __future__ import annotations

import math

import pytest

from analyze_lib.files.loader import load_results
from analyze_lib.judge.conditions import run_conditions
from analyze_lib.judge.diagnosis import (
    CLIFF_FACTOR, CONTENDED, CONVOY, CONVOY_AFTER_SPINNING, CPU_BOUND, LABELS, OFFLOADED, OVERSUBSCRIPTION, POOL_GROWTH,
    SERIALIZED, SPINNING, STARVATION, SYSCALL_HEAVY, UNCLEAR, UNFAIR, WAITING_FOR_CPU, cliffs, diagnose)
from analyze_lib.present.diagnosis_text import cause_text
from csvgen import case, write_results

CPUS = "2"
THREADS = (1, 2, 4, 8)


def _line(variant: str, costs: dict[int, float], suite="isolation", benchmark="mixed", params="read_pct=0"):
    return {case(suite, benchmark, variant, t, params): cost for t, cost in costs.items()}


def _diagnose(tmp_path, cases: dict, signals: dict | None = None, cpus: str = CPUS, thread_ops=None,
              cpu_share: float | None = 1.0, version: int = 6):
    path = write_results(tmp_path / "run.csv", cases, version=version, run={"logical_cpus": cpus},
                         signals=signals, thread_ops=thread_ops)
    loaded = load_results(path)
    return diagnose(loaded.cases, loaded.logical_cpus, cpu_share, floor=run_conditions(loaded).floor)


def _label(diagnoses, key) -> str:
    [found] = [d for k, d in diagnoses.items() if (k.suite, k.benchmark, k.variant, k.threads, k.params_text) == key]
    return found.label


# The issue's mutex: 45 ns at 1 thread, 111 at 4, 25,095 at 8 with 1.15 voluntary switches and
# about 2.2 µs of kernel time per op (kernel = utilisation × 25,095 × 2 CPUs × kernel share).
MUTEX = _line("mutex", {1: 45.0, 2: 100.0, 4: 111.0, 8: 25095.0})
MUTEX_8 = case("isolation", "mixed", "mutex", 8, "read_pct=0")
CONVOY_SIGNALS = {"voluntary": 1.15, "utilisation": 0.1, "kernel_share": 0.44}


def test_the_issue_mutex_is_a_convoy_with_its_cliff_between_4_and_8_threads(tmp_path):
    diagnoses = _diagnose(tmp_path, MUTEX, {MUTEX_8: CONVOY_SIGNALS})
    [cliff] = cliffs(diagnoses)
    assert (cliff.before, cliff.at, cliff.diagnosis.label) == (4, 8, CONVOY)
    assert cliff.factor == pytest.approx(25095 / 111, rel=0.1)
    s = cliff.diagnosis.signals
    assert s.voluntary == pytest.approx(1.15, rel=0.01)
    assert s.kernel_ns == pytest.approx(0.1 * 25095 * 2 * 0.44, rel=0.1)


def test_many_switches_with_no_kernel_time_is_unclear_not_a_convoy(tmp_path):
    # Negative control: the same switches, but the CPU time is all user time (the signals disagree).
    diagnoses = _diagnose(tmp_path, MUTEX, {MUTEX_8: {**CONVOY_SIGNALS, "kernel_share": 0.0}})
    assert _label(diagnoses, MUTEX_8) == UNCLEAR
    # And kernel time without the switches is not a convoy either.
    diagnoses = _diagnose(tmp_path, MUTEX, {MUTEX_8: {**CONVOY_SIGNALS, "voluntary": 0.3}})
    assert _label(diagnoses, MUTEX_8) != CONVOY


SPIN = _line("spin-lock", {1: 20.0, 2: 100.0, 4: 500.0, 8: 2000.0})
SPIN_8 = case("isolation", "mixed", "spin-lock", 8, "read_pct=0")
SPIN_SIGNALS = {"utilisation": 1.0, "kernel_share": 0.01, "voluntary": 0.001}


def test_a_busy_cpu_with_no_switches_and_a_cost_beyond_the_cpus_is_spinning(tmp_path):
    diagnoses = _diagnose(tmp_path, SPIN, {key: SPIN_SIGNALS for key in SPIN})
    assert _label(diagnoses, SPIN_8) == SPINNING
    assert diagnoses[next(k for k in diagnoses if k.threads == 8)].growth == pytest.approx(20, rel=0.1)


def test_the_same_signals_within_the_cpus_are_not_spinning(tmp_path):
    # Negative control: 8 CPUs, so no thread count oversubscribes; the cliff is found, not spinning.
    diagnoses = _diagnose(tmp_path, SPIN, {key: SPIN_SIGNALS for key in SPIN}, cpus="8")
    # Each of the 8 threads spends 20× its one-thread time per op: contended within the CPUs (issue 73), not spinning.
    assert _label(diagnoses, SPIN_8) == CONTENDED
    assert all(c.diagnosis.label != SPINNING for c in cliffs(diagnoses))


def test_a_cost_that_grows_in_proportion_to_the_threads_is_oversubscription(tmp_path):
    # Negative control of spinning: 8 threads take turns on 2 CPUs, 4× the cost of 2 threads.
    line = _line("spin-lock", {1: 20.0, 2: 100.0, 4: 200.0, 8: 400.0})
    diagnoses = _diagnose(tmp_path, line, {key: SPIN_SIGNALS for key in line})
    assert _label(diagnoses, SPIN_8) == OVERSUBSCRIPTION


def test_threads_created_during_the_samples_are_pool_growth(tmp_path):
    line = _line("concurrent-barrier-async", {1: 300.0, 2: 300.0})
    key = case("isolation", "mixed", "concurrent-barrier-async", 2, "read_pct=0")
    assert _label(_diagnose(tmp_path, line, {key: {"os_threads": (5, 7)}}), key) == POOL_GROWTH
    # Negative control: as many threads at the end as at the start (a pool that already exists).
    assert _label(_diagnose(tmp_path, line, {key: {"os_threads": (9, 9)}}), key) == CPU_BOUND


def test_two_threads_keeping_one_cpu_busy_are_serialized(tmp_path):
    # 90 ns/op at 2 threads: each thread 1.8× its time alone, below CONTENDED_GROWTH.
    line = _line("serial-sync", {1: 100.0, 2: 90.0})
    key = case("isolation", "mixed", "serial-sync", 2, "read_pct=0")
    one_at_a_time = {"utilisation": 0.5, "kernel_share": 0.05, "voluntary": 0.01}
    assert _label(_diagnose(tmp_path, line, {key: one_at_a_time}), key) == SERIALIZED
    # Negative control: both CPUs busy.
    assert _label(_diagnose(tmp_path, line, {key: {**one_at_a_time, "utilisation": 1.0}}), key) == CPU_BOUND


UNFAIR_LINE = _line("lazy-static", {1: 1.0, 2: 1.0}, "once", "hit", "")
UNFAIR_2 = case("once", "hit", "lazy-static", 2)


def test_a_thread_left_behind_with_every_thread_on_a_cpu_is_unfair(tmp_path):
    ops = {UNFAIR_2: (5000, 95000)}
    assert _label(_diagnose(tmp_path, UNFAIR_LINE, thread_ops=ops), UNFAIR_2) == UNFAIR
    # Negative control: the machine was busy (the harness got half its CPUs): not judged.
    assert _label(_diagnose(tmp_path, UNFAIR_LINE, thread_ops=ops, cpu_share=0.5), UNFAIR_2) != UNFAIR


def test_a_thread_that_completed_nothing_is_starvation(tmp_path):
    ops = {UNFAIR_2: (0, 100000)}
    assert _label(_diagnose(tmp_path, UNFAIR_LINE, thread_ops=ops), UNFAIR_2) == STARVATION
    # Negative control: with more threads than CPUs the thread may have waited for a CPU.
    over = _line("lazy-static", {1: 1.0, 4: 1.0}, "once", "hit", "")
    four = case("once", "hit", "lazy-static", 4)
    assert _label(_diagnose(tmp_path, over, thread_ops={four: (0, 100000)}), four) != STARVATION


def test_a_case_that_starved_is_starvation(tmp_path):
    line = {**UNFAIR_LINE, UNFAIR_2: [math.inf] * 10 + [1.0] * 5}
    assert _label(_diagnose(tmp_path, line), UNFAIR_2) == STARVATION


@pytest.mark.parametrize("starved, samples", [(2, 3), (10, 15), (15, 15)])
def test_starvation_says_in_how_many_samples_of_how_many(tmp_path, starved, samples):
    # Issue 60: one starved sample of three read "no operation completed in many samples".
    line = {**UNFAIR_LINE, UNFAIR_2: [math.inf] * starved + [1.0] * (samples - starved)}
    [found] = [d for d in _diagnose(tmp_path, line).values() if d.label == STARVATION]
    assert (found.starved, found.samples) == (starved, samples)
    assert cause_text(found) == f"starvation: no operation completed in {starved} of {samples} samples"


@pytest.mark.parametrize("samples", [2, 3])
def test_one_sample_without_an_operation_is_never_starvation(tmp_path, samples):
    # Issue 73: one sample is no evidence (a batch published after the sample's end, a vCPU the host took), however
    # few the samples; the control above: two of three are.
    line = {**UNFAIR_LINE, UNFAIR_2: [math.inf] + [1.0] * (samples - 1)}
    assert not [d for d in _diagnose(tmp_path, line).values() if d.label == STARVATION]


def test_a_cost_that_doubles_with_each_thread_count_has_no_cliff(tmp_path):
    # Negative control of the cliff: 2× per step is below CLIFF_FACTOR.
    line = _line("nslock", {1: 50.0, 2: 100.0, 4: 200.0, 8: 400.0})
    assert CLIFF_FACTOR == 3.0 and cliffs(_diagnose(tmp_path, line)) == []
    line = _line("nslock", {1: 50.0, 2: 100.0, 4: 300.0, 8: 400.0})
    [cliff] = cliffs(_diagnose(tmp_path, line))
    assert (cliff.before, cliff.at) == (2, 4)


def test_the_steepest_cliff_comes_first(tmp_path):
    cases = {**MUTEX, **_line("nslock", {1: 50.0, 2: 100.0, 4: 300.0, 8: 400.0})}
    found = cliffs(_diagnose(tmp_path, cases, {MUTEX_8: CONVOY_SIGNALS}))
    assert [c.key.variant for c in found] == ["mutex", "nslock"]


def test_a_role_rows_switches_are_shared_by_every_role_of_the_sample(tmp_path):
    # Both role rows hold the process's switches; per op they count the operations of both roles.
    params = ("keys=1000;readers=1;role=read;writers=1", "keys=1000;readers=1;role=write;writers=1")
    cases = {case("isolation", "roles", "rwlock", 2, p): 100.0 for p in params}
    signals = {key: {"voluntary": 0.8} for key in cases}
    diagnoses = _diagnose(tmp_path, cases, signals)
    assert {round(d.signals.voluntary, 2) for d in diagnoses.values()} == {0.4}


def test_every_label_is_earned_by_a_test_here():
    # The labels this file, test_diagnosis_split.py and test_role_starvation.py build a case for; a new label must
    # come with its case.
    earned = {CONVOY, SPINNING, OVERSUBSCRIPTION, POOL_GROWTH, SERIALIZED, UNFAIR, STARVATION, CPU_BOUND, UNCLEAR,
              CONVOY_AFTER_SPINNING, SYSCALL_HEAVY, WAITING_FOR_CPU, OFFLOADED, CONTENDED, "hand-off",
              "rare-long-sleeps", "waiter-preemption", "starves-a-role", "pipelined", "crowded-by-helpers"}
    assert set(LABELS) == earned
