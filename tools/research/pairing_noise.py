"""How much pairing cancels the host's noise, per sample length and pairs a visit: an A/A measurement
for choosing ``--sample-time`` and ``--visit-pairs`` of a paired run.

    .venv/bin/python tools/research/pairing_noise.py .build/release/bench \\
        --filter '^harness/spin/' --threads 1 --lengths 1,2,4,8 --pairs 24 --rounds 3 [--visit-pairs 1,3] \\
        [--placement pinned | --cpus 0,0]

Two workers of one binary (A/A) measure every selected case at every sample length, in a shuffled
order per round (fresh workers every round), in pairs alternated ABBA, each sample after
``paired_plan.WARMUP_SAMPLES`` warm-up samples, as a paired run does. For each case and length it prints the spread
(standard deviation) of log(B/A) over the measured pairs and over random pairings of the same samples: the
smaller the first against the second, the more of the host's noise a pair shares, and the tighter a
paired comparison at that length. It also prints the spread of the rounds' median log(B/A), the
noise a paired run's rule reads (its rounds are its units), as it would be if a visit took only each
round's first k pairs, for each k of ``--visit-pairs``: where a case's noise is in its samples, not in
its worker processes, a round's median of more pairs spreads less. Threads are placed as a paired run
places them (``--placement``, default pinned: paired_plan.case_cpus and team_cpus); ``--cpus A,B``
instead confines worker A to CPU A and worker B to CPU B for the whole run (0,0: both on one CPU; 0,1:
each on its own).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

# The product's modules (bench_commits) live in scripts/; this tool stands beside it.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from bench_commits import paired_plan  # noqa: E402 (needs the path above)
from bench_commits.paired_plan import WARMUP_SAMPLES  # noqa: E402
from bench_commits.worker import Worker  # noqa: E402

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


def round_spread(pairs_by_round: list[list[tuple[float, float]]], visit_pairs: int | None = None) -> float | None:
    """The sd of the rounds' median log(b/a), of each round's first ``visit_pairs`` pairs when given (of all
    of them otherwise); None with fewer than 3 rounds holding a usable pair."""
    medians = [statistics.median(math.log(b / a) for a, b in pairs) for pairs in
               ([(a, b) for a, b in round_pairs[:visit_pairs] if 0 < a < math.inf and 0 < b < math.inf]
                for round_pairs in pairs_by_round) if pairs]
    return statistics.stdev(medians) if len(medians) >= 3 else None


def measure(binary: str, options: list[str], lengths_ms: list[float], pairs: int, rounds: int, log: Path,
            cpus: tuple[int, int] | None = None, placement: str = paired_plan.DEFAULT_PLACEMENT) -> dict:
    """{(case label, length ms): [[(a ns/op, b ns/op), ...] per round]} from ``rounds`` rounds of two
    fresh workers, each confined to its CPU of ``cpus`` when given, placed as ``placement`` places a
    paired run's threads otherwise."""
    found: dict = {}
    allowed = os.sched_getaffinity(0)
    for round_number in range(1, rounds + 1):
        workers = [Worker(name, [binary, *options, "worker"], Path.cwd(), log) for name in ("A", "B")]
        try:
            for worker, cpu in zip(workers, cpus or ()):
                worker.confine({cpu})
            visits = [(case, length) for case in workers[0].list_cases() for length in lengths_ms]
            random.Random(round_number).shuffle(visits)
            for case, length in visits:
                threads = int(case["threads"])
                team = None if cpus else paired_plan.team_cpus(threads, round_number, allowed, placement)
                for worker in workers:
                    if not cpus:
                        worker.confine(paired_plan.case_cpus(threads, round_number, allowed, placement))
                    worker.request({"request": "setup", "case": case, "sample_ns": int(length * 1_000_000),
                                    **({"team_cpus": team} if team else {})})
                label = (f"{case['suite']}/{case['benchmark']}/{case['variant']} threads:{case['threads']} "
                         f"{case['params']}")
                for pair in range(pairs):
                    values = {}
                    for worker in (workers if pair % 2 == 0 else workers[::-1]):
                        record = worker.request({"request": "sample", "samples": 1, "warmup": WARMUP_SAMPLES})
                        values[worker.name] = float(record["records"][0]["ns_per_op"])
                    by_round = found.setdefault((label.strip(), length), [[] for _ in range(rounds)])
                    by_round[round_number - 1].append((values["A"], values["B"]))
                for worker in workers:
                    worker.request({"request": "teardown"})
        finally:
            for worker in workers:
                worker.kill()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/research/pairing_noise.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", help="a release build of bench")
    parser.add_argument("--filter", required=True, help="bench --filter: keep it to a few cases")
    parser.add_argument("--threads", default="1", help="bench --threads (default 1)")
    parser.add_argument("--lengths", default="1,2,4,8", help="sample lengths in ms, comma-separated")
    parser.add_argument("--pairs", type=int, default=24, help="pairs per case, length and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of fresh workers")
    parser.add_argument("--visit-pairs", type=_counts, default=None, metavar="K,...",
                        help="also print the spread of the rounds' medians of each round's first K pairs "
                             "(default: of all --pairs)")
    parser.add_argument("--placement", choices=paired_plan.PLACEMENTS, default=paired_plan.DEFAULT_PLACEMENT,
                        help="place the threads as a paired run does (default %(default)s)")
    parser.add_argument("--cpus", type=_cpu_pair, metavar="A,B",
                        help="confine worker A to CPU A and worker B to CPU B instead (overrides --placement)")
    args = parser.parse_args(argv)
    lengths = [float(text) for text in args.lengths.split(",")]
    visit_pairs = args.visit_pairs or [args.pairs]
    found = measure(args.binary, ["--filter", args.filter, "--threads", args.threads], lengths, args.pairs,
                    args.rounds, Path(tempfile.gettempdir()) / "pairing-noise-workers.log", args.cpus, args.placement)
    print("| case | sample ms | pairs | sd of log(B/A), pairs | sd, random pairings | "
          + " | ".join(f"sd of round medians, {k} a visit" for k in visit_pairs) + " |")
    print("| --- | ---: | ---: | ---: | ---: |" + " ---: |" * len(visit_pairs))
    for (label, length), by_round in sorted(found.items()):
        values = [pair for pairs in by_round for pair in pairs]
        result = spreads(values)
        if result:
            between = [round_spread(by_round, k) for k in visit_pairs]
            rounds_text = " | ".join("–" if spread is None else f"{100 * spread:.1f}%" for spread in between)
            print(f"| {label} | {length:g} | {len(values)} | {100 * result[0]:.1f}% | {100 * result[1]:.1f}% "
                  f"| {rounds_text} |")
    return 0


def _counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"expected pair counts of 1 or more, comma-separated, not {text!r}")
    return counts


def _cpu_pair(text: str) -> tuple[int, int]:
    try:
        first, second = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected two CPU numbers, A,B, not {text!r}") from None
    return first, second


if __name__ == "__main__":
    raise SystemExit(main())
