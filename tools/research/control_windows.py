"""The same-code control's rule (analyze_lib/judge/control.py) on the rounds of paired comparisons of identical code
(issue 61): in every window of ``CONTROL_ROUNDS`` consecutive rounds, which suites it finds moved (each a false
alarm, the code being identical), and, with every case of one suite planted ``k``× slower on the head side (each of
its cases' log ratios raised by log k in every round), in how many windows it finds that suite moved; and how many
single cases moved 1.5× or more the same way in every round of a window, which a rule that judged cases would call;
with ``--sizes``, how often random groups of that many cases, judged whatever their size, move.

    .venv/bin/python tools/research/control_windows.py BASE.csv HEAD.csv [BASE.csv HEAD.csv ...] [--plant 1.03 ...]
        [--sizes 1 2 5 ...]

Markdown on stdout; it measures nothing and judges only by the control's own rule.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
from pathlib import Path

# The product's modules (analyze_lib) live in scripts/; this tool stands beside it.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from analyze_lib.files.loader import load_results  # noqa: E402 (needs the path above)
from analyze_lib.judge.compare import paired_round_log_ratios  # noqa: E402
from analyze_lib.judge.control import MIN_CONTROL_CASES, SLOWER, suite_controls  # noqa: E402
from analyze_lib.files.model import CaseKey  # noqa: E402
from bench_commits.same_code import CONTROL_ROUNDS  # noqa: E402

PLANTS = (1.02, 1.03, 1.04, 1.05, 1.10)
# A single case's move that the counts of lone moves are taken at.
CASE_LINE = 1.5
# Random groups drawn per window for each size of --sizes.
DRAWS = 300


def windows(by_case: dict, size: int = CONTROL_ROUNDS) -> list[dict]:
    """The comparison cut into windows of ``size`` consecutive rounds (round ids 1, 2, …), whole windows only."""
    last = max((round_id for rounds in by_case.values() for round_id in rounds), default=0)
    return [{key: {r: v for r, v in rounds.items() if start <= r < start + size} for key, rounds in by_case.items()}
            for start in range(1, last - size + 2, size)]


def lone_moves(window: dict, line: float = 0.0) -> int:
    """How many cases of the window moved beyond ``line`` (CASE_LINE by default) the same way in every round."""
    bound = math.log(line or CASE_LINE)
    return sum(1 for rounds in window.values() if len(rounds) == CONTROL_ROUNDS and
               (all(v > bound for v in rounds.values()) or all(v < -bound for v in rounds.values())))


def planted(window: dict, suite: str, factor: float) -> dict:
    """The window with every case of ``suite`` ``factor``× slower on the head side."""
    return {key: ({r: v + math.log(factor) for r, v in rounds.items()} if key.suite == suite else rounds)
            for key, rounds in window.items()}


def pooled_alarms(cut: list[dict], size: int, draws: int, seed: int = 1) -> float:
    """The share of ``draws`` random groups of ``size`` cases per window (cases with every round of it) that the
    control's rule, judging any group however small, finds moved: how far the median of a few cases can be trusted."""
    rng = random.Random(seed)
    alarms = total = 0
    for window in cut:
        whole = [key for key, rounds in window.items() if len(rounds) == CONTROL_ROUNDS]
        for _ in range(draws if len(whole) >= size else 0):
            group = {CaseKey("drawn", "bench", f"v{index}", 1, ""): window[key]
                     for index, key in enumerate(rng.sample(whole, size))}
            alarms += sum(1 for control in suite_controls(group) if _judged_anyway(control).moved)
            total += 1
    return alarms / total if total else math.nan


def _judged_anyway(control):
    """The control as if its group were large enough to judge."""
    return dataclasses.replace(control, cases=max(control.cases, MIN_CONTROL_CASES))


def report(pairs: list[tuple[Path, Path]], plants: tuple[float, ...], sizes: tuple[int, ...] = ()) -> list[str]:
    cut = [window for base, head in pairs
           for window in windows(paired_round_log_ratios(load_results(base), load_results(head)))]
    suites = sorted({key.suite for window in cut for key in window})
    alarms = [(index, control.suite, control.moved, control.changes) for index, window in enumerate(cut, start=1)
              for control in suite_controls(window) if control.moved]
    lines = [f"{len(cut)} windows of {CONTROL_ROUNDS} rounds from {len(pairs)} comparison(s); suites: "
             f"{', '.join(suites)}", "", f"**False alarms:** {len(alarms)} of {len(cut) * len(suites)} suite-windows."]
    lines += [f"- window {index}: {suite} {moved} ({', '.join(f'{c:.3f}×' for c in changes)})"
              for index, suite, moved, changes in alarms]
    lines += ["", f"**Single cases** the same way beyond {CASE_LINE:g}× in every round of a window (why the control "
              f"calls none): {', '.join(str(lone_moves(window)) for window in cut)} of "
              f"{', '.join(str(len(window)) for window in cut)} cases, window by window."]
    lines += ["", "| planted (every case of the suite, head) | " + " | ".join(suites) + " |",
              "| ---: | " + " | ".join("---:" for _ in suites) + " |"]
    for factor in plants:
        found = [sum(1 for window in cut
                     if any(control.suite == suite and control.moved == SLOWER
                            for control in suite_controls(planted(window, suite, factor)))) for suite in suites]
        lines.append(f"| {factor:g}× | " + " | ".join(f"{n} of {len(cut)}" for n in found) + " |")
    if sizes:
        lines += ["", f"**Small groups** ({DRAWS} random draws a window, judged whatever their size):", "",
                  "| cases in the group | share found moved |", "| ---: | ---: |"]
        lines += [f"| {size} | {pooled_alarms(cut, size, DRAWS):.4f} |" for size in sizes]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="paired timing files, base then head, pair by pair")
    parser.add_argument("--plant", type=float, nargs="+", default=PLANTS, help=f"factors to plant (default {PLANTS})")
    parser.add_argument("--sizes", type=int, nargs="+", default=(),
                        help="also judge random groups of these many cases, whatever their size")
    args = parser.parse_args(argv)
    if len(args.files) % 2:
        parser.error("give the files in pairs: base then head")
    pairs = list(zip(args.files[::2], args.files[1::2]))
    sys.stdout.write("\n".join(report(pairs, tuple(args.plant), tuple(args.sizes))) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
