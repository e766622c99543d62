"""``analyze history``'s trend charts: per benchmark, each case's series over the runs (timing medians with their
interquartile bars; counts exact), every change point marked on its case's panel (change_points_text.chart_mark).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from ..files.model import Case, CaseKey, CountsFile, ResultsFile, filter_cases, format_params
from ..judge.change_points import ALLOCATIONS_PER_OP, COUNT_VALUES, INSTRUCTIONS_PER_OP, NS_PER_OP
from ..judge.stats import quartiles
from ..judge.summary import case_median
from .change_points_text import Numbered, Subjects, chart_mark
from .charts import Axes, Mark, Panel, draw_figure, make_series
from .figures import FigureBudget

STEM = "history"


def run_label(index: int, run: ResultsFile | CountsFile) -> str:
    """A run as history names it: its number (from 1, oldest first) and commit."""
    return f"{index + 1}: {run.commit_label}"


@dataclass(frozen=True)
class Trend:
    """One kind of trend chart: its metric (judge.change_points' name, also the y label), a case's point in one run
    as (median, low, high), and, when not None, the only (suite, benchmark) pairs it draws."""
    metric: str
    point: Callable[[Any], tuple[float, float, float]]
    benchmarks: frozenset[tuple[str, str]] | None = None

    def stem(self, suite: str, benchmark: str) -> str:
        """``history-once-hit`` for timing, ``history-instructions-once-hit`` for a count."""
        kind = "" if self.metric == NS_PER_OP else f"-{self.metric.split('/')[0]}"
        return f"{STEM}{kind}-{suite}-{benchmark}".replace("/", "-")


def _timing_point(case: Case) -> tuple[float, float, float]:
    return (case_median(case), *quartiles(case.ns_per_op))


def _count_trend(metric: str, benchmarks: frozenset[tuple[str, str]] | None = None) -> Trend:
    def point(case: Any) -> tuple[float, float, float]:
        value = COUNT_VALUES[metric](case)
        return value, value, value
    return Trend(metric, point, benchmarks)


def _charts(runs: Sequence[ResultsFile] | Sequence[CountsFile], out_dir: Path, pattern, trend: Trend,
            budget: FigureBudget, marks: dict[tuple[CaseKey, str], list[Mark]]) -> list[tuple[str, str]]:
    """Draw one figure per benchmark (a panel per threads/params, a line per variant, its cases' change points
    marked), split and capped by ``budget``; return (file name, alt text) of each drawn."""
    points: dict[tuple[str, str], dict[tuple, dict[str, list[tuple[int, Any]]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list)))
    for index, run in enumerate(runs):
        for key, case in filter_cases(run.cases, pattern).items():
            if trend.benchmarks is None or (key.suite, key.benchmark) in trend.benchmarks:
                points[(key.suite, key.benchmark)][(key.threads, key.params)][key.variant].append((index, case))
    ticks = tuple((float(i), run_label(i, r)) for i, r in enumerate(runs))
    timing = trend.metric == NS_PER_OP
    figures = []
    for (suite, benchmark), panels_data in sorted(points.items()):
        panels = []
        for (threads, params), variants in sorted(
                panels_data.items(), key=lambda kv: CaseKey("", "", "", kv[0][0], kv[0][1]).sort_key()):
            series = tuple(make_series(variant, [(float(i), *trend.point(c)) for i, c in seen])
                           for variant, seen in sorted(variants.items()))
            panel_marks = tuple(mark for variant in sorted(variants) for mark in
                                marks.get((CaseKey(suite, benchmark, variant, threads, params), trend.metric), ()))
            title = f"threads:{threads}" + (f" {format_params(params)}" if params else "")
            panels.append(Panel(title, series, panel_marks))
        title = f"{suite}/{benchmark}: {trend.metric} by run" + (" (median, IQR bars)" if timing else "")
        for figure in budget.split(trend.stem(suite, benchmark), title, panels):
            draw_figure(out_dir / figure.filename, figure.title, list(figure.panels),
                        Axes("run", trend.metric, x_ticklabels=ticks))
            figures.append((figure.filename, f"{suite}/{benchmark}" + ("" if timing else f" {trend.metric}")))
    return figures


def all_charts(runs: list[ResultsFile], counts: list[CountsFile], out_dir: Path, pattern,
               numbered: list[Numbered], subjects: Subjects) -> tuple[list[tuple[str, str]], FigureBudget]:
    """The timing charts, then the instructions/op charts, then the allocations/op charts of the benchmarks whose
    allocations shifted; each change point marked on its case's panel. Returns the figures drawn and the budget
    (which says what it left out)."""
    marks: dict[tuple[CaseKey, str], list[Mark]] = defaultdict(list)
    for numbered_point in numbered:
        marks[(numbered_point.point.key, numbered_point.point.metric)].append(chart_mark(numbered_point, subjects))
    budget = FigureBudget()
    figures = _charts(runs, out_dir, pattern, Trend(NS_PER_OP, _timing_point), budget, marks)
    moved = frozenset((n.point.key.suite, n.point.key.benchmark) for n in numbered
                      if n.point.metric == ALLOCATIONS_PER_OP)
    if counts:
        figures += _charts(counts, out_dir, pattern, _count_trend(INSTRUCTIONS_PER_OP), budget, marks)
    if counts and moved:
        figures += _charts(counts, out_dir, pattern, _count_trend(ALLOCATIONS_PER_OP, moved), budget, marks)
    return figures, budget
