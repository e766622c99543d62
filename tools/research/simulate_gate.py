#!/usr/bin/env python3
"""Monte Carlo check of the gate's power and false-positive rate.

Draws base and head samples from log-normal noise (default CV 5%), with head slowed
down by a known factor, runs the real ``analyze_lib.judge.compare.compare`` on them and counts
how often each verdict comes out. Not a unit test: run it by hand and report the table.

    .venv/bin/python tools/research/simulate_gate.py --trials 2000 --seed 1
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

# The product's modules (analyze_lib) live in scripts/; this tool stands beside it.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from analyze_lib.judge.compare import (  # noqa: E402  (needs the path above)
    DEFAULT_ALPHA,
    DEFAULT_THRESHOLD_PERCENT,
    FASTER,
    SLOWER,
    compare,
)
from analyze_lib.judge.compare import UNSTABLE  # noqa: E402
from analyze_lib.files.model import Case, CaseKey  # noqa: E402

DEFAULT_TRIALS = 2000
DEFAULT_SEED = 1
DEFAULT_CV = 0.05
SAMPLE_SIZES = (15, 5)  # full mode, quick mode
SLOWDOWNS = (0.0, 0.10, 0.20, 0.50)
MEDIAN_NS = 100.0


def lognormal(rng: np.random.Generator, median: float, cv: float, n: int) -> np.ndarray:
    """n log-normal samples with the given median and coefficient of variation."""
    sigma = np.sqrt(np.log1p(cv * cv))
    return median * np.exp(rng.normal(0.0, sigma, n))


def simulate(n: int, slowdown: float, trials: int, cv: float, threshold: float, alpha: float,
             rng: np.random.Generator) -> dict[str, float]:
    """Fractions of trials called slower and faster for one (sample size, slowdown)."""
    base, head = {}, {}
    for trial in range(trials):
        key = CaseKey("sim", "gate", f"trial-{trial}", 1)
        base[key] = lognormal(rng, MEDIAN_NS, cv, n)
        head[key] = lognormal(rng, MEDIAN_NS * (1 + slowdown), cv, n)
    rows = compare(base, head, threshold, alpha)
    slower = sum(row.verdict == SLOWER for row in rows) / trials
    faster = sum(row.verdict == FASTER for row in rows) / trials
    return {"slower": slower, "faster": faster}


def simulate_rounds(rounds: int, n: int, shift_cv: float, slowdown: float, trials: int, cv: float,
                    threshold: float, alpha: float, rng: np.random.Generator) -> dict[str, float]:
    """Like simulate, with ``rounds`` processes a side, each at its own level (log-normal
    shift of CV ``shift_cv``): the fractions called slower when the samples are pooled as
    if from one process, and slower and unstable when judged by rounds."""
    pooled_base, pooled_head, base, head = {}, {}, {}, {}
    ids = np.repeat(np.arange(1, rounds + 1), n)
    for trial in range(trials):
        key = CaseKey("sim", "gate", f"trial-{trial}", 1)
        sides = []
        for factor in (1.0, 1 + slowdown):
            levels = lognormal(rng, MEDIAN_NS * factor, shift_cv, rounds)
            sides.append(np.concatenate([lognormal(rng, level, cv, n) for level in levels]))
        pooled_base[key], pooled_head[key] = sides
        base[key] = Case(key, {"ns_per_op": sides[0]}, ids)
        head[key] = Case(key, {"ns_per_op": sides[1]}, ids)
    pooled = compare(pooled_base, pooled_head, threshold, alpha)
    by_rounds = compare(base, head, threshold, alpha)
    return {"pooled slower": sum(r.verdict == SLOWER for r in pooled) / trials,
            "slower": sum(r.verdict == SLOWER for r in by_rounds) / trials,
            "faster": sum(r.verdict == FASTER for r in by_rounds) / trials,
            "unstable": sum(r.outcome == UNSTABLE for r in by_rounds) / trials}


def main_rounds(args) -> int:
    """Print the table of verdict rates with rounds: pooled (one-process rule) vs by rounds."""
    rng = np.random.default_rng(args.seed)
    print(f"{args.rounds} rounds of {SAMPLE_SIZES[0]} samples a side, round-level shift CV "
          f"{args.round_shift_cv:.0%}, sample noise CV {args.cv:.0%}, threshold {args.threshold:g}%, "
          f"alpha {args.alpha:g}, {args.trials} trials per row, seed {args.seed}")
    print()
    print("| True change | Pooled: called slower | By rounds: slower | faster | unstable |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for slowdown in SLOWDOWNS:
        rates = simulate_rounds(args.rounds, SAMPLE_SIZES[0], args.round_shift_cv, slowdown, args.trials,
                                args.cv, args.threshold, args.alpha, rng)
        change = f"+{slowdown:.0%}" if slowdown else "none"
        print(f"| {change} | {rates['pooled slower']:.1%} | {rates['slower']:.1%} | {rates['faster']:.1%} "
              f"| {rates['unstable']:.1%} |")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Print the table of verdict rates per sample size and true slowdown."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=DEFAULT_TRIALS, help="trials per row (default %(default)s)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="RNG seed (default %(default)s)")
    parser.add_argument("--cv", type=float, default=DEFAULT_CV, help="noise CV (default %(default)s)")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD_PERCENT)
    parser.add_argument("--alpha", type=float, default=DEFAULT_ALPHA)
    parser.add_argument("--rounds", type=int, default=0,
                        help="simulate this many rounds (processes) a side instead (default: off)")
    parser.add_argument("--round-shift-cv", type=float, default=0.04,
                        help="with --rounds: CV of each round's level (default %(default)s)")
    args = parser.parse_args(argv)
    if args.rounds:
        return main_rounds(args)
    rng = np.random.default_rng(args.seed)
    started = time.monotonic()
    print(f"log-normal noise CV {args.cv:.0%}, threshold {args.threshold:g}%, alpha {args.alpha:g}, "
          f"{args.trials} trials per row, seed {args.seed}")
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    print()
    print("| Samples/side | True change | Called slower | Called faster | No change |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for n in SAMPLE_SIZES:
        for slowdown in SLOWDOWNS:
            rates = simulate(n, slowdown, args.trials, args.cv, args.threshold, args.alpha, rng)
            unchanged = 1 - rates["slower"] - rates["faster"]
            change = f"+{slowdown:.0%}" if slowdown else "none"
            print(f"| {n} | {change} | {rates['slower']:.1%} | {rates['faster']:.1%} | {unchanged:.1%} |")
    print()
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
