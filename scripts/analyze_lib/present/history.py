"""``analyze history``: trends over many runs, the steps between consecutive ones and the change points.

Runs are ordered by started_at, timing files and counts files (bench count) each in their own series. A step is a
pair of consecutive timing runs of a case whose comparison is a change by the gate's rule (``analyze compare``): the
cases compared between the same two runs are decided together, as the gate decides one comparison. A change point
is a run from which a case's series shifted and stayed (judge.change_points), marked on the case's chart with the
bisect command that would find its commit (change_points_text).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence, TypeVar

from .change_points_text import Subjects, change_point_blocks, number_points
from ..judge.change_points import count_change_points, timing_change_points
from ..judge.comparable import run_warnings
from ..judge.compare import CompareRow, compare
from ..judge.counts_compare import counts_warnings
from .doc import Bullets, Heading, Image, Paragraph, Table, to_markdown
from ..files.errors import AnalyzeError
from ..files.model import Case, CaseKey, CountsFile, ResultsFile, filter_cases
from ..files.output import atomic_directory
from ..fmt import fmt_ci, fmt_head_base_ratio, fmt_ns, fmt_p
from .history_charts import all_charts, run_label
from .outcome_text import outcome_text

RunT = TypeVar("RunT", ResultsFile, CountsFile)

HISTORY_DIR_NAME = "history"
HISTORY_MD = "history.md"
CSV_GLOB = "*.csv"


@dataclass(frozen=True)
class Step:
    """A significant change of one case between two consecutive runs that measured it."""
    key: CaseKey
    before: int  # index into the ordered runs
    after: int
    row: CompareRow


def collect_inputs(inputs: list[str]) -> list[Path]:
    """Expand the arguments: a directory stands for all its ``*.csv`` files (sorted).

    Raises AnalyzeError for a directory without CSV files. Missing files are left for
    the loader to report.
    """
    paths: list[Path] = []
    for text in inputs:
        path = Path(text)
        if path.is_dir():
            found = sorted(path.glob(CSV_GLOB))
            if not found:
                raise AnalyzeError(f"no {CSV_GLOB} files in this directory", path)
            paths.extend(found)
        else:
            paths.append(path)
    seen: set[Path] = set()
    unique = []
    for path in paths:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            unique.append(path)
    return unique


def default_history_dir(inputs: list[Path]) -> Path:
    """``<the first CSV's directory>/history/``: beside the runs, wherever it is run from (as a report lands
    beside its CSV)."""
    return inputs[0].parent / HISTORY_DIR_NAME


def order_runs(runs: Sequence[RunT]) -> list[RunT]:
    """Runs sorted by started_at (then path, so equal times are ordered stably)."""
    return sorted(runs, key=lambda r: (r.started_at, r.path))


def find_steps(runs: list[ResultsFile], threshold: float, alpha: float, pattern=None) -> list[Step]:
    """Every change between consecutive appearances of each case, by the gate's rule: the cases
    compared between the same two runs are decided together (``compare``), so a step is what
    ``analyze compare`` of those two runs would call slower or faster.

    ``runs`` must already be ordered; steps come out in case order, then time order.
    """
    appearances: dict[CaseKey, list[tuple[int, Case]]] = defaultdict(list)
    for index, run in enumerate(runs):
        for key, case in filter_cases(run.cases, pattern).items():
            appearances[key].append((index, case))
    # (before, after) -> the cases last measured in run ``before`` and next in run ``after``.
    pairs: dict[tuple[int, int], tuple[dict[CaseKey, Case], dict[CaseKey, Case]]] = defaultdict(lambda: ({}, {}))
    for key, seen in appearances.items():
        for (before, old), (after, new) in zip(seen, seen[1:]):
            pairs[(before, after)][0][key] = old
            pairs[(before, after)][1][key] = new
    steps = [Step(row.key, before, after, row)
             for (before, after), (old, new) in pairs.items()
             for row in compare(old, new, threshold, alpha) if row.changed]
    return sorted(steps, key=lambda step: (step.key.sort_key(), step.before))


def _runs_table(runs: Sequence[ResultsFile] | Sequence[CountsFile]) -> Table:
    return Table(("#", "Commit", "Date", "Host", "Build", "File"),
                 tuple((str(i + 1), f"`{r.commit_label}`", f"{r.started_at:%Y-%m-%dT%H:%M:%SZ}",
                        r.run["host"], r.run["build"], f"`{r.path}`") for i, r in enumerate(runs)),
                 "rlllll")


def _warnings(runs: list[ResultsFile], counts: list[CountsFile]) -> list[str]:
    """What differs between consecutive runs of each kind that could move their numbers by itself."""
    warnings = []
    for index, (before, after) in enumerate(zip(runs, runs[1:])):
        warnings += run_warnings(before, after, (f"run {index + 1}", f"run {index + 2}"))
    for index, (old, new) in enumerate(zip(counts, counts[1:])):
        warnings += counts_warnings(old, new, (f"counts run {index + 1}", f"counts run {index + 2}"))
    return warnings


def _steps_blocks(runs: list[ResultsFile], steps: list[Step], alpha: float) -> list:
    blocks: list = [Heading(2, "Steps")]
    if steps:
        blocks.append(Table(
            ("Case", "From", "To", "Before ns/op", "After ns/op", "Ratio", f"{(1 - alpha) * 100:g}% CI", "p",
             "Verdict"),
            tuple((f"`{s.key.label}`", run_label(s.before, runs[s.before]), run_label(s.after, runs[s.after]),
                   fmt_ns(s.row.base_median), fmt_ns(s.row.head_median), fmt_head_base_ratio(s.row.ratio),
                   fmt_ci(s.row.ci_low, s.row.ci_high), fmt_p(s.row.p_value), f"**{outcome_text(s.row)}**")
                  for s in steps),
            "lllrrrlrl"))
    else:
        blocks.append(Paragraph("No case stepped up or down." if len(runs) > 1
                                else "One run only: nothing to compare."))
    return blocks


def _no_subjects(commit: str) -> str | None:
    return None


def build_history(runs: list[ResultsFile], out_dir: Path, threshold: float, alpha: float,
                  pattern=None, counts: Sequence[CountsFile] = (), subjects: Subjects = _no_subjects) -> list:
    """Draw the trend charts into ``out_dir`` and return history.md's blocks. ``subjects`` gives a commit's
    subject line (None where unknown)."""
    runs, counts_runs = order_runs(runs), order_runs(counts)
    steps = find_steps(runs, threshold, alpha, pattern)
    numbered = number_points(timing_change_points(runs, threshold, pattern), runs,
                             count_change_points(counts_runs, pattern), counts_runs)
    kinds = f"{len(runs)} run(s)" + (f" and {len(counts_runs)} counts run(s)" if counts_runs else "")
    blocks: list = [
        Heading(1, "DispatchBench history"),
        Paragraph(f"{kinds}, oldest first. A step is a significant change between two "
                  f"consecutive runs of a case: p < {alpha:g} (two-sided Mann-Whitney U) and a change "
                  f"of at least {threshold:g}%, the rule of `analyze compare`."),
    ]
    if runs:
        blocks += [Heading(2, "Runs"), _runs_table(runs)]
    if counts_runs:
        blocks += [Heading(2, "Counts runs"), _runs_table(counts_runs)]
    warnings = _warnings(runs, counts_runs)
    if warnings:
        blocks += [Paragraph("**Warnings:**"), Bullets(tuple(warnings))]
    if runs:
        blocks += _steps_blocks(runs, steps, alpha)
    blocks += change_point_blocks(numbered, threshold, subjects)
    figures, budget = all_charts(runs, counts_runs, out_dir, pattern, numbered, subjects)
    if figures:
        blocks.append(Heading(2, "Trends"))
        blocks += [Image(filename, alt) for filename, alt in figures]
    if budget.skipped_note():
        blocks.append(Paragraph(budget.skipped_note()))
    return blocks


def write_history(runs: list[ResultsFile], out_dir: Path, threshold: float, alpha: float,
                  pattern=None, counts: Sequence[CountsFile] = (), subjects: Subjects = _no_subjects) -> Path:
    """Write history.md and the PNGs to ``out_dir`` atomically; return it."""
    if not any(filter_cases(r.cases, pattern) for r in (*runs, *counts)):
        raise AnalyzeError("no case matches --filter in any of the runs")
    with atomic_directory(out_dir) as staging:
        blocks = build_history(runs, staging, threshold, alpha, pattern, counts, subjects)
        (staging / HISTORY_MD).write_text(to_markdown(blocks), encoding="utf-8")
    return out_dir
