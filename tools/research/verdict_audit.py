"""Whether a run's verdicts are ones an expert would sign (issue 73), from one timing file: the label counts and
the unclear cases (at one thread too), every disqualified variant with the samples its reason rests on, the host's
steal, and whether code that cannot starve nor be unfair (the controls and the lock-free once hits) looked so in any
sample the host did not spoil.

    .venv/bin/python tools/research/verdict_audit.py RESULTS.csv

Everything is judged by the report's own rules (judge/decisions.py, judge/diagnosis.py, judge/evidence.py) with the
run's own CPU share and controls. Markdown on stdout; it measures nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from analyze_lib.files.loader import load_results  # noqa: E402 (needs the path above)
from analyze_lib.files.model import ResultsFile  # noqa: E402
from analyze_lib.judge.conditions import run_conditions  # noqa: E402
from analyze_lib.judge.decisions import disqualified_anywhere  # noqa: E402
from analyze_lib.judge.diagnosis import UNCLEAR, diagnose  # noqa: E402
from analyze_lib.judge.evidence import CONTROLS, FAIRNESS_MIN, spoiled  # noqa: E402

# Code that cannot starve nor be unfair: the controls, and the once hits that take no lock (an atomic load, a
# `static let`, dispatch_once's and pthread_once's fast paths).
LOCK_FREE = CONTROLS | {("once", "hit", variant) for variant in
                        ("atomic-flag", "lazy-static", "dispatch-once", "dispatch-once-inline", "pthread-once")}


def _column(case, name: str) -> np.ndarray:
    values = case.columns.get(name)
    return np.full(case.n, np.nan) if values is None else np.asarray(values, dtype=float)


def audit(results: ResultsFile) -> list[str]:
    """The audit's parts in Markdown lines."""
    cases, cpus = results.cases, results.logical_cpus
    conditions = run_conditions(results)
    share, floor = conditions.cpu_share, conditions.floor
    found = diagnose(cases, cpus, share, floor=floor)
    labels = Counter(d.label for d in found.values())
    unclear = [d for d in found.values() if d.label == UNCLEAR]
    lines = [f"## Labels ({len(found)} cases)", "", ", ".join(f"{n} {label}" for label, n in labels.most_common()),
             "", f"Unclear: {len(unclear)} of {len(found)} ({len(unclear) / max(len(found), 1):.1%}), "
             f"{sum(d.key.threads == 1 for d in unclear)} at 1 thread.", ""]
    lines += [f"- `{d.key.label}`" for d in sorted(unclear, key=lambda d: d.key.sort_key())]
    lines += ["", "## Disqualified (the reason of each variant, with where it held)", ""]
    for (suite, variant), reason in sorted(disqualified_anywhere(cases, cpus, cpu_share=share, floor=floor).items()):
        lines.append(f"- `{suite}/{variant}`: {reason}")
    lines += ["", "## Chance", "", f"Controls: a thread at zero in {floor.starved.looked} of {floor.starved.samples} "
              f"samples; below {FAIRNESS_MIN:g} of the busiest in {floor.unfair.looked} of {floor.unfair.samples}.", ""]
    steal = np.concatenate([_column(c, "steal_ns") for c in cases.values()])
    spoilt = sum(int(spoiled(c).sum()) for c in cases.values())
    total = sum(c.n for c in cases.values())
    recorded = np.isfinite(steal)
    lines += ["## The host", "", f"Samples with a steal figure: {int(recorded.sum())} of {total}; with any steal: "
              f"{int((steal[recorded] > 0).sum())}; spoiled (at least the share the rule states): {spoilt}; steal "
              f"in all: {np.nansum(steal) / 1e6:.0f} ms.", ""]
    lines += ["## Code that cannot starve nor be unfair, sample by sample", ""]
    lines += ["| case | threads | samples | a thread at zero | below 0.5 of the busiest | below the fairness line "
              "| of those, spoiled |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for key in sorted(cases, key=lambda k: k.sort_key()):
        if (key.suite, key.benchmark, key.variant) not in LOCK_FREE or not 1 < key.threads <= cpus:
            continue
        case = cases[key]
        fewest, most = _column(case, "thread_ops_min"), _column(case, "thread_ops_max")
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(most > 0, fewest / np.where(most > 0, most, 1), 0.0)
        zero, half, line = fewest == 0, ratio < 0.5, ratio < FAIRNESS_MIN
        bad = zero | line
        lines.append(f"| `{key.filter_name}` {key.params_text} | {key.threads} | {case.n} | {int(zero.sum())} | "
                     f"{int(half.sum())} | {int(line.sum())} | {int((bad & spoiled(case)).sum())} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path)
    args = parser.parse_args(argv)
    sys.stdout.write("\n".join(audit(load_results(args.results))) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
