"""How often the paired rule makes a false call on this runner's real noise, by the number of rounds: an
empirical null drawn from finished paired comparisons.

    .venv/bin/python tools/research/empirical_null.py BASE.csv HEAD.csv [BASE HEAD ...] \\
        --rounds 5,10 --comparisons 300 [--exclude '^harness/spin/'] [--seed 1]

For every case of the given paired files (pairs of base and head files, e.g. several comparisons of one
commit), it pools the medians of the case's rounds over all the comparisons. Then, for each R of
``--rounds``, it simulates ``--comparisons`` comparisons in which nothing changed: each case gets R of its
pooled round values, drawn without replacement, each with a random sign (a round of an unchanged case is as
likely to favour either build), and all cases are judged together by the paired rule (judge/paired.py:
``paired_evidence``, ``called_together`` at alpha, the 2% minimum effect). A call in such a comparison is a
false one. It prints, per R, how many comparisons had a false call and which cases were called.

``--exclude`` leaves out the cases of planted comparisons (whose harness/spin rows did change). Each of a
case's rounds is one value, whatever the pairs a round had: the rule's units are the rounds.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np

# The product's modules (analyze_lib) live in scripts/; this tool stands beside it.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from analyze_lib.argtypes import significance_level  # noqa: E402 (needs the path above)
from analyze_lib.files.loader import load_results  # noqa: E402
from analyze_lib.judge import paired as paired_rule  # noqa: E402
from analyze_lib.judge.compare import paired_samples  # noqa: E402


def pooled_round_values(files: list[tuple[Path, Path]], exclude: str | None = None) -> dict[str, np.ndarray]:
    """Each case's round medians of log(head / base), pooled over the comparisons, by case label; only the
    cases every comparison holds, and not those whose label matches ``exclude``."""
    pooled: dict[str, list[float]] = {}
    seen: Counter = Counter()
    for base_path, head_path in files:
        base, head = load_results(base_path).cases, load_results(head_path).cases
        for key in set(base) & set(head):
            label = key.label
            if exclude and re.search(exclude, label):
                continue
            base_pairs, head_pairs = paired_samples(base[key]), paired_samples(head[key])
            if base_pairs is None or head_pairs is None:
                raise SystemExit(f"{base_path} and {head_path} are not the files of a paired comparison")
            rounds = paired_rule.pair_log_ratios(base_pairs, head_pairs)
            pooled.setdefault(label, []).extend(float(np.median(d)) for d in rounds)
            seen[label] += 1
    return {label: np.array(values) for label, values in pooled.items() if seen[label] == len(files)}


def false_calls(values: dict[str, np.ndarray], rounds: int, rng: np.random.Generator, seed: int,
                alpha: float = paired_rule.DEFAULT_PAIRED_ALPHA, t_alone: bool = False) -> list[str]:
    """The cases the paired rule calls in one simulated unchanged comparison of ``rounds`` rounds a case
    (cases with fewer pooled rounds than that are left out of it); with ``t_alone``, the rule without its
    minimum of rounds."""
    labels = [label for label in sorted(values) if values[label].size >= rounds]
    ratios, p_values = [], []
    for index, label in enumerate(labels):
        drawn = rng.choice(values[label], rounds, replace=False) * rng.choice([-1.0, 1.0], rounds)
        rounds_of_case = [np.array([value]) for value in drawn]
        found = paired_rule.paired_evidence(rounds_of_case, cases=len(labels), alpha=alpha, seed=seed + index)
        ratios.append(found.ratio)
        # Without the minimum of rounds (paired_rule.MIN_CALL_ROUNDS): the rule as it was before it.
        p_values.append(paired_rule.t_test_p(math.log(found.ratio), found.se, found.rounds) if t_alone else found.p)
    floor = math.log1p(paired_rule.PAIRED_MIN_EFFECT_PERCENT / 100)
    return [label for label, ratio, called in zip(labels, ratios, paired_rule.called_together(p_values, alpha))
            if called and abs(math.log(ratio)) >= floor]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/research/empirical_null.py",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="BASE HEAD [BASE HEAD ...]: paired comparisons' files")
    parser.add_argument("--rounds", default="5,10", help="round counts to simulate, comma-separated (default 5,10)")
    parser.add_argument("--comparisons", type=int, default=300, help="simulated comparisons per round count")
    parser.add_argument("--exclude", help="a regular expression: leave out the cases whose label it matches")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--alpha", type=significance_level, default=paired_rule.DEFAULT_PAIRED_ALPHA,
                        help=f"the rule's significance level (default {paired_rule.DEFAULT_PAIRED_ALPHA:g})")
    parser.add_argument("--t-alone", action="store_true",
                        help=f"judge by Student's t alone, without the rule's minimum of "
                             f"{paired_rule.MIN_CALL_ROUNDS} rounds")
    args = parser.parse_args(argv)
    if len(args.files) % 2:
        parser.error("give the files in pairs: BASE HEAD [BASE HEAD ...]")
    pairs = list(zip(args.files[::2], args.files[1::2]))
    values = pooled_round_values(pairs, args.exclude)
    fewest = min(value.size for value in values.values())
    print(f"{len(values)} cases from {len(pairs)} comparison(s); at least {fewest} pooled rounds a case "
          f"(a case with fewer than R is left out at R); alpha {args.alpha:g}")
    for rounds in (int(r) for r in args.rounds.split(",")):
        rng = np.random.default_rng([args.seed, rounds])
        called: Counter = Counter()
        with_call = 0
        for number in range(args.comparisons):
            found = false_calls(values, rounds, rng, seed=number * len(values), alpha=args.alpha,
                                t_alone=args.t_alone)
            with_call += bool(found)
            called.update(found)
        print(f"{rounds} rounds: a false call in {with_call} of {args.comparisons} comparisons")
        for label, count in called.most_common():
            spread = np.percentile(values[label], [5, 25, 50, 75, 95])
            print(f"    {count}x {label}; its pooled rounds at 5/25/50/75/95%: "
                  + " ".join(f"{value:+.2f}" for value in spread))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
