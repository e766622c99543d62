"""How often the separate-run gate passes, flags or is inconclusive on identical code, and why: A/A comparisons
drawn by splitting one run's rounds into two halves.

    .venv/bin/python tools/research/aa_splits.py RUN.csv [RUN.csv ...] --splits 40 --alpha 0.01,0.001 [--seed 1] \
        [--plant 1.5 --plant-filter '^once/']

Each file is a run of one build with 2R rounds or more a case (``bench --rounds 20``). A split gives each case R of
its rounds at random as base and R others as head, renumbered 1..R, and the gate judges the two halves
(``build_comparison``, ``decide_gate`` at the default threshold). Rounds are fresh processes of the same binary, so
nothing changed: a case called is a false flag, and an inconclusive gate is one a user would have had to rerun.

It prints, per alpha, how the splits' gates ended, how many splits had a case called (marked ``[bimodal]`` for a
case in two levels, which its levels judge: level_change), and how many had a case not resolved whose
whole interval lay beyond the threshold: all of them (the rule until 2026-11-28) and those nearly called
(``NEAR_CALL_FACTOR``; the rule since). The splits of one run share its rounds, so they are not independent
A/As: the rate says how often the rule fires on this run's real noise, not a rate over runs.

``--plant F`` multiplies every ns/op of the head half by F in the cases whose label matches ``--plant-filter``:
then a planted case called slower is a change seen, and any other case called is still a false flag.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

# The product's modules (analyze_lib) live in scripts/; this tool stands beside it.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from analyze_lib.files.loader import load_results  # noqa: E402 (needs the path above)
from analyze_lib.files.model import Case, ResultsFile  # noqa: E402
from analyze_lib.files.schema import METRIC  # noqa: E402
from analyze_lib.judge.compare import build_comparison  # noqa: E402
from analyze_lib.judge.gate import decide_gate  # noqa: E402
from analyze_lib.judge.pass_evidence import interval_beyond  # noqa: E402


@dataclass(frozen=True)
class SplitOutcome:
    """One A/A split judged: the gate's exit code, the cases it called, and the cases not resolved whose whole
    interval lay beyond the threshold (``beyond``), of which ``nearly`` were nearly called."""

    exit_code: int
    called: tuple[str, ...]
    beyond: tuple[str, ...]
    nearly: tuple[str, ...]


def halves(run: ResultsFile, rng: np.random.Generator) -> tuple[ResultsFile, ResultsFile]:
    """Two files of R rounds a case from one of 2R or more: each case's rounds shuffled on their own, the first R
    as base and the next R as head, each renumbered 1..R in its original order."""
    size = min(case.round_count for case in run.cases.values()) // 2
    if size < 2:
        raise SystemExit(f"{run.path}: every case needs at least 4 rounds to split into two halves")
    base, head = {}, {}
    for key, case in run.cases.items():
        chosen = rng.permutation(np.unique(case.round_ids))[:2 * size]
        for side, picked in ((base, chosen[:size]), (head, chosen[size:])):
            picked = np.sort(picked)
            mask = np.isin(case.round_ids, picked)
            renumbered = np.searchsorted(picked, case.round_ids[mask]) + 1
            side[key] = Case(key, {column: values[mask] for column, values in case.columns.items()}, renumbered)
    run_of_halves = {**run.run, "run_rounds": size}
    return (replace(run, run=run_of_halves, cases=base, path=f"{run.path} (base half)"),
            replace(run, run=run_of_halves, cases=head, path=f"{run.path} (head half)"))


def planted(head: ResultsFile, factor: float, pattern: str) -> ResultsFile:
    """``head`` with every ns/op of the cases whose label matches ``pattern`` multiplied by ``factor``."""
    cases = {key: Case(key, {**case.columns, METRIC: case.ns_per_op * factor}, case.rounds)
             if re.search(pattern, key.label) else case for key, case in head.cases.items()}
    return replace(head, cases=cases)


def judge_split(base: ResultsFile, head: ResultsFile, alpha: float) -> SplitOutcome:
    """The gate on one split, at the default threshold."""
    comparison = build_comparison(base, head, alpha=alpha)
    decision = decide_gate(comparison)
    beyond = [row for row in comparison.rows if interval_beyond(row, comparison.threshold)]
    return SplitOutcome(decision.exit_code, tuple(row.key.label + (" [bimodal]" if row.bimodal else "")
                                                  for row in comparison.rows if row.changed),
                        tuple(row.key.label for row in beyond), tuple(row.key.label for row in beyond
                                                                      if row.nearly_called))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="results files of one build, 2R rounds or more a case")
    parser.add_argument("--splits", type=int, default=40, help="splits per file and alpha (default 40)")
    parser.add_argument("--alpha", default="0.01,0.001", help="comma-separated alphas (default 0.01,0.001)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plant", type=float, default=1.0, help="head's factor in the planted cases (default 1)")
    parser.add_argument("--plant-filter", default="$^", help="regex of the planted cases' labels (default none)")
    args = parser.parse_args(argv)
    alphas = [float(a) for a in args.alpha.split(",")]
    runs = [load_results(path) for path in args.runs]
    for alpha in alphas:
        rng = np.random.default_rng(args.seed)
        outcomes = []
        for run in runs:
            for _ in range(args.splits):
                base, head = halves(run, rng)
                outcomes.append(judge_split(base, planted(head, args.plant, args.plant_filter), alpha))
        exits = Counter(outcome.exit_code for outcome in outcomes)
        print(f"alpha {alpha}: {len(outcomes)} splits; gate exits {dict(sorted(exits.items()))}")
        false = [[c for c in o.called if not re.search(args.plant_filter, c.removesuffix(" [bimodal]"))]
                 for o in outcomes]
        print(f"  splits with a case not planted called (a false flag): {sum(bool(f) for f in false)}; a bimodal "
              f"one: {sum(any(c.endswith('[bimodal]') for c in f) for f in false)}")
        if args.plant != 1.0:
            seen = [len(o.called) - len(f) for o, f in zip(outcomes, false)]
            bimodal = sum(c.endswith("[bimodal]") for o, f in zip(outcomes, false) for c in o.called if c not in f)
            print(f"  planted cases called, per split: median {np.median(seen):g}, least {min(seen)}; bimodal ones "
                  f"called, in all splits: {bimodal}")
        print(f"  splits with a case not resolved wholly beyond the threshold: {sum(bool(o.beyond) for o in outcomes)}"
              f"; of them nearly called: {sum(bool(o.nearly) for o in outcomes)}")
        for label, count in Counter(label for o in outcomes for label in o.beyond).most_common(5):
            print(f"    beyond in {count} splits: {label}")
        for label, count in Counter(label for o in outcomes for label in o.called).most_common(5):
            print(f"    called in {count} splits: {label}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
