"""Writes valid results CSVs for the tests: timing files (schema 1, 2 or 3) from seeded
distributions, counts files (bench count) from per-op values, and stress files (bench
stress) from outcome rows."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from analyze_lib.files.schema import (COLUMNS_BY_VERSION, CONTROL_PREFIX, COUNTS_COLUMNS_BY_VERSION,
                                      STRESS_COLUMNS_BY_VERSION)

DEFAULT_SEED = 7
DEFAULT_SAMPLES = 15
DEFAULT_CV = 0.05

RUN = {
    "run_id": "4f1c2a9e-0000-4000-8000-000000000001",
    "started_at": "2026-11-21T23:45:01Z",
    "commit": "0123456789abcdef0123456789abcdef01234567",
    "dirty": "false",
    "host": "bench-1",
    "os": "Debian GNU/Linux 12",
    "kernel": "6.1.0",
    "cpu_model": "Test CPU @ 3.0GHz",
    "logical_cpus": "4",
    "swift_version": "6.0.3",
    "build": "release",
    "allocator": "system",
    # Version 3's run settings (ignored for older versions), as `bench` with no options.
    "run_samples": "15",
    "run_warmup": "2",
    "run_sample_ns": "20000000",
    "run_quick": "false",
    "run_filter": "",
    "run_threads": "1,2,4,8",
    "run_rounds": "1",
    "run_seed": "",
    "load_avg_1m": "0.42",
    "bench_version": "0.3.0",
    # Version 4's.
    "run_spin_scale": "1.0",
    # Version 5's (and counts version 5's, stress version 2's): a completed ordinary run.
    "run_complete": "true",
    "pair": "",
    "pair_order": "",
    # Version 9's: a measured sample, not the row of a case abandoned as hung.
    "hung": "false",
    # Version 7's run_min_rounds is run_rounds unless a test gives it (write_results): every case got
    # every round, as in a run with --rounds.
}

# Version 8's per-thread schedule columns, in the order the file has them; empty (as a platform without
# schedstat writes them) unless a case's signals give a ``schedule``.
SCHEDULE_COLUMNS = ("sched_threads", "sched_running_ns", "sched_runqueue_ns", "sched_switches_in")

# Version 3's per-sample OS thread counts.
OS_THREADS = "5"
# What a sample's process did besides its time, by default (``write_results``' ``signals``): every
# thread kept its CPU busy (utilisation 1), almost all of it in user space, hardly a switch.
DEFAULT_SIGNALS = {"utilisation": 1.0, "kernel_share": 0.01, "voluntary": 1e-5, "involuntary": 0.0}


def lognormal(median: float, cv: float, n: int, rng: np.random.Generator) -> np.ndarray:
    """n log-normal samples with the given median and coefficient of variation."""
    sigma = np.sqrt(np.log1p(cv * cv))
    return median * np.exp(rng.normal(0.0, sigma, n))


def case(suite="once", benchmark="hit", variant="dispatch-once", threads=1, params=""):
    """A case key as the tuple write_results takes."""
    return (suite, benchmark, variant, threads, params)


def write_results(path: Path, cases: dict, version: int = 2, run: dict | None = None,
                  seed: int = DEFAULT_SEED, thread_ops: dict | None = None, origins: dict | None = None,
                  signals: dict | None = None) -> Path:
    """Write a results CSV: ``cases`` maps case tuple -> samples (array of ns/op), or
    -> a median, from which DEFAULT_SAMPLES log-normal samples with DEFAULT_CV are drawn
    (seeded, so the file is the same every time). ``thread_ops`` maps a case tuple to the
    (thread_ops_min, thread_ops_max) of each of its samples; by default every thread did
    an equal share of the sample's operations.

    A case may also map to a list of rounds, each an array of ns/op (see ``rounds``): its
    rows then carry ``round`` 1, 2, ... as `bench --rounds N` writes them (version 3).
    ``origins`` maps a variant to the module that brought it (version 6); others are built in.
    ``signals`` maps a case tuple to what its process did (DEFAULT_SIGNALS for what it leaves out):
    ``utilisation`` (CPU time over elapsed × min(threads, logical CPUs)), ``kernel_share`` (of that
    CPU time), ``voluntary`` and ``involuntary`` (context switches per operation), ``os_threads``
    ((start, end) OS threads, version 3 and later; OS_THREADS both by default) and ``schedule``
    (version 8: the threads' ``running`` and ``runqueue`` shares of threads × elapsed and their
    ``switches_in`` per operation; the sched_ columns are empty without it), ``steal`` (version 10: the share of
    their CPUs' time the host stole, over min(threads, logical CPUs) CPUs; steal_ns and steal_cpus are empty
    without it, as where the platform gives no figure) and ``batch_ops`` (version 10: the operations a thread
    publishes at a time; empty without it, as a lockstep case writes it)."""
    rng = np.random.default_rng(seed)
    meta = {**RUN, **(run or {})}
    meta.setdefault("run_min_rounds", meta["run_rounds"])
    columns = COLUMNS_BY_VERSION[version]
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for (suite, benchmark, variant, threads, params), samples in cases.items():
            if np.isscalar(samples):
                samples = lognormal(float(samples), DEFAULT_CV, DEFAULT_SAMPLES, rng)
            if _is_rounds(samples):
                numbered = [(r + 1, i, ns) for r, group in enumerate(samples) for i, ns in enumerate(group)]
            else:
                numbered = [(1, i, ns) for i, ns in enumerate(samples)]
            for round_, index, ns in numbered:
                # A starved sample (inf) completed no operation, as bench writes it.
                starved = np.isinf(ns)
                ops = 0 if starved else 100000
                fewest, most = (thread_ops or {}).get((suite, benchmark, variant, threads, params),
                                                      (ops // threads, ops // threads))
                said = {**DEFAULT_SIGNALS, **(signals or {}).get((suite, benchmark, variant, threads, params), {})}
                elapsed = 2000000 if starved else int(ns * ops)
                cpu = said["utilisation"] * elapsed * min(threads, int(meta["logical_cpus"]))
                kernel = said["kernel_share"] * cpu
                counted = ops or 100000
                start, end = said.get("os_threads", (OS_THREADS, OS_THREADS))
                schedule = dict(zip(SCHEDULE_COLUMNS, ("",) * len(SCHEDULE_COLUMNS)))
                if "schedule" in said:
                    split, span = said["schedule"], threads * elapsed
                    schedule = {"sched_threads": str(threads),
                                "sched_running_ns": str(int(split["running"] * span)),
                                "sched_runqueue_ns": str(int(split["runqueue"] * span)),
                                "sched_switches_in": str(round(split["switches_in"] * counted))}
                cpus = min(threads, int(meta["logical_cpus"]))
                steal = {"steal_ns": "", "steal_cpus": ""} if "steal" not in said else {
                    "steal_ns": str(int(said["steal"] * cpus * elapsed)), "steal_cpus": str(cpus)}
                row = {
                    **meta, "schema_version": str(version), **steal,
                    "batch_ops": str(said["batch_ops"]) if "batch_ops" in said else "",
                    "suite": suite, "benchmark": benchmark, "variant": variant,
                    "threads": str(threads), "params": params, "sample": str(index),
                    "ops": str(ops), "elapsed_ns": str(elapsed),
                    "ns_per_op": "inf" if starved else repr(float(ns)),
                    "ops_per_sec": "0.0000" if starved else repr(1e9 / float(ns)),
                    "cpu_user_ns": str(int(cpu - kernel)), "cpu_sys_ns": str(int(kernel)),
                    "ctx_voluntary": str(round(said["voluntary"] * counted)),
                    "ctx_involuntary": str(round(said["involuntary"] * counted)), "mallocs": "",
                    "thread_ops_min": str(0 if starved else fewest), "thread_ops_max": str(0 if starved else most),
                    "p50_ns": "", "p90_ns": "", "p99_ns": "",
                    "round": str(round_), "os_threads_start": str(start), "os_threads_end": str(end),
                    "variant_origin": (origins or {}).get(variant, "built-in"), **schedule,
                }
                writer.writerow([row[c] for c in columns])
    return path


def _is_rounds(samples) -> bool:
    return isinstance(samples, (list, tuple)) and len(samples) > 0 and not np.isscalar(samples[0])


def rounds(median: float, count: int, shift_cv: float = 0.0, cv: float = DEFAULT_CV,
           samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED, levels=None) -> list[np.ndarray]:
    """``count`` rounds of log-normal samples for write_results: each round (a fresh
    process) has its own level, ``median`` times a log-normal shift of CV ``shift_cv``
    (or times ``levels[r]`` when given), and ``samples`` samples of CV ``cv`` around it."""
    rng = np.random.default_rng(seed)
    shifts = levels if levels is not None else lognormal(1.0, shift_cv, count, rng) if shift_cv else [1.0] * count
    return [lognormal(median * float(shift), cv, samples, rng) for shift in shifts]


FULL_RUN_THREADS = (1, 2, 4, 8)


def full_run_cases(slowdown: float = 1.0, threads=FULL_RUN_THREADS) -> dict:
    """Case tuple -> median ns/op for a run shaped like a real one (every suite), with
    the once/hit/lock variant ``slowdown`` times slower."""
    cases = {}
    for benchmark in ("empty", "lazy-static"):
        cases[case("harness", benchmark, "baseline", 1)] = 0.4 if benchmark == "empty" else 1.1
    for t in threads:
        contention = 1 + 0.4 * (t - 1)
        for tokens in (1, 10, 100, 1000):
            for variant, cost in (("dispatch-once", 1.0), ("lock", 18.0), ("array-tracker", 3.0)):
                extra = tokens ** 0.5 if variant == "array-tracker" else 1
                factor = slowdown if variant == "lock" else 1.0
                cases[case("once", "hit", variant, t, f"tokens={tokens}")] = cost * contention * extra * factor
        cases[case("once", "first", "dispatch-once", t)] = 40 * contention
        cases[case("once", "first", "lock", t)] = 55 * contention
        for read_pct in (0, 50, 90, 99):
            for variant, cost in (("serial-queue", 120), ("concurrent-barrier", 90 + read_pct), ("rw-lock", 40)):
                cases[case("isolation", "mixed", variant, t, f"read_pct={read_pct}")] = cost * contention
        for role in ("read", "write"):
            cases[case("isolation", "roles", "rw-lock", t, f"readers={t};role={role};writers=1")] = 50 * contention
        for tasks in (16, 256):
            for work in (0, 100):
                for variant, cost in (("group", 300), ("concurrent-perform", 120)):
                    cases[case("wait", "fan-out", variant, t, f"tasks={tasks};work={work}")] = (
                        cost + work) * tasks / min(t, 4)
        cases[case("wait", "handoff", "semaphore", t)] = 900 * contention
    return cases


# Counts files (bench count): one row per case. A counted run of COUNT_ITERATIONS
# iterations of COUNT_OPS_PER_ITERATION operations each.
COUNT_ITERATIONS = 1000
COUNT_OPS_PER_ITERATION = 10
COUNTS_RUN = {**{k: v for k, v in RUN.items() if k in COUNTS_COLUMNS_BY_VERSION[5]}, "allocator": "jemalloc"}


def write_counts(path: Path, cases: dict, run: dict | None = None, version: int = 3,
                 iterations: int = COUNT_ITERATIONS, per_op_format: str = "{:.4f}") -> Path:
    """Write a counts CSV: ``cases`` maps a case tuple (see ``case``) to
    (instructions per op, allocations per op). The integer counts are the per-op values
    times the operations of the counted run (iterations × COUNT_OPS_PER_ITERATION), rounded;
    the per-op columns are written with ``per_op_format`` from those integers, as bench
    writes them."""
    meta = {**COUNTS_RUN, **(run or {})}
    columns = COUNTS_COLUMNS_BY_VERSION[version]
    operations = iterations * COUNT_OPS_PER_ITERATION
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for (suite, benchmark, variant, threads, params), (per_op, allocs_per_op) in cases.items():
            instructions = round(per_op * operations)
            allocations = round(allocs_per_op * operations)
            row = {
                **meta, "schema_version": str(version),
                "suite": suite, "benchmark": benchmark, "variant": variant,
                "threads": str(threads), "params": params,
                "iterations": str(iterations), "operations": str(operations),
                "instructions": str(instructions),
                "instructions_per_op": per_op_format.format(instructions / operations),
                "allocations": str(allocations),
                "allocations_per_op": per_op_format.format(allocations / operations),
            }
            writer.writerow([row[c] for c in columns])
    return path


def once_hit_counts(variants=(("dispatch-once", 12.0, 0.0), ("lock", 40.0, 0.0), ("array-tracker", 15.0, 0.0)),
                    tokens=(1, 10, 100, 1000)) -> dict:
    """Case tuple -> (instructions/op, allocations/op) for once/hit at one thread, shaped
    like a real count run: array-tracker's instructions grow with the tokens it scans."""
    cases = {case("harness", "empty", "loop"): (3.0, 0.0)}
    for count in tokens:
        for variant, instructions, allocations in variants:
            grows = count if variant == "array-tracker" else 1
            cases[case("once", "hit", variant, 1, f"tokens={count}")] = (instructions * grows, allocations)
    return cases


# Stress files (bench stress): one row per (check, threads, outcome), the environment of RUN
# with dirty possibly "unknown", as ResultsSchema writes it.
STRESS_RUN = {k: v for k, v in RUN.items() if k in STRESS_COLUMNS_BY_VERSION[2]}
STRESS_ITERATIONS = 1000
STRESS_SECONDS = 0.5
# Version 4's trial counts, by default: a variant's check made STRESS_TRIALS racing windows, well above its
# minimum (it is proven); a caught control was caught in its first iteration, after CONTROL_TRIALS of them.
STRESS_TRIALS = 100000
STRESS_MINIMUM = 1000
CONTROL_TRIALS = 100


# Version 5's words for every check a test writes: what a trial is, what N threads mean.
STRESS_TRIAL = "write"
STRESS_THREADS_MEANING = "N writers"


def outcome(check: str, threads: int, outcome_id: str, grade: str = "acceptable", count: int = 1000,
            iterations: int = STRESS_ITERATIONS, seconds: float = STRESS_SECONDS,
            first: float | None = None, trials: int | None = None, minimum: int = STRESS_MINIMUM,
            kind: str | None = None, trials_to_first: int | None = None) -> dict:
    """One stress row: ``outcome_id`` seen ``count`` times by ``check`` at ``threads``, in
    ``iterations`` iterations over ``seconds``; ``first`` is a control's
    seconds_to_first_forbidden (None: empty). is_control follows the check's name.
    Version 4's columns (a file of an older version leaves them out): ``trials`` (STRESS_TRIALS by default)
    against ``minimum``; a control's ``kind`` (deterministic by default) and, when ``first`` is given, its
    ``trials_to_first`` forbidden outcome (its ``trials`` by default)."""
    control = check.startswith(CONTROL_PREFIX)
    trials = STRESS_TRIALS if trials is None else trials
    if first is not None and trials_to_first is None:
        trials_to_first = trials
    return {"check": check, "is_control": "true" if control else "false",
            "threads": str(threads), "iterations": str(iterations), "seconds": f"{seconds:.3f}",
            "outcome": outcome_id, "grade": grade, "count": str(count),
            "seconds_to_first_forbidden": "" if first is None else f"{first:.3f}",
            "trials": str(trials), "minimum_trials": str(minimum),
            "control_kind": (kind or "deterministic") if control else "",
            "trials_to_first_forbidden": "" if trials_to_first is None else str(trials_to_first),
            "trial": STRESS_TRIAL, "threads_meaning": STRESS_THREADS_MEANING}


def caught_control(check: str, threads: int = 4, forbidden: str = "block-ran-more-than-once",
                   after: float = 0.002, kind: str = "deterministic", trials: int = CONTROL_TRIALS,
                   minimum: int = STRESS_MINIMUM) -> dict:
    """A control's row as bench writes it when the check caught it after ``after`` seconds and ``trials`` trials
    (in its first iteration)."""
    return outcome(check, threads, forbidden, "forbidden", count=7, iterations=1, seconds=after, first=after,
                   trials=trials, minimum=minimum, kind=kind)


def write_stress(path: Path, rows: list[dict], run: dict | None = None, version: int = 1) -> Path:
    """Write a stress CSV of ``rows`` (see ``outcome``), CRLF line ends like bench's."""
    meta = {**STRESS_RUN, **(run or {})}
    # An unknown version (a test of the loader's refusal) gets the latest version's columns.
    columns = STRESS_COLUMNS_BY_VERSION.get(version, STRESS_COLUMNS_BY_VERSION[max(STRESS_COLUMNS_BY_VERSION)])
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for row in rows:
            cells = {**meta, "stress_schema_version": str(version), "variant_origin": "built-in", **row}
            writer.writerow([cells[c] for c in columns])
    return path


def clean_stress_rows() -> list[dict]:
    """A clean run: two variant checks at 1 and 2 threads, one of them with an
    acceptable-interesting outcome, and two controls, both caught."""
    rows = []
    for threads in (1, 2):
        rows.append(outcome("once/lazy-static/race", threads, "block-ran-once", count=100000))
        rows.append(outcome("isolation/serial-async-write/write-window", threads, "read-saw-own-write", count=900))
        rows.append(outcome("isolation/serial-async-write/write-window", threads, "write-returned-before-applied",
                            "acceptable-interesting", count=100))
    rows.append(caught_control("control/once/unsynced-tracker/race"))
    rows.append(caught_control("control/isolation/racy-store/torn-reads", forbidden="read-saw-half-applied-write",
                               after=0.329))
    return rows


def write_paired(base_path: Path, head_path: Path, medians: dict, changes: dict | None = None, rounds: int = 12,
                 pairs: int = 4, host_levels=(1.0, 2.0), cv: float = 0.02, seed: int = DEFAULT_SEED,
                 record_pairs: bool = True, starving: dict | None = None, starved_at: dict | None = None) -> None:
    """Write the two files of a paired comparison (bench-commits --paired): per case (``medians``
    maps a case tuple to its base median), ``rounds`` rounds of ``pairs`` pairs. Each pair's two
    samples share a host level drawn from ``host_levels`` (the host's speed states, which pairing
    cancels), each sample has its own noise of CV ``cv``; head is base times ``changes[case]``.
    ``starving[case]`` is (base, head): the chance that a sample of that side starves (completes no
    operation), each sample drawn on its own. ``starved_at[case]`` is (base, head): the (round, pair) positions,
    both counted from 0, at which that side's sample starves, whatever ``starving`` drew.
    With ``record_pairs`` false the same samples are written as two ordinary runs of rounds."""
    rng = np.random.default_rng(seed)
    base_rows, head_rows = {}, {}
    for key, median in medians.items():
        change = (changes or {}).get(key, 1.0)
        base_starves, head_starves = (starving or {}).get(key, (0.0, 0.0))
        levels = rng.choice(host_levels, size=(rounds, pairs))
        base_rows[key] = [_starve(median * levels[r] * lognormal(1.0, cv, pairs, rng), base_starves, rng)
                          for r in range(rounds)]
        head_rows[key] = [_starve(median * change * levels[r] * lognormal(1.0, cv, pairs, rng), head_starves, rng)
                          for r in range(rounds)]
        for side, positions in zip((base_rows[key], head_rows[key]), (starved_at or {}).get(key, ((), ()))):
            for round_, pair in positions:
                side[round_][pair] = np.inf
    for path, cases, first in ((base_path, base_rows, "first"), (head_path, head_rows, "second")):
        write_results(path, cases, version=5, run={"run_seed": "7", "run_rounds": str(rounds)})
        if record_pairs:
            _number_pairs(path, first)


def _starve(samples: np.ndarray, chance: float, rng) -> np.ndarray:
    """``samples`` with each one starved (inf) at ``chance``."""
    return np.where(rng.random(samples.size) < chance, np.inf, samples)


def _number_pairs(path: Path, first: str) -> None:
    """Give every row of a rounds file written by write_results its pair (the sample's index in its
    round) and order (``first`` for even pairs, ABBA)."""
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    header = rows[0]
    sample, pair, order = header.index("sample"), header.index("pair"), header.index("pair_order")
    second = "second" if first == "first" else "first"
    for row in rows[1:]:
        row[pair] = row[sample]
        row[order] = first if int(row[sample]) % 2 == 0 else second
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows(rows)
