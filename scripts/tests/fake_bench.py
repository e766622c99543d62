#!/usr/bin/env python3
"""A stand-in for bench in bench-commits' tests: speaks the round interface (--rounds, --round, --seed,
--run-environment, --output, --spin-scale, --quick) and `count`, writing rows in the format of the
fixtures bench itself wrote (fixtures/bench-v5.csv, fixtures/bench-counts-v5.csv).

Every invocation appends {"argv", "cwd", "commit" (of the cwd)} as a JSON line to $FAKE_BENCH_LOG. The speed of a commit is in
the commit: a file SPEED in the working directory (the side's worktree) multiplies every ns/op, a file
INSTRUCTIONS every instruction count. FAKE_BENCH_COUNT_EXIT makes `count` exit with that status (69:
no valgrind); FAKE_BENCH_EXIT makes a timed round exit with it.
"""

from __future__ import annotations

import csv
import json
import os
import random
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SAMPLES = 5
NOISE = 0.003  # relative, far below the gate's 10% threshold
# (suite, benchmark, variant, threads, base ns/op)
CASES = (
    ("harness", "empty", "loop", 1, 0.3),
    ("harness", "spin", "loop", 1, 250.0),
    ("isolation", "roles", "rwlock", 1, 40.0),
    ("wait", "handoff", "semaphore", 2, 900.0),
)


def option(argv: list[str], name: str, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def factor(name: str) -> float:
    path = Path(name)
    return float(path.read_text()) if path.exists() else 1.0


def template(fixture: str) -> tuple[list[str], dict]:
    with open(FIXTURES / fixture, newline="") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames), next(reader)


def environment(path: str | None) -> dict:
    """The run environment: read from the file when it exists, else this process's, written there."""
    if path and Path(path).exists():
        return json.loads(Path(path).read_text())
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    env = {"commit": commit or "unknown", "run_id": f"fake-{os.getpid()}"}
    if path:
        Path(path).write_text(json.dumps(env))
    return env


def write_rows(path: str, header: list[str], rows: list[dict]) -> None:
    target = Path(path)
    append = target.exists() and target.read_text().split("\n", 1)[0] == ",".join(header)
    with open(target, "a" if append else "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header, lineterminator="\n")
        if not append:
            writer.writeheader()
        writer.writerows(rows)


def timed(argv: list[str]) -> int:
    if os.environ.get("FAKE_BENCH_EXIT"):
        print("fake bench: failing as asked", file=sys.stderr)
        return int(os.environ["FAKE_BENCH_EXIT"])
    rounds, round_number = int(option(argv, "--rounds", "1")), int(option(argv, "--round", "1"))
    seed = int(option(argv, "--seed", "0"))
    spin_scale = float(option(argv, "--spin-scale", "1"))
    env = environment(option(argv, "--run-environment"))
    header, row = template("bench-v5.csv")
    speed = factor("SPEED")
    rng = random.Random(f"{seed}-{round_number}-{spin_scale}-{speed}-{os.getcwd()}")
    rows = []
    for suite, benchmark, variant, threads, ns in CASES:
        scale = speed * (spin_scale if (suite, benchmark) == ("harness", "spin") else 1.0)
        for sample in range(SAMPLES):
            ns_per_op = ns * scale * (1 + rng.uniform(-NOISE, NOISE))
            ops = 100000
            rows.append({**row, "run_id": env["run_id"], "commit": env["commit"], "suite": suite,
                         "benchmark": benchmark, "variant": variant, "threads": str(threads), "params": "",
                         "sample": str(sample), "ops": str(ops), "elapsed_ns": str(int(ops * ns_per_op)),
                         "ns_per_op": f"{ns_per_op:.4f}", "ops_per_sec": f"{1e9 / ns_per_op:.4f}",
                         "thread_ops_min": str(ops // threads), "thread_ops_max": str(ops // threads),
                         "round": str(round_number), "run_rounds": str(rounds), "run_seed": str(seed),
                         "run_samples": str(SAMPLES), "run_filter": "", "run_threads": "1,2"})
    write_rows(option(argv, "--output"), header, rows)
    return 0


def count(argv: list[str]) -> int:
    if os.environ.get("FAKE_BENCH_COUNT_EXIT"):
        print("bench count: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return int(os.environ["FAKE_BENCH_COUNT_EXIT"])
    header, _ = template("bench-counts-v5.csv")
    with open(FIXTURES / "bench-counts-v5.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    env = environment(None)
    scale = factor("INSTRUCTIONS")
    for row in rows:
        instructions = int(int(row["instructions"]) * scale)
        row.update(commit=env["commit"], instructions=str(instructions),
                   instructions_per_op=f"{instructions / int(row['operations']):.4f}")
    write_rows(option(argv, "--output"), header, rows)
    return 0


def main() -> int:
    argv = sys.argv[1:]
    with open(os.environ["FAKE_BENCH_LOG"], "a") as log:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        log.write(json.dumps({"argv": argv, "cwd": os.getcwd(), "commit": commit}) + "\n")
    return count(argv) if argv[:1] == ["count"] else timed(argv)


if __name__ == "__main__":
    sys.exit(main())
