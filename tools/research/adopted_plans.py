"""Whether a sample set up by an adopted plan measures what a sample set up by calibrating does: what an adaptive
run's later rounds rest on (they run each case by the plan round 1 calibrated).

    .venv/bin/python tools/research/adopted_plans.py .build/release/bench [--filter '^once/'] [--repetitions 2]

One ``bench worker`` measures every selected case twice a repetition, one after the other: set up by calibrating
(A), and set up by adopting A's plan (B), each then 1 warm-up and 1 kept sample of 8 ms, as a round of ``bench``
takes them; which of the two comes first alternates by case and repetition (B first adopts the plan of a
calibration just before it). Both run in one process, so the host's slower and faster phases, which move whole
processes, fall on both alike. It prints, over the cases and by thread count, quartiles of each case's median
B/A.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

# The product's modules (bench_commits) live in scripts/; this tool stands beside it.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from bench_commits.worker import Worker  # noqa: E402 (needs the path above)

SAMPLE_NS = 8_000_000


def case_ratio(pairs: list[tuple[float, float]]) -> float | None:
    """The median B/A of one case's (A, B) pairs; None when no pair has two finite positive samples."""
    ratios = [b / a for a, b in pairs if 0 < a < math.inf and 0 < b < math.inf]
    return statistics.median(ratios) if ratios else None


def quartiles(values: list[float]) -> tuple[float, float, float]:
    """The 25th, 50th and 75th percentiles (statistics' exclusive method); the value thrice for one value."""
    if len(values) == 1:
        return values[0], values[0], values[0]
    low, middle, high = statistics.quantiles(values, n=4)
    return low, middle, high


def measure(worker: Worker, case: dict, plan: dict | None) -> tuple[dict, float]:
    """One setup (adopting ``plan`` when given), 1 warm-up and 1 kept sample, teardown: the plan and ns per op."""
    request = {"request": "setup", "case": case, "sample_ns": SAMPLE_NS} | ({"plan": plan} if plan else {})
    used = worker.request(request)["plan"]
    records = worker.request({"request": "sample", "samples": 1, "sample_ns": SAMPLE_NS, "warmup": 1})["records"]
    worker.request({"request": "teardown"})
    return used, float(records[0]["ns_per_op"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bench", type=Path)
    parser.add_argument("--filter")
    parser.add_argument("--repetitions", type=int, default=2)
    args = parser.parse_args(argv)
    command = [str(args.bench.resolve()), "worker"] + (["--filter", args.filter] if args.filter else [])
    with tempfile.TemporaryDirectory() as scratch:
        worker = Worker("A/B", command, Path(scratch), Path(scratch) / "worker.log")
        cases = worker.list_cases()
        pairs: dict[str, list[tuple[float, float]]] = defaultdict(list)
        rng = random.Random(1)
        for repetition in range(args.repetitions):
            for index in rng.sample(range(len(cases)), len(cases)):
                case = cases[index]
                if (index + repetition) % 2 == 0:
                    plan, calibrated = measure(worker, case, None)
                    _, adopted = measure(worker, case, plan)
                else:
                    plan, _ = measure(worker, case, None)
                    _, adopted = measure(worker, case, plan)
                    _, calibrated = measure(worker, case, None)
                pairs[json.dumps(case, sort_keys=True)].append((calibrated, adopted))
        worker.quit()
    by_threads: dict[str, list[float]] = defaultdict(list)
    for key, case_pairs in pairs.items():
        ratio = case_ratio(case_pairs)
        if ratio is not None:
            by_threads[json.loads(key)["threads"]].append(ratio)
    print("threads  cases  B/A (adopted / calibrated): 25%  median  75%")
    for threads in sorted(by_threads, key=int) + ["all"]:
        values = by_threads[threads] if threads != "all" else [v for vs in by_threads.values() for v in vs]
        low, middle, high = quartiles(values)
        print(f"{threads:>7}  {len(values):>5}  {low:.3f}  {middle:.3f}  {high:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
