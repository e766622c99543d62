"""How much pairing cancels the host's noise, per sample length: an A/A measurement for choosing
``--sample-time`` of a paired run.

    PYTHONPATH=scripts .venv/bin/python -m bench_commits.pairing_noise .build/release/bench \\
        --filter '^harness/spin/' --threads 1 --lengths 1,2,4,8 --pairs 24 --rounds 3

Two workers of one binary (A/A) measure every selected case at every sample length, in a shuffled
order per round (fresh workers every round), in pairs alternated ABBA, each sample after one
warm-up sample, as a paired run does. For each case and length it prints the spread (standard
deviation) of log(B/A) over the measured pairs and over random pairings of the same samples: the
smaller the first against the second, the more of the host's noise a pair shares, and the tighter a
paired comparison at that length.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import tempfile
from pathlib import Path

from .paired_plan import WARMUP_SAMPLES
from .worker import Worker

RANDOM_PAIRINGS = 50


def spreads(pairs: list[tuple[float, float]], seed: int = 1) -> tuple[float, float] | None:
    """(sd of log(b/a) over the pairs, median sd over random pairings of the same samples); None with
    fewer than 3 usable pairs (a starved sample, inf, has no ratio)."""
    usable = [(a, b) for a, b in pairs if 0 < a < math.inf and 0 < b < math.inf]
    if len(usable) < 3:
        return None
    paired = statistics.stdev(math.log(b / a) for a, b in usable)
    rng = random.Random(seed)
    others = [b for _, b in usable]
    shuffled = []
    for _ in range(RANDOM_PAIRINGS):
        rng.shuffle(others)
        shuffled.append(statistics.stdev(math.log(b / a) for (a, _), b in zip(usable, others)))
    return paired, statistics.median(shuffled)


def measure(binary: str, options: list[str], lengths_ms: list[float], pairs: int, rounds: int, log: Path) -> dict:
    """{(case label, length ms): [(a ns/op, b ns/op), ...]} from ``rounds`` rounds of two fresh workers."""
    found: dict = {}
    for round_number in range(1, rounds + 1):
        workers = [Worker(name, [binary, *options, "worker"], Path.cwd(), log) for name in ("A", "B")]
        try:
            visits = [(case, length) for case in workers[0].list_cases() for length in lengths_ms]
            random.Random(round_number).shuffle(visits)
            for case, length in visits:
                for worker in workers:
                    worker.request({"request": "setup", "case": case, "sample_ns": int(length * 1_000_000)})
                label = f"{case['suite']}/{case['benchmark']}/{case['variant']} threads:{case['threads']} {case['params']}"
                for pair in range(pairs):
                    values = {}
                    for worker in (workers if pair % 2 == 0 else workers[::-1]):
                        record = worker.request({"request": "sample", "samples": 1, "warmup": WARMUP_SAMPLES})
                        values[worker.name] = float(record["records"][0]["ns_per_op"])
                    found.setdefault((label.strip(), length), []).append((values["A"], values["B"]))
                for worker in workers:
                    worker.request({"request": "teardown"})
        finally:
            for worker in workers:
                worker.kill()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench_commits.pairing_noise", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", help="a release build of bench")
    parser.add_argument("--filter", required=True, help="bench --filter: keep it to a few cases")
    parser.add_argument("--threads", default="1", help="bench --threads (default 1)")
    parser.add_argument("--lengths", default="1,2,4,8", help="sample lengths in ms, comma-separated")
    parser.add_argument("--pairs", type=int, default=24, help="pairs per case, length and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of fresh workers")
    args = parser.parse_args(argv)
    lengths = [float(text) for text in args.lengths.split(",")]
    found = measure(args.binary, ["--filter", args.filter, "--threads", args.threads], lengths, args.pairs,
                    args.rounds, Path(tempfile.gettempdir()) / "pairing-noise-workers.log")
    print("| case | sample ms | pairs | sd of log(B/A), pairs | sd, random pairings |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for (label, length), values in sorted(found.items()):
        result = spreads(values)
        if result:
            print(f"| {label} | {length:g} | {len(values)} | {100 * result[0]:.1f}% | {100 * result[1]:.1f}% |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
