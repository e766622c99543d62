"""Which charts a report draws: per benchmark, a figure against its swept param and one
against threads, their panels and series. Nothing is drawn here (see charts).

- Against the param with the most values (situations.x_param), at one thread and at
  the most threads that fit the CPUs, a panel per thread count and remaining params.
- Against threads, when the benchmark was measured at several thread counts (or has no
  param to sweep), a panel per param combination; oversubscribed counts are shaded.

A panel with a single x value is a row of dots, not a chart: its cases are in the tables.
Every title says which thread counts it shows.

Counts (``plan_counts_charts``): per benchmark of a counts file, instructions per op against
the same swept param (once/hit: tokens), a panel per thread count and remaining params, a
line per variant; a count is exact, so its points have no bars.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from .charts import Axes, Panel, Series, make_series
from .origin_marks import NO_ORIGINS, Origins, marked, variant_module
from .figures import FigureBudget, PanelSize
from ..files.model import Case, CaseCounts, CaseKey
from ..judge.headlines import SeedLine
from ..judge.situations import (
    FLOOR_SUITES,
    THREADS,
    chart_threads,
    constant_params,
    metric,
    params_label,
    threads_text,
    varying_params,
    x_param,
)
from ..judge.stats import quartiles
from ..judge.summary import case_median


@dataclass(frozen=True)
class ChartFigure:
    """One figure to draw, and the family (suite) whose section shows it."""
    suite: str
    filename: str
    title: str
    panels: tuple[Panel, ...]
    axes: Axes


def slug(text: str) -> str:
    """A file-name-safe lower-case form of ``text`` (``read_pct`` -> ``read-pct``)."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "x"


def _series(cases: list[Case], x_of) -> tuple[Series, ...]:
    by_variant: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        by_variant[case.key.variant].append(case)
    series = []
    for variant in sorted(by_variant):
        points = []
        for case in sorted(by_variant[variant], key=x_of):
            low, high = quartiles(case.ns_per_op)
            points.append((float(x_of(case)), case_median(case), low, high))
        series.append(make_series(variant, points))
    return tuple(series)


def _has_line(panel: Panel) -> bool:
    return len({x for s in panel.series for x in (*s.x, *s.starved_x)}) > 1


def _params_order(params: tuple) -> tuple:
    return CaseKey("", "", "", 1, params).sort_key()


def _subset(params: tuple, names) -> tuple:
    return tuple((k, v) for k, v in params if k in names)


def _title(suite: str, benchmark: str, cases: list[Case], what: str) -> str:
    constant = params_label(constant_params(cases))
    return f"{suite}/{benchmark}{f' ({constant})' if constant else ''}: {what}"


def benchmark_charts(suite: str, benchmark: str, cases: list[Case], logical_cpus: int,
                     budget: FigureBudget) -> list[ChartFigure]:
    """The figures of one benchmark (none for a benchmark with nothing to draw a line through)."""
    name = metric(suite, benchmark)
    axes_label = f"{name} (median, IQR bars)"
    stem = f"{slug(suite)}-{slug(benchmark)}"
    varying = varying_params(cases)
    x = x_param(cases)
    counts = sorted({c.key.threads for c in cases})
    planned: list[ChartFigure] = []

    def add(suffix: str, title: str, panels: list[Panel], axes: Axes) -> None:
        panels = [p for p in panels if _has_line(p)]
        if panels:
            for figure in budget.split(f"{stem}-by-{slug(suffix)}", title, panels):
                planned.append(ChartFigure(suite, figure.filename, figure.title, figure.panels, axes))

    if x is not None:
        others = [n for n in varying if n != x]
        groups: dict[tuple, list[Case]] = defaultdict(list)
        for case in cases:
            if case.key.threads in chart_threads(counts, logical_cpus):
                groups[(_subset(case.key.params, others), case.key.threads)].append(case)
        panels, shown = [], set()
        for (params, threads), group in sorted(groups.items(), key=lambda kv: (_params_order(kv[0][0]), kv[0][1])):
            over = " (oversubscribed)" if threads > logical_cpus else ""
            label = threads_text([threads]) + over + (f", {params_label(params)}" if params else "")
            panel = Panel(label, _series(group, lambda c: c.key.params_dict[x]))
            panels.append(panel)
            if _has_line(panel):
                shown.add(threads)
        if shown:
            add(x, _title(suite, benchmark, cases, f"{name} vs {x} at {threads_text(shown)}"),
                panels, Axes(x, axes_label))
    if x is None or len(counts) > 1:
        groups = defaultdict(list)
        for case in cases:
            groups[_subset(case.key.params, varying)].append(case)
        panels = [Panel(params_label(params), _series(group, lambda c: c.key.threads))
                  for params, group in sorted(groups.items(), key=lambda kv: _params_order(kv[0]))]
        add(THREADS, _title(suite, benchmark, cases, f"{name} vs threads ({', '.join(map(str, counts))})"),
            panels, Axes(THREADS, axes_label, oversubscribed_after=logical_cpus))
    return planned


def plan_charts(cases: dict[CaseKey, Case], logical_cpus: int, budget: FigureBudget) -> list[ChartFigure]:
    """Every figure of a report, in suite and benchmark order, within ``budget``."""
    by_benchmark: dict[tuple[str, str], list[Case]] = defaultdict(list)
    for case in cases.values():
        if case.key.suite not in FLOOR_SUITES:
            by_benchmark[(case.key.suite, case.key.benchmark)].append(case)
    planned = []
    for (suite, benchmark), group in sorted(by_benchmark.items()):
        planned += benchmark_charts(suite, benchmark, group, logical_cpus, budget)
    return planned


COUNTS_AXIS_LABEL = "instructions/op (one counted run)"


@dataclass(frozen=True)
class CountsChart:
    """The figures of one benchmark's instructions per op against its swept param ``x``, and
    the counted cases they draw (for the table that goes with them)."""
    suite: str
    benchmark: str
    x: str
    figures: tuple[ChartFigure, ...]
    cases: tuple[CaseCounts, ...]


def _counts_series(cases: list[CaseCounts], x: str) -> tuple[Series, ...]:
    by_variant: dict[str, list[CaseCounts]] = defaultdict(list)
    for case in cases:
        by_variant[case.key.variant].append(case)
    series = []
    for variant in sorted(by_variant):
        points = [(float(c.key.params_dict[x]), c.instructions_per_op, c.instructions_per_op, c.instructions_per_op)
                  for c in sorted(by_variant[variant], key=lambda c: c.key.params_dict[x])]
        series.append(make_series(variant, points))
    return tuple(series)


def plan_counts_charts(cases: dict[CaseKey, CaseCounts], budget: FigureBudget) -> list[CountsChart]:
    """Per benchmark whose counted cases sweep a numeric param (situations.x_param), the
    figures of instructions per op against it, in suite and benchmark order, within
    ``budget``. Benchmarks without such a param (nothing to draw a line through) get none."""
    by_benchmark: dict[tuple[str, str], list[CaseCounts]] = defaultdict(list)
    for case in cases.values():
        if case.key.suite not in FLOOR_SUITES:
            by_benchmark[(case.key.suite, case.key.benchmark)].append(case)
    charts = []
    for (suite, benchmark), group in sorted(by_benchmark.items()):
        x = x_param(group)
        if x is None:
            continue
        others = [n for n in varying_params(group) if n != x]
        panels_cases: dict[tuple, list[CaseCounts]] = defaultdict(list)
        for case in group:
            panels_cases[(_subset(case.key.params, others), case.key.threads)].append(case)
        panels, shown = [], set()
        for (params, threads), members in sorted(panels_cases.items(),
                                                 key=lambda kv: (_params_order(kv[0][0]), kv[0][1])):
            label = threads_text([threads]) + (f", {params_label(params)}" if params else "")
            panel = Panel(label, _counts_series(members, x))
            if _has_line(panel):
                panels.append(panel)
                shown.add(threads)
        if not panels:
            continue
        title = _title(suite, benchmark, group, f"instructions/op vs {x} at {threads_text(shown)}")
        stem = f"counts-{slug(suite)}-{slug(benchmark)}-by-{slug(x)}"
        figures = tuple(ChartFigure(suite, f.filename, f.title, f.panels, Axes(x, COUNTS_AXIS_LABEL))
                        for f in budget.split(stem, title, panels))
        if figures:
            charts.append(CountsChart(suite, benchmark, x, figures, tuple(group)))
    return charts


# The first screen's chart: what each seed pattern costs against threads, as a multiple of the variant to use
# instead (judge/headlines.seed_lines). One panel beside the headlines, so it is narrower than the others.
SEED_CHART_FILE = "first-screen-seed-patterns.png"
SEED_CHART_AXIS = "× the one to use instead"
SEED_CHART_SIZE = PanelSize(width=5.0, height=3.1, legend_entry=2.5)


@dataclass(frozen=True)
class SeedChart:
    """The first screen's figure: its file, title, one panel and axes, and its size."""
    filename: str
    title: str
    panels: tuple[Panel, ...]
    axes: Axes
    size: PanelSize


def plan_seed_chart(lines: tuple[SeedLine, ...], logical_cpus: int, origins: Origins = NO_ORIGINS) -> SeedChart | None:
    """One panel, a line per seed pattern (and per variant a package brought, named with its module: ``origins``)
    that is not the one to use: its median over the median of the variant to use instead, at each thread count
    (None when none has such a line)."""
    # A line is named by its variant alone (the headlines table says what it is divided by), so the legend fits.
    names = [marked(line.variant, variant_module(origins, line.suite, line.variant)) for line in lines]
    series = tuple(make_series(name, [(float(t), ratio, ratio, ratio) for t, ratio in line.points])
                   for name, line in zip(names, lines))
    if not series:
        return None
    counts = sorted({t for line in lines for t, _ in line.points})
    what = "Seed patterns and your variants" if any(variant_module(origins, line.suite, line.variant)
                                                    for line in lines) else "Seed patterns"
    title = f"{what} vs threads ({', '.join(map(str, counts))})"
    return SeedChart(SEED_CHART_FILE, title, (Panel("median over the median of the variant to use instead", series),),
                     Axes(THREADS, SEED_CHART_AXIS, oversubscribed_after=logical_cpus), SEED_CHART_SIZE)
