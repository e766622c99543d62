"""Issue 73: which samples are evidence that a thread starved (judge/evidence.py), each rule with a negative control
on synthetic rows: a sample the host stole is not starvation, one that ends mid-batch is not zero operations, one
whose threads waited for a CPU is not the variant's doing, and a genuinely starved case still is; and the run's own
controls set how many starved samples go beyond chance."""

from __future__ import annotations

import math

import numpy as np

from analyze_lib.files.model import Case, CaseKey
from analyze_lib.judge.decisions import disqualification, role_rows, self_starved
from analyze_lib.judge.evidence import (EDGE_BATCHES, FAIRNESS_MIN, HOST_SPOILED_SHARE, UNMEASURED_FLOOR, Chance,
                                        StallFloor, batch_edge, spoiled, stall_floor, starved_samples, unfair_samples)

INF = math.inf
CPUS = 2
SAMPLE_NS = 8_000_000.0
# Controls that looked starved in none of 200 samples: a floor of 1 in 202.
CLEAN = StallFloor(Chance(looked=0, samples=200))


def _case(ns_per_op: list[float], threads: int = 1, suite: str = "wait", variant: str = "serial-worker",
          benchmark: str = "bench", **columns: list[float] | float) -> Case:
    """A case of ``ns_per_op`` samples of SAMPLE_NS each, every thread doing an equal share; ``columns`` sets others
    (a number for every sample, or a list)."""
    ns = np.asarray(ns_per_op, dtype=float)
    n = ns.size
    ops = np.where(np.isinf(ns), 0.0, np.round(SAMPLE_NS / np.where(np.isinf(ns), 1.0, ns)))
    table = {"ns_per_op": ns, "ops": ops, "elapsed_ns": np.full(n, SAMPLE_NS),
             "thread_ops_min": ops / threads, "thread_ops_max": ops / threads,
             # Every thread on its CPU, in user space, never switched: what the diagnosis reads besides.
             "cpu_user_ns": np.full(n, SAMPLE_NS * min(threads, CPUS)), "cpu_sys_ns": np.zeros(n),
             "ctx_voluntary": np.zeros(n), "ctx_involuntary": np.zeros(n)}
    for name, value in columns.items():
        table[name] = np.asarray(value if isinstance(value, list) else [value] * n, dtype=float)
    return Case(CaseKey(suite, benchmark, variant, threads), table, np.arange(1, n + 1))


# Half the samples of a one-thread case at 20 µs an op completed nothing.
HALF = [INF] * 5 + [20_000.0] * 5


def test_a_genuinely_starved_case_is_starved_and_one_the_host_stole_is_not():
    assert self_starved(_case(HALF), CPUS, CLEAN)
    # The host took a fifth of both CPUs in each sample without an operation: none of them is evidence.
    stolen = [0.2 * 2 * SAMPLE_NS] * 5 + [0.0] * 5
    spoilt = _case(HALF, steal_ns=stolen, steal_cpus=2.0)
    assert list(spoiled(spoilt)) == [True] * 5 + [False] * 5
    assert not starved_samples(spoilt, CPUS).any() and not self_starved(spoilt, CPUS, CLEAN)
    # Negative control: a steal just under HOST_SPOILED_SHARE leaves the samples as evidence.
    light = _case(HALF, steal_ns=[HOST_SPOILED_SHARE * 0.9 * 2 * SAMPLE_NS] * 5 + [0.0] * 5, steal_cpus=2.0)
    assert not spoiled(light).any() and self_starved(light, CPUS, CLEAN)


def test_a_sample_that_ends_mid_batch_is_not_zero_operations():
    # 256 tasks a batch at 20 µs each: 5.1 ms a batch, fewer than EDGE_BATCHES in an 8 ms sample.
    edge = _case(HALF, batch_ops=256.0)
    assert list(batch_edge(edge, CPUS)) == [True] * 5 + [False] * 5
    assert not self_starved(edge, CPUS, CLEAN)
    # Negative control: batches of 64 tasks, 1.3 ms each: six fit in a sample, so its zero is evidence.
    assert 64 * 20_000.0 * EDGE_BATCHES < SAMPLE_NS
    assert self_starved(_case(HALF, batch_ops=64.0), CPUS, CLEAN)
    # A case that never completed a batch has no pace to judge by: its zeros stand.
    assert not batch_edge(_case([INF] * 10, batch_ops=256.0), CPUS).any()


def test_threads_held_off_their_cpus_within_the_cpus_are_not_starved_by_the_variant():
    waited = _case(HALF, sched_threads=1.0, sched_runqueue_ns=[0.7 * SAMPLE_NS] * 5 + [0.0] * 5)
    assert not self_starved(waited, CPUS, CLEAN)
    # Negative control: the same wait with more threads than CPUs is the case's own.
    over = _case(HALF, threads=4, sched_threads=4.0, sched_runqueue_ns=[0.7 * 4 * SAMPLE_NS] * 5 + [0.0] * 5)
    assert self_starved(over, CPUS, CLEAN)


def test_starvation_goes_beyond_what_the_runs_controls_show():
    two = _case([INF] * 2 + [20_000.0] * 8)
    assert self_starved(two, CPUS, CLEAN)
    # Controls that stalled in one sample of ten: two of ten is chance.
    assert not self_starved(two, CPUS, StallFloor(Chance(looked=20, samples=200)))
    # No control timed: one in 20 assumed, and two of ten is chance too; five of ten is not.
    assert not self_starved(two, CPUS, UNMEASURED_FLOOR)
    assert self_starved(_case(HALF), CPUS, UNMEASURED_FLOOR)


def test_the_floor_is_the_harness_loops_unexplained_zero_threads():
    fine = _case([1.0] * 10, threads=2, suite="harness", benchmark="empty", variant="loop")
    stalled = _case([1.0] * 10, threads=2, suite="harness", benchmark="opaque-call", variant="call")
    stalled.columns["thread_ops_min"][:2] = 0.0
    other = _case(HALF, threads=2)
    # A harness case that takes a lock (a brought lock joins harness/mutex-pair) is no control.
    locked = _case([1.0] * 10, threads=2, suite="harness", benchmark="mutex-pair", variant="ticket-lock")
    locked.columns["thread_ops_min"][:] = 0.0
    floor = stall_floor([fine, stalled, other, locked], CPUS)
    assert (floor.starved.looked, floor.starved.samples) == (2, 20)
    assert floor.starved.rate == 3 / 22
    # A stall the host took is not counted, nor its sample.
    stolen = _case([1.0] * 10, threads=2, suite="harness", benchmark="opaque-call", variant="call",
                   steal_ns=[SAMPLE_NS] * 2 + [0.0] * 8, steal_cpus=2.0)
    stolen.columns["thread_ops_min"][:2] = 0.0
    floor = stall_floor([fine, stolen], CPUS)
    assert (floor.starved.looked, floor.starved.samples) == (0, 18)


def test_a_disqualification_says_what_its_floor_rests_on():
    starved = _case(HALF)
    reason = disqualification(starved, role_rows([starved]), CPUS, cpu_share=None, floor=CLEAN)
    assert reason == "starved in 5 of 10 samples (5 of 10 rounds; the controls looked starved in 0 of 200)"


def test_a_thread_at_zero_within_the_cpus_is_starved_and_beyond_them_it_may_have_waited():
    # Two threads on two CPUs, one of which completed nothing in half the samples while the other worked.
    both = _case([100.0] * 10, threads=2)
    both.columns["thread_ops_min"][:5] = 0.0
    assert starved_samples(both, CPUS).sum() == 5 and self_starved(both, CPUS, CLEAN)
    # Negative control: the same at 4 threads on 2 CPUs, where the thread may have waited for a CPU.
    over = _case([100.0] * 10, threads=4)
    over.columns["thread_ops_min"][:5] = 0.0
    assert not starved_samples(over, CPUS).any()


def test_unfairness_goes_beyond_what_the_runs_controls_show():
    behind = _case([100.0] * 10, threads=2)
    behind.columns["thread_ops_min"][:] = behind.columns["thread_ops_max"] * 0.05
    assert unfair_samples(behind, CPUS, FAIRNESS_MIN).sum() == 10
    rows = role_rows([behind])
    clean = StallFloor(Chance(0, 200), Chance(0, 200))
    assert disqualification(behind, rows, CPUS, cpu_share=None, floor=clean).startswith("unfair (slowest thread did")
    # Negative control: controls that were as unfair in every sample (a machine that holds one vCPU back): chance.
    as_unfair = StallFloor(Chance(0, 200), Chance(200, 200))
    assert disqualification(behind, rows, CPUS, cpu_share=None, floor=as_unfair) is None
    # Controls' own unfair samples are counted as a variant's would be.
    loop = _case([1.0] * 10, threads=2, suite="harness", benchmark="empty", variant="loop")
    loop.columns["thread_ops_min"][:3] = loop.columns["thread_ops_max"][:3] * 0.05
    floor = stall_floor([loop], CPUS, FAIRNESS_MIN)
    assert (floor.unfair.looked, floor.unfair.samples) == (3, 10)


def test_schema_10s_columns_reach_the_rules_through_the_loader(tmp_path):
    # The columns as csvgen writes them at version 10 (as bench does), read back by the loader.
    from analyze_lib.files.loader import load_results
    from csvgen import case, write_results

    key = case("wait", "fan-out", "serial-worker", 1, "tasks=256")
    samples = [INF] * 5 + [20_000.0] * 10
    stolen = write_results(tmp_path / "stolen.csv", {key: samples}, version=10, run={"logical_cpus": "2"},
                           signals={key: {"steal": 0.5}})
    [found] = load_results(stolen).cases.values()
    assert spoiled(found).all() and not self_starved(found, CPUS, CLEAN)
    edge = write_results(tmp_path / "edge.csv", {key: samples}, version=10, run={"logical_cpus": "2"},
                         signals={key: {"batch_ops": 4096}})
    [found] = load_results(edge).cases.values()
    assert batch_edge(found, CPUS)[:5].all() and not self_starved(found, CPUS, CLEAN)
    # Negative control: the same samples with neither column filled are starved.
    plain = write_results(tmp_path / "plain.csv", {key: samples}, version=10, run={"logical_cpus": "2"})
    [found] = load_results(plain).cases.values()
    assert self_starved(found, CPUS, CLEAN)


def test_a_busy_machine_judges_no_starvation_as_it_judges_no_fairness():
    # Beside two `yes` processes a mutex's thread at 2 threads did nothing in 2 of 10 samples while its holder waited
    # for a CPU: other work's doing, which the row's own figures cannot always show (the holder is another row's).
    starved = _case(HALF)
    rows = role_rows([starved])
    assert disqualification(starved, rows, CPUS, cpu_share=0.44, floor=CLEAN) is None
    # Negative control: the same samples on a quiet machine.
    assert disqualification(starved, rows, CPUS, cpu_share=1.0, floor=CLEAN).startswith("starved in 5 of 10")


def test_a_sample_the_host_spoiled_makes_no_cliff():
    # Two of three samples of the 2-thread case were slow only because the host stole their CPUs: no cliff.
    from analyze_lib.judge.diagnosis import cliffs, diagnose

    one = _case([100.0] * 3, threads=1, suite="isolation", variant="mutex", benchmark="mixed")
    stolen = [0.5 * 2 * SAMPLE_NS] * 2 + [0.0]
    two = _case([1000.0, 1000.0, 120.0], threads=2, suite="isolation", variant="mutex", benchmark="mixed",
                steal_ns=stolen, steal_cpus=2.0)
    assert not cliffs(diagnose({one.key: one, two.key: two}, CPUS, 1.0, floor=UNMEASURED_FLOOR))
    # Negative control: the same samples with no steal recorded are a cliff of 10x.
    plain = _case([1000.0, 1000.0, 120.0], threads=2, suite="isolation", variant="mutex", benchmark="mixed")
    [cliff] = cliffs(diagnose({one.key: one, plain.key: plain}, CPUS, 1.0, floor=UNMEASURED_FLOOR))
    assert cliff.factor == 10.0
