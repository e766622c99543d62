"""``analyze report``: charts, a which-one-to-use table and the environment of one run.

Writes report.md, a self-contained report.html and the PNGs into an output directory,
atomically (see output.atomic_directory).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import numpy as np

from .charts import Axes, Panel, Series, draw_figure
from .doc import Heading, Image, Paragraph, Table, to_html, to_markdown
from .loader import Case, CaseKey, ResultsFile, filter_cases, format_params
from .output import atomic_directory
from .render import fmt_ns, fmt_ratio
from .stats import bootstrap_ratio_of_medians, median, quartiles

DEFAULT_RESULTS_DIR = "Results"
REPORT_MD = "report.md"
REPORT_HTML = "report.html"

# Per suite, the param on the x axis (falls back to threads when a benchmark lacks it).
SUITE_X_PARAM = {"once": "tokens", "isolation": "read_pct", "wait": "tasks"}
# Per suite, what one operation is (bench already divides by it: a fan-out of 256 tasks counts 256 operations).
SUITE_OPERATION = {"wait": "task"}
# Suites drawn log-log when their x param spans decades.
LOG_LOG_SUITES = {"once"}
# Suites shown as a small table rather than charts (the harness overhead floor).
TABLE_ONLY_SUITES = {"harness"}
MAX_PANELS_PER_FIGURE = 12
MAX_FIGURES = 40
THREADS = "threads"


def default_report_dir(csv_path: str | Path) -> Path:
    """``Results/report-<csv stem>/`` (relative to the working directory)."""
    return Path(DEFAULT_RESULTS_DIR) / f"report-{Path(csv_path).stem}"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "x"


def _without(params, name):
    return tuple((k, v) for k, v in params if k != name)


def _series(cases: list[Case], x_of) -> tuple[Series, ...]:
    by_variant: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        by_variant[case.key.variant].append(case)
    series = []
    for variant in sorted(by_variant):
        points = sorted(by_variant[variant], key=x_of)
        values = [c.ns_per_op for c in points]
        bands = [quartiles(v) for v in values]
        series.append(Series(variant, tuple(float(x_of(c)) for c in points),
                             tuple(median(v) for v in values),
                             tuple(b[0] for b in bands), tuple(b[1] for b in bands)))
    return tuple(series)


def _chosen_threads(cases: list[Case], logical_cpus: int) -> int:
    """The thread count shown when x is not threads: the most threads that are not
    oversubscribed, else the fewest measured."""
    counts = sorted({c.key.threads for c in cases})
    fitting = [t for t in counts if t <= logical_cpus]
    return fitting[-1] if fitting else counts[0]


class _ChartPlan:
    """Collects figures for one report, capping their number at MAX_FIGURES."""

    def __init__(self, out_dir: Path, logical_cpus: int):
        self.out_dir = out_dir
        self.logical_cpus = logical_cpus
        self.figures: list[tuple[str, str, str]] = []  # (suite, filename, alt)
        self.skipped = 0

    def add(self, suite: str, stem: str, title: str, panels: list[Panel], axes: Axes) -> None:
        chunks = [panels[i:i + MAX_PANELS_PER_FIGURE] for i in range(0, len(panels), MAX_PANELS_PER_FIGURE)]
        for index, chunk in enumerate(chunks):
            if len(self.figures) >= MAX_FIGURES:
                self.skipped += 1
                continue
            suffix = f"-{index + 1}" if len(chunks) > 1 else ""
            filename = f"{stem}{suffix}.png"
            draw_figure(self.out_dir / filename, title + (f" ({index + 1}/{len(chunks)})" if suffix else ""),
                        chunk, axes)
            self.figures.append((suite, filename, title))


def _benchmark_charts(plan: _ChartPlan, suite: str, benchmark: str, cases: list[Case]) -> None:
    operation = SUITE_OPERATION.get(suite)
    metric = f"ns per {operation}" if operation else "ns/op"
    ylabel = f"{metric} (median, IQR band)"
    x_param = SUITE_X_PARAM.get(suite)
    x_values = {c.key.params_dict.get(x_param) for c in cases} if x_param else set()
    usable_x = (x_param is not None and len(x_values) > 1
                and all(isinstance(c.key.params_dict.get(x_param), (int, float)) for c in cases))
    stem = f"{_slug(suite)}-{_slug(benchmark)}"
    thread_counts = {c.key.threads for c in cases}
    if usable_x:
        threads = _chosen_threads(cases, plan.logical_cpus)
        groups: dict[tuple, list[Case]] = defaultdict(list)
        for case in cases:
            if case.key.threads == threads:
                groups[_without(case.key.params, x_param)].append(case)
        over = " (oversubscribed)" if threads > plan.logical_cpus else ""
        panels = [Panel(f"threads:{threads}{over}" + (f" {format_params(k)}" if k else ""),
                        _series(g, lambda c: c.key.params_dict[x_param]))
                  for k, g in sorted(groups.items(), key=lambda kv: format_params(kv[0]))]
        plan.add(suite, f"{stem}-by-{_slug(x_param)}", f"{suite}/{benchmark}: {metric} vs {x_param}",
                 panels, Axes(x_param, ylabel, force_log_y=suite in LOG_LOG_SUITES))
    if not usable_x or len(thread_counts) > 1:
        groups = defaultdict(list)
        for case in cases:
            groups[case.key.params].append(case)
        panels = [Panel(format_params(k) or benchmark, _series(g, lambda c: c.key.threads))
                  for k, g in sorted(groups.items(), key=lambda kv: CaseKey("", "", "", 1, kv[0]).sort_key())]
        plan.add(suite, f"{stem}-by-threads", f"{suite}/{benchmark}: {metric} vs threads",
                 panels, Axes(THREADS, ylabel, oversubscribed_after=plan.logical_cpus))


def _scenario_label(key: CaseKey, logical_cpus: int) -> str:
    over = " (oversubscribed)" if key.threads > logical_cpus else ""
    params = f" {key.params_text}" if key.params else ""
    return f"{key.suite}/{key.benchmark} threads:{key.threads}{over}{params}"


def which_one_table(cases: dict[CaseKey, Case], logical_cpus: int) -> Table | None:
    """Per scenario with two or more variants: the fastest by median and every other
    variant's ratio to it with a 95% bootstrap CI (None when no scenario qualifies)."""
    scenarios: dict[tuple, list[Case]] = defaultdict(list)
    for key, case in cases.items():
        if key.suite not in TABLE_ONLY_SUITES:
            scenarios[(key.suite, key.benchmark, key.threads, key.params)].append(case)
    rows = []
    for scenario_cases in sorted(scenarios.values(), key=lambda cs: cs[0].key.sort_key()):
        if len(scenario_cases) < 2:
            continue
        ranked = sorted(scenario_cases, key=lambda c: (median(c.ns_per_op), c.key.variant))
        fastest = ranked[0]
        others = []
        for case in ranked[1:]:
            estimate = bootstrap_ratio_of_medians(case.ns_per_op, fastest.ns_per_op)
            others.append(f"{case.key.variant} {fmt_ratio(estimate.ratio)}× "
                          f"[{fmt_ratio(estimate.low)}, {fmt_ratio(estimate.high)}]")
        rows.append((_scenario_label(fastest.key, logical_cpus), f"**{fastest.key.variant}**",
                     fmt_ns(median(fastest.ns_per_op)), "; ".join(others)))
    if not rows:
        return None
    return Table(("Scenario", "Fastest", "Median ns/op", "Others: ratio to fastest [95% CI]"),
                 tuple(rows), "llrl")


def environment_table(results: ResultsFile) -> Table:
    """Where the run came from: machine, toolchain, build, commit and date."""
    run = results.run
    commit = run["commit"] + (" (dirty)" if run["dirty"] else "")
    rows = (("Host", run["host"]), ("CPUs (logical)", str(run["logical_cpus"])),
            ("CPU model", run["cpu_model"]), ("OS", f"{run['os']} (kernel {run['kernel']})"),
            ("Swift version", run["swift_version"]), ("Build", run["build"]),
            ("Allocator", run["allocator"]), ("Commit", f"`{commit}`"),
            ("Date", f"{run['started_at']:%Y-%m-%dT%H:%M:%SZ}"), ("Run id", f"`{run['run_id']}`"),
            ("Schema version", str(results.schema_version)), ("File", f"`{results.path}`"))
    return Table(("Field", "Value"), rows, "ll")


def _iqr_text(values: np.ndarray) -> str:
    low, high = quartiles(values)
    return f"{fmt_ns(low)}–{fmt_ns(high)}"


def _finite_median(values: np.ndarray) -> float | None:
    finite = values[np.isfinite(values)]
    return float(np.median(finite)) if finite.size else None


def cases_table(cases: list[Case], logical_cpus: int, with_suite: bool = False) -> Table:
    """Every case: samples, median and IQR, plus fairness and latency where recorded."""
    fairness = any(_finite_median(c.columns["thread_ops_min"]) is not None for c in cases)
    latency = any(_finite_median(c.columns["p50_ns"]) is not None for c in cases)
    headers = ["Case", "n", "Median ns/op", "IQR"]
    if fairness:
        headers.append("Thread ops min/max")
    if latency:
        headers += ["p50 ns", "p90 ns", "p99 ns"]
    rows = []
    for case in sorted(cases, key=lambda c: c.key.sort_key()):
        key = case.key
        over = " (oversubscribed)" if key.threads > logical_cpus else ""
        name = key.label if with_suite else key.label.split("/", 1)[1]
        row = [f"{name}{over}", str(case.n), fmt_ns(median(case.ns_per_op)), _iqr_text(case.ns_per_op)]
        if fairness:
            low, high = (_finite_median(case.columns[c]) for c in ("thread_ops_min", "thread_ops_max"))
            row.append(f"{low / high:.2f}" if low is not None and high else "")
        if latency:
            for column in ("p50_ns", "p90_ns", "p99_ns"):
                value = _finite_median(case.columns[column])
                row.append(fmt_ns(value) if value is not None else "")
        rows.append(tuple(row))
    return Table(tuple(headers), tuple(rows), "lrrl" + "r" * (len(headers) - 4))


def build_report(results: ResultsFile, out_dir: Path, pattern=None) -> list:
    """Draw the charts into ``out_dir`` and return the report's blocks."""
    cases = filter_cases(results.cases, pattern)
    cpus = results.logical_cpus
    title = f"DispatchBench report: {Path(results.path).stem}"
    blocks: list = [Heading(1, title),
                    Paragraph(f"{len(cases)} cases from `{results.path}`. Timings are ns per operation "
                              "(lower is better): lines are medians of the samples, bands their "
                              "interquartile range. Thread counts above the machine's "
                              f"{cpus} logical CPUs are oversubscribed (shaded on charts)."),
                    Heading(2, "Environment"), environment_table(results)]
    which = which_one_table(cases, cpus)
    blocks.append(Heading(2, "Which one to use"))
    if which:
        blocks += [Paragraph("Per scenario (same suite, benchmark, threads and params), the fastest "
                             "variant by median, and every other variant's median as a multiple of "
                             "it with a 95% bootstrap confidence interval."), which]
    else:
        blocks.append(Paragraph("No scenario has more than one variant."))
    by_benchmark: dict[tuple[str, str], list[Case]] = defaultdict(list)
    for case in cases.values():
        by_benchmark[(case.key.suite, case.key.benchmark)].append(case)
    plan = _ChartPlan(out_dir, cpus)
    for (suite, benchmark), group in sorted(by_benchmark.items()):
        if suite not in TABLE_ONLY_SUITES:
            _benchmark_charts(plan, suite, benchmark, group)
    if plan.figures:
        blocks.append(Heading(2, "Charts"))
        current = None
        for suite, filename, alt in plan.figures:
            if suite != current:
                blocks.append(Heading(3, suite))
                current = suite
            blocks.append(Image(filename, alt))
        if plan.skipped:
            blocks.append(Paragraph(f"{plan.skipped} more chart(s) not drawn (limit {MAX_FIGURES}); "
                                    "narrow the report with `--filter`."))
    table_only = [c for c in cases.values() if c.key.suite in TABLE_ONLY_SUITES]
    if table_only:
        blocks += [Heading(2, "Harness overhead"),
                   Paragraph("The cost of the measurement itself: the floor under every other number."),
                   cases_table(table_only, cpus, with_suite=True)]
    blocks.append(Heading(2, "All cases"))
    by_suite: dict[str, list[Case]] = defaultdict(list)
    for case in cases.values():
        if case.key.suite not in TABLE_ONLY_SUITES:
            by_suite[case.key.suite].append(case)
    for suite in sorted(by_suite):
        blocks += [Heading(3, suite), cases_table(by_suite[suite], cpus)]
    if not cases:
        blocks.append(Paragraph("No case matches the filter."))
    return blocks


def write_report(results: ResultsFile, out_dir: Path, pattern=None) -> Path:
    """Write report.md, report.html and the PNGs to ``out_dir`` atomically; return it."""
    with atomic_directory(out_dir) as staging:
        blocks = build_report(results, staging, pattern)
        (staging / REPORT_MD).write_text(to_markdown(blocks), encoding="utf-8")
        title = next(b.text for b in blocks if isinstance(b, Heading))
        (staging / REPORT_HTML).write_text(to_html(blocks, staging, title), encoding="utf-8")
    return out_dir
