"""How often ``analyze history`` finds a change point in a series of runs of unchanged code (its false-alarm rate),
and how often it finds a planted shift where it was planted: A/A series drawn from a model or from real runs.

    .venv/bin/python tools/research/change_point_aa.py --model 10000 [--points 12] [--seed 1] \
        [--plant 1.3 --at 6] [--threshold 5]
    .venv/bin/python tools/research/change_point_aa.py RUN.csv[,RUN2.csv] ... [--points 12] [--plant 1.3 --at 6]

A series is what history judges: one level per run, oldest first, passed to ``timing_shifts`` at the threshold
given (default: compare's, 5%). A change point found in a series without a plant is a false alarm; the rate is the
share of series with at least one.

``--model N`` draws N series of each kind, every point independent and of one distribution: log-normal with a
spread (CV) of 2% and of 10%, heavy-tailed (Student's t with 3 degrees of freedom, scale 3%, on the logarithm), and
two levels (each point, with chance 0.2, 1.3x higher; spread 2%).

A results file stands for several runs: each case gives one series of its first ``--points`` pseudo-runs, a round
each (its samples' median) when the case has rounds, else a sample each. Files joined by commas give each case the
pseudo-runs of the first, then of the next (the two sides of a paired comparison of one commit with itself). Cases
with fewer pseudo-runs, or a starved one, are left out. Pseudo-runs are processes (or samples) of one build, so
they have no shift to find; samples of one process share its state, so their series show what moved within it.

After the files, it prints how many false change points they had in all, and the benchmarks (at a thread count)
that had the most.

``--plant F --at K`` multiplies every series' points from index K on by F: a change point found at K is the plant
seen, and any other (one run off, or a second) is still counted as a false alarm. ``--candidate-penalty`` sets
ruptures' penalty for proposing a candidate (judge.change_points.CANDIDATE_PENALTY) for the whole measurement.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# The product's modules (analyze_lib) live in scripts/; this tool stands beside it.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from analyze_lib.files.loader import load_results  # noqa: E402 (needs the path above)
from analyze_lib.judge import change_points  # noqa: E402
from analyze_lib.judge.change_points import timing_shifts  # noqa: E402
from analyze_lib.judge.compare import DEFAULT_THRESHOLD_PERCENT  # noqa: E402
from analyze_lib.judge.summary import rounds_of  # noqa: E402

# The model's kinds: name -> a function of (rng, points) that draws one series of levels around 1.
MODEL_KINDS = {
    "lognormal-2%": lambda rng, n: np.exp(rng.normal(0.0, 0.02, n)),
    "lognormal-10%": lambda rng, n: np.exp(rng.normal(0.0, 0.10, n)),
    "heavy-tailed-t3": lambda rng, n: np.exp(0.03 * rng.standard_t(3, n)),
    "two-levels-1.3x": lambda rng, n: np.exp(rng.normal(0.0, 0.02, n) + np.log(1.3) * (rng.random(n) < 0.2)),
}


@dataclass(frozen=True)
class Tally:
    """What the series of one source gave: how many there were, how many had a change point not planted, and how
    many had one at the plant; and, when the series were labelled, how many false ones each label's series had."""

    series: int
    false: int
    planted_found: int
    where: Counter[str]


def judge(series: list[np.ndarray], threshold: float, plant: float, at: int,
          labels: list[str] | None = None) -> Tally:
    """Every series judged as history judges it, after the plant (a factor of 1: none)."""
    false = found = 0
    where: Counter[str] = Counter()
    for index, levels in enumerate(series):
        planted = levels.copy()
        planted[at:] *= plant
        shifts = [shift.at for shift in timing_shifts(planted, threshold)]
        wrong = [point for point in shifts if point != at or plant == 1.0]
        false += bool(wrong)
        found += plant != 1.0 and at in shifts
        if labels is not None:
            where[labels[index]] += len(wrong)
    return Tally(len(series), false, found, where)


def model_series(kind: str, count: int, points: int, rng: np.random.Generator) -> list[np.ndarray]:
    """``count`` series of ``points`` levels of one model kind."""
    return [100.0 * MODEL_KINDS[kind](rng, points) for _ in range(count)]


def file_series(paths: list[Path], points: int) -> list[np.ndarray]:
    """Each case's first ``points`` pseudo-runs (rounds or samples), from the files in turn; see the module's doc."""
    return [series for _, series in labelled_file_series(paths, points)]


def labelled_file_series(paths: list[Path], points: int) -> list[tuple[str, np.ndarray]]:
    """file_series, each series with its case's ``suite/benchmark threads:N``."""
    runs = [load_results(path) for path in paths]
    series = []
    for key in runs[0].cases:
        levels: list[float] = []
        for run in runs:
            case = run.cases.get(key)
            if case is None:
                continue
            groups = rounds_of(case)
            levels += [float(np.median(g)) for g in groups] if len(groups) > 1 else [float(v) for v in case.ns_per_op]
        chosen = np.array(levels[:points])
        if chosen.size == points and np.all(np.isfinite(chosen)) and np.all(chosen > 0):
            series.append((f"{key.suite}/{key.benchmark} threads:{key.threads}", chosen))
    return series


def _line(name: str, tally: Tally, plant: float) -> str:
    text = (f"{name}: {tally.series} series; with a false change point: {tally.false} "
            f"({100 * tally.false / max(tally.series, 1):.2f}%)")
    if plant != 1.0:
        share = 100 * tally.planted_found / max(tally.series, 1)
        text += f"; the plant found where planted: {tally.planted_found} ({share:.1f}%)"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="*", help="results files (a comma joins files into one series a case)")
    parser.add_argument("--model", type=int, default=0, metavar="N", help="N model series of each kind")
    parser.add_argument("--points", type=int, default=12, help="points a series (default 12)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD_PERCENT,
                        help=f"history's --threshold, in percent (default {DEFAULT_THRESHOLD_PERCENT:g})")
    parser.add_argument("--plant", type=float, default=1.0, help="the factor planted (default 1: none)")
    parser.add_argument("--at", type=int, default=6, help="the first point of the planted level (default 6)")
    parser.add_argument("--candidate-penalty", type=float, default=change_points.CANDIDATE_PENALTY,
                        help=f"ruptures' penalty for a candidate (default {change_points.CANDIDATE_PENALTY:g})")
    args = parser.parse_args(argv)
    change_points.CANDIDATE_PENALTY = args.candidate_penalty
    if not args.runs and not args.model:
        parser.error("give results files, --model N, or both")
    rng = np.random.default_rng(args.seed)
    for kind in MODEL_KINDS if args.model else ():
        tally = judge(model_series(kind, args.model, args.points, rng), args.threshold, args.plant, args.at)
        print(_line(f"model {kind}", tally, args.plant), flush=True)
    where: Counter[str] = Counter()
    for joined in args.runs:
        labelled = labelled_file_series([Path(text) for text in joined.split(",")], args.points)
        tally = judge([series for _, series in labelled], args.threshold, args.plant, args.at,
                      [label for label, _ in labelled])
        where += tally.where
        print(_line(joined, tally, args.plant), flush=True)
    if where:
        print(f"false change points in the files, {sum(where.values())} in all; most, by benchmark and threads: "
              + ", ".join(f"{label} {count}" for label, count in where.most_common(8)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
