"""``analyze history``: trends over many runs and the steps between consecutive ones.

Runs are ordered by started_at; a step is a pair of consecutive runs of a case whose
comparison is a change by the gate's rule (``analyze compare``): the cases compared between
the same two runs are decided together, as the gate decides one comparison.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from .charts import Axes, Panel, draw_figure, make_series
from ..judge.comparable import run_warnings
from ..judge.compare import CompareRow, compare
from .doc import Bullets, Heading, Image, Paragraph, Table, to_markdown
from ..files.errors import AnalyzeError
from .figures import FigureBudget
from ..files.model import Case, CaseKey, ResultsFile, filter_cases, format_params
from ..files.output import atomic_directory
from ..fmt import fmt_ci, fmt_head_base_ratio, fmt_ns, fmt_p
from ..judge.stats import quartiles
from ..judge.summary import case_median
from .outcome_text import outcome_text

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


def order_runs(runs: list[ResultsFile]) -> list[ResultsFile]:
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


def _run_label(index: int, run: ResultsFile) -> str:
    return f"{index + 1}: {run.commit_label}"


def _charts(runs: list[ResultsFile], out_dir: Path, pattern) -> tuple[list[tuple[str, str]], FigureBudget]:
    """Draw one figure per benchmark (a panel per threads/params, a line per variant),
    split and capped by a FigureBudget."""
    points: dict[tuple[str, str], dict[tuple, dict[str, list[tuple[int, Case]]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list)))
    for index, run in enumerate(runs):
        for key, case in filter_cases(run.cases, pattern).items():
            points[(key.suite, key.benchmark)][(key.threads, key.params)][key.variant].append((index, case))
    ticks = tuple((float(i), _run_label(i, r)) for i, r in enumerate(runs))
    figures, budget = [], FigureBudget()
    for (suite, benchmark), panels_data in sorted(points.items()):
        panels = []
        for (threads, params), variants in sorted(
                panels_data.items(), key=lambda kv: CaseKey("", "", "", kv[0][0], kv[0][1]).sort_key()):
            series = []
            for variant, seen in sorted(variants.items()):
                points = [(float(i), case_median(c), *quartiles(c.ns_per_op)) for i, c in seen]
                series.append(make_series(variant, points))
            title = f"threads:{threads}" + (f" {format_params(params)}" if params else "")
            panels.append(Panel(title, tuple(series)))
        stem = f"history-{suite}-{benchmark}".replace("/", "-")
        title = f"{suite}/{benchmark}: ns/op by run (median, IQR bars)"
        for figure in budget.split(stem, title, panels):
            draw_figure(out_dir / figure.filename, figure.title, list(figure.panels),
                        Axes("run", "ns/op", x_ticklabels=ticks))
            figures.append((figure.filename, f"{suite}/{benchmark}"))
    return figures, budget


def build_history(runs: list[ResultsFile], out_dir: Path, threshold: float, alpha: float,
                  pattern=None) -> list:
    """Draw the trend charts into ``out_dir`` and return history.md's blocks."""
    runs = order_runs(runs)
    steps = find_steps(runs, threshold, alpha, pattern)
    blocks: list = [
        Heading(1, "DispatchBench history"),
        Paragraph(f"{len(runs)} run(s), oldest first. A step is a significant change between two "
                  f"consecutive runs of a case: p < {alpha:g} (two-sided Mann-Whitney U) and a change "
                  f"of at least {threshold:g}%, the rule of `analyze compare`."),
        Heading(2, "Runs"),
        Table(("#", "Commit", "Date", "Host", "Build", "File"),
              tuple((str(i + 1), f"`{r.commit_label}`", f"{r.started_at:%Y-%m-%dT%H:%M:%SZ}",
                     r.run["host"], r.run["build"], f"`{r.path}`") for i, r in enumerate(runs)),
              "rlllll"),
    ]
    warnings = []
    for before, after in zip(runs, runs[1:]):
        names = (f"run {runs.index(before) + 1}", f"run {runs.index(after) + 1}")
        warnings += run_warnings(before, after, names)
    if warnings:
        blocks += [Paragraph("**Warnings:**"), Bullets(tuple(warnings))]
    blocks.append(Heading(2, "Steps"))
    if steps:
        blocks.append(Table(
            ("Case", "From", "To", "Before ns/op", "After ns/op", "Ratio", f"{(1 - alpha) * 100:g}% CI", "p",
             "Verdict"),
            tuple((f"`{s.key.label}`", _run_label(s.before, runs[s.before]), _run_label(s.after, runs[s.after]),
                   fmt_ns(s.row.base_median), fmt_ns(s.row.head_median), fmt_head_base_ratio(s.row.ratio),
                   fmt_ci(s.row.ci_low, s.row.ci_high), fmt_p(s.row.p_value), f"**{outcome_text(s.row)}**")
                  for s in steps),
            "lllrrrlrl"))
    else:
        blocks.append(Paragraph("No case stepped up or down." if len(runs) > 1
                                else "One run only: nothing to compare."))
    figures, budget = _charts(runs, out_dir, pattern)
    if figures:
        blocks.append(Heading(2, "Trends"))
        blocks += [Image(filename, alt) for filename, alt in figures]
    if budget.skipped_note():
        blocks.append(Paragraph(budget.skipped_note()))
    return blocks


def write_history(runs: list[ResultsFile], out_dir: Path, threshold: float, alpha: float,
                  pattern=None) -> Path:
    """Write history.md and the PNGs to ``out_dir`` atomically; return it."""
    if not any(filter_cases(r.cases, pattern) for r in runs):
        raise AnalyzeError("no case matches --filter in any of the runs")
    with atomic_directory(out_dir) as staging:
        blocks = build_history(runs, staging, threshold, alpha, pattern)
        (staging / HISTORY_MD).write_text(to_markdown(blocks), encoding="utf-8")
    return out_dir
