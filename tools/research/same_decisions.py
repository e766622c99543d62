"""Whether two runs of one build take the same decisions: an adaptive default run against a forced
``--rounds 10`` run (issue 64), judged as the report judges each of them.

    .venv/bin/python tools/research/same_decisions.py ADAPTIVE.csv FORCED.csv [--stress STRESS.csv]

Both files are decided by the report's own rule (judge/decisions.py ``decide``, with each run's own CPU share
and, given a stress file, its failures). For every situation both runs decided, it prints whether:

- the **use** pick is the same, or else the two picks' intervals overlap: the range of each pick's round medians
  in the adaptive run (the interval the stopping rule reads) overlaps the other pick's, so the two runs could not
  tell them apart;
- the **avoid** lists are the same, or every variant in only one of them has overlapping intervals with 3× the
  pick's in that run (it stood on the line);
- the **disqualified** lists are the same.

It prints one line per situation that differs, then the counts and shares, and exits 0 (it measures; it does not
judge). Agreement is the issue's bar: the same pick in at least 95% of situations, or overlapping intervals.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

# The product's modules (analyze_lib) live in scripts/; this tool stands beside it.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from analyze_lib.files.loader import load_results, load_stress  # noqa: E402 (needs the path above)
from analyze_lib.files.model import Case, ResultsFile  # noqa: E402
from analyze_lib.judge.conditions import run_conditions  # noqa: E402
from analyze_lib.judge.decisions import AVOID_FACTOR, Decision, decide  # noqa: E402
from analyze_lib.judge.stats import split_by_round  # noqa: E402
from analyze_lib.judge.stress import judge_stress, stress_failures  # noqa: E402


def round_range(case: Case) -> tuple[float, float]:
    """The range of the case's round medians: the interval the stopping rule reads."""
    medians = [float(np.median(group)) for group in split_by_round(case.ns_per_op, case.round_ids) if len(group)]
    return min(medians), max(medians)


def overlap(one: tuple[float, float], other: tuple[float, float]) -> bool:
    return one[0] <= other[1] and other[0] <= one[1]


@dataclass(frozen=True)
class Agreement:
    """One situation decided by both runs: whether each of its three answers agrees, and how."""
    situation: str
    same_use: bool
    use_overlap: bool
    same_avoid: bool
    avoid_on_line: bool
    same_disqualified: bool
    # Whether a variant the two runs answer differently about got fewer rounds than the cap in the adaptive run:
    # only then can the stopping rule have caused the difference (both at the cap, the runs simply differ).
    stopped_early: bool = False

    @property
    def use_agrees(self) -> bool:
        return self.same_use or self.use_overlap

    @property
    def avoid_agrees(self) -> bool:
        return self.same_avoid or self.avoid_on_line


def _decisions(results: ResultsFile, failed) -> dict[str, Decision]:
    conditions = run_conditions(results)
    return {f"{d.suite}/{d.benchmark} {d.situation}": d
            for d in decide(results.cases, results.logical_cpus, cpu_share=conditions.cpu_share,
                            floor=conditions.floor, failed=failed)}


def _case(results: ResultsFile, decision: Decision, variant: str) -> Case | None:
    """``variant``'s case in ``decision``'s situation of ``results`` (the situation's key with its variant)."""
    keys = [s.key for s in (decision.use, decision.runner_up, *decision.avoid,
                            *(x.standing for x in decision.disqualified)) if s is not None and s.key is not None]
    if not keys:
        return None
    return results.cases.get(replace(keys[0], variant=variant))


def compare(adaptive: ResultsFile, forced: ResultsFile, failed=None) -> list[Agreement]:
    """Every situation both runs decided, with how their answers agree."""
    failed = failed or {}
    ours, theirs = _decisions(adaptive, failed), _decisions(forced, failed)
    agreements = []
    for name in sorted(ours.keys() & theirs.keys()):
        a, f = ours[name], theirs[name]
        a_use = a.use.variant if a.use else None
        f_use = f.use.variant if f.use else None
        use_overlap = False
        if a_use and f_use and a_use != f_use:
            one, other = _case(adaptive, a, a_use), _case(adaptive, a, f_use)
            use_overlap = one is not None and other is not None and overlap(round_range(one), round_range(other))
        a_avoid, f_avoid = {s.variant for s in a.avoid}, {s.variant for s in f.avoid}
        on_line = True
        for variant, (run, decision) in [(v, (adaptive, a)) for v in a_avoid - f_avoid] + \
                                        [(v, (forced, f)) for v in f_avoid - a_avoid]:
            pick, case = (_case(run, decision, decision.use.variant) if decision.use else None,
                          _case(run, decision, variant))
            if pick is None or case is None:
                on_line = False
                continue
            low, high = round_range(pick)
            on_line &= overlap(round_range(case), (AVOID_FACTOR * low, AVOID_FACTOR * high))
        a_out, f_out = {x.standing.variant for x in a.disqualified}, {x.standing.variant for x in f.disqualified}
        differing = ({a_use, f_use} - {None} if a_use != f_use else set()) | (a_avoid ^ f_avoid) | (a_out ^ f_out)
        cap = adaptive.run.get("run_rounds") or 0
        early = any(case.round_count < cap for case in (_case(adaptive, a, v) for v in differing) if case is not None)
        agreements.append(Agreement(name, a_use == f_use, use_overlap, a_avoid == f_avoid, on_line, a_out == f_out,
                                    early))
    return agreements


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("adaptive", type=Path)
    parser.add_argument("forced", type=Path)
    parser.add_argument("--stress", type=Path, help="a stress file whose failures both runs disqualify")
    args = parser.parse_args(argv)
    failed = stress_failures(judge_stress(load_stress(args.stress).results)) if args.stress else None
    agreements = compare(load_results(args.adaptive), load_results(args.forced), failed)
    for a in agreements:
        if not (a.same_use and a.same_avoid and a.same_disqualified):
            print(f"{a.situation}: use {'same' if a.same_use else 'overlapping' if a.use_overlap else 'DIFFERENT'}, "
                  f"avoid {'same' if a.same_avoid else 'on the line' if a.avoid_on_line else 'DIFFERENT'}, "
                  f"disqualified {'same' if a.same_disqualified else 'DIFFERENT'}; "
                  + ("a variant that differs stopped early" if a.stopped_early
                     else "every variant that differs ran to the cap"))
    n = len(agreements)
    if not n:
        print("no situation decided by both runs")
        return 0
    for label, count in (("same use pick", sum(a.same_use for a in agreements)),
                         ("use pick same or intervals overlap", sum(a.use_agrees for a in agreements)),
                         ("same avoid list", sum(a.same_avoid for a in agreements)),
                         ("avoid list same or on the line", sum(a.avoid_agrees for a in agreements)),
                         ("same disqualified list", sum(a.same_disqualified for a in agreements)),
                         ("differing where a variant stopped early",
                          sum(a.stopped_early for a in agreements
                              if not (a.same_use and a.same_avoid and a.same_disqualified)))):
        print(f"{label}: {count} of {n} situations ({count / n:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
