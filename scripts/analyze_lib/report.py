"""``analyze report``: charts, a which-one-to-use table and the environment of one run.

Writes report.md, a self-contained report.html and the PNGs into an output directory,
atomically (see output.atomic_directory).
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import numpy as np

from .chart_plan import plan_charts
from .charts import draw_figure
from .doc import Heading, Image, Paragraph, Table, to_html, to_markdown
from .figures import FigureBudget
from .loader import Case, CaseKey, ResultsFile, filter_cases
from .output import atomic_directory
from .presentation import FLOOR_SUITES
from .render import fmt_ns, fmt_ratio
from .stats import bootstrap_ratio_of_medians, median, quartiles, starved_count

DEFAULT_RESULTS_DIR = "Results"
REPORT_MD = "report.md"
REPORT_HTML = "report.html"



def default_report_dir(csv_path: str | Path) -> Path:
    """``Results/report-<csv stem>/`` (relative to the working directory)."""
    return Path(DEFAULT_RESULTS_DIR) / f"report-{Path(csv_path).stem}"


def _scenario_label(key: CaseKey, logical_cpus: int) -> str:
    over = " (oversubscribed)" if key.threads > logical_cpus else ""
    params = f" {key.params_text}" if key.params else ""
    return f"threads:{key.threads}{over}{params}"


# A ratio to the fastest whose 95% CI reaches down to this is not told apart from it.
TIE_PREFIX = "≈"


def _ratio_cell(case: Case, fastest: Case) -> str:
    if case is fastest:
        return "**1.00**"
    if math.isinf(median(case.ns_per_op)):
        return "starved"
    estimate = bootstrap_ratio_of_medians(case.ns_per_op, fastest.ns_per_op)
    tie = TIE_PREFIX if estimate.low <= 1.0 else ""
    return f"{tie}{_fmt_multiple(estimate.ratio)}"


def _fmt_multiple(value: float) -> str:
    # Three significant digits: 1.23, 12.3, 123, 2,352 (a 2352.02× ratio is noise in the last places).
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return fmt_ratio(value)


def which_one_tables(cases: dict[CaseKey, Case], logical_cpus: int) -> list[tuple[str, Table]]:
    """Per benchmark, a table with a row per scenario (threads and params) that has two or
    more variants: the fastest variant by median, its median, and every variant's median
    as a multiple of the fastest's (prefixed ≈ when the 95% bootstrap CI of that ratio
    reaches 1, i.e. not told apart from the fastest). A scenario whose every variant is
    starved has no fastest. Returns (``suite/benchmark``, table) pairs in case order."""
    scenarios: dict[tuple, list[Case]] = defaultdict(list)
    for key, case in cases.items():
        if key.suite not in FLOOR_SUITES:
            scenarios[(key.suite, key.benchmark, key.threads, key.params)].append(case)
    by_benchmark: dict[tuple[str, str], list[list[Case]]] = defaultdict(list)
    for scenario_cases in sorted(scenarios.values(), key=lambda cs: cs[0].key.sort_key()):
        if len(scenario_cases) >= 2:
            by_benchmark[scenario_cases[0].key.suite, scenario_cases[0].key.benchmark].append(scenario_cases)
    tables = []
    for (suite, benchmark), rows_cases in sorted(by_benchmark.items()):
        variants = sorted({c.key.variant for cs in rows_cases for c in cs})
        rows = []
        for scenario_cases in rows_cases:
            ranked = sorted(scenario_cases, key=lambda c: (median(c.ns_per_op), c.key.variant))
            fastest = ranked[0]
            by_variant = {c.key.variant: c for c in scenario_cases}
            if math.isinf(median(fastest.ns_per_op)):
                name, cells = "(all starved)", ["starved" if v in by_variant else "" for v in variants]
            else:
                name = f"**{fastest.key.variant}**"
                cells = [_ratio_cell(by_variant[v], fastest) if v in by_variant else "" for v in variants]
            rows.append((_scenario_label(fastest.key, logical_cpus), name,
                         fmt_ns(median(fastest.ns_per_op)), *cells))
        headers = ("Scenario", "Fastest", "Median ns/op", *variants)
        tables.append((f"{suite}/{benchmark}", Table(headers, tuple(rows), "llr" + "r" * len(variants))))
    return tables


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


def _samples_text(case: Case) -> str:
    starved = starved_count(case.ns_per_op)
    return f"{case.n} ({starved} starved)" if starved else str(case.n)


def _case_name(key: CaseKey, logical_cpus: int, with_suite: bool) -> str:
    over = " (oversubscribed)" if key.threads > logical_cpus else ""
    name = key.label if with_suite else key.label.split("/", 1)[1]
    return f"{name}{over}"


def cases_table(cases: list[Case], logical_cpus: int, with_suite: bool = False) -> Table:
    """Every case: samples (and how many starved), median and IQR, plus fairness where
    recorded (the slowest thread's operations over the fastest's, median over samples)."""
    fairness = any(_finite_median(c.columns["thread_ops_min"]) is not None for c in cases)
    headers = ["Case", "n", "Median ns/op", "IQR"]
    if fairness:
        headers.append("Thread ops min/max")
    rows = []
    for case in sorted(cases, key=lambda c: c.key.sort_key()):
        row = [_case_name(case.key, logical_cpus, with_suite), _samples_text(case),
               fmt_ns(median(case.ns_per_op)), _iqr_text(case.ns_per_op)]
        if fairness:
            low, high = (_finite_median(case.columns[c]) for c in ("thread_ops_min", "thread_ops_max"))
            row.append(f"{low / high:.2f}" if low is not None and high else "")
        rows.append(tuple(row))
    return Table(tuple(headers), tuple(rows), "lrrl" + "r" * (len(headers) - 4))


LATENCY_COLUMNS = ("p50_ns", "p90_ns", "p99_ns")


def latency_table(cases: list[Case], logical_cpus: int) -> Table | None:
    """The cases that record latency percentiles (wait/handoff): median ns/op and the
    median over samples of each sample's p50/p90/p99 (None when no case has them)."""
    measured = [c for c in cases if _finite_median(c.columns["p50_ns"]) is not None]
    if not measured:
        return None
    rows = []
    for case in sorted(measured, key=lambda c: c.key.sort_key()):
        cells = [_finite_median(case.columns[c]) for c in LATENCY_COLUMNS]
        rows.append((_case_name(case.key, logical_cpus, True), _samples_text(case),
                     fmt_ns(median(case.ns_per_op)),
                     *(fmt_ns(v) if v is not None else "" for v in cells)))
    return Table(("Case", "n", "Median ns/op", "p50 ns", "p90 ns", "p99 ns"), tuple(rows), "lrrrrr")


def starved_table(cases: list[Case], logical_cpus: int) -> Table | None:
    """The cases with at least one starved sample, most starved first (None when none)."""
    starved = [c for c in cases if starved_count(c.ns_per_op)]
    if not starved:
        return None
    starved.sort(key=lambda c: (-starved_count(c.ns_per_op), c.key.sort_key()))
    rows = tuple((_case_name(c.key, logical_cpus, True), f"{starved_count(c.ns_per_op)} of {c.n}",
                  fmt_ns(median(c.ns_per_op))) for c in starved)
    return Table(("Case", "Starved samples", "Median ns/op"), rows, "lrr")


def build_report(results: ResultsFile, out_dir: Path, pattern=None) -> list:
    """Draw the charts into ``out_dir`` and return the report's blocks."""
    cases = filter_cases(results.cases, pattern)
    cpus = results.logical_cpus
    title = f"DispatchBench report: {Path(results.path).stem}"
    blocks: list = [Heading(1, title),
                    Paragraph(f"{len(cases)} cases from `{results.path}`. Timings are ns per operation "
                              "(lower is better): lines are medians of the samples, bars their "
                              "interquartile range. Thread counts above the machine's "
                              f"{cpus} logical CPUs are oversubscribed (shaded on charts)."),
                    Heading(2, "Environment"), environment_table(results)]
    which = which_one_tables(cases, cpus)
    blocks.append(Heading(2, "Which one to use"))
    if which:
        blocks.append(Paragraph(
            "Per scenario (same suite, benchmark, threads and params), the fastest variant by "
            "median, and every variant's median as a multiple of the fastest's. "
            f"`{TIE_PREFIX}` marks a variant not told apart from the fastest (the 95% bootstrap "
            "confidence interval of its ratio reaches 1.00); `starved` means no operation "
            "completed in at least half its samples; an empty cell, not measured there."))
        for name, table in which:
            blocks += [Heading(3, name), table]
    else:
        blocks.append(Paragraph("No scenario has more than one variant."))
    budget = FigureBudget()
    figures = plan_charts(cases, cpus, budget)
    for figure in figures:
        draw_figure(out_dir / figure.filename, figure.title, list(figure.panels), figure.axes)
    starved = starved_table(list(cases.values()), cpus)
    if starved:
        blocks += [Heading(2, "Starved samples"),
                   Paragraph("A sample is *starved* when the case completed no operation in it "
                             "(bench writes `ns_per_op=inf`, `ops=0`): e.g. the writer of "
                             "`isolation/roles` kept out by readers for a whole sample. Starved "
                             "samples count as slower than any time; a median that falls on them "
                             "reads `starved`, and on charts sits as ▲ on the panel's top edge."),
                   starved]
    if figures:
        blocks.append(Heading(2, "Charts"))
        current = None
        for figure in figures:
            if figure.suite != current:
                blocks.append(Heading(3, figure.suite))
                current = figure.suite
            blocks.append(Image(figure.filename, figure.title))
        if budget.skipped_note():
            blocks.append(Paragraph(budget.skipped_note()))
    table_only = [c for c in cases.values() if c.key.suite in FLOOR_SUITES]
    if table_only:
        blocks += [Heading(2, "Harness overhead"),
                   Paragraph("The cost of the measurement itself: the floor under every other number."),
                   cases_table(table_only, cpus, with_suite=True)]
    latency = latency_table(list(cases.values()), cpus)
    if latency:
        blocks += [Heading(2, "Latency percentiles"),
                   Paragraph("Cases that time each operation (`once/race`, `wait/handoff`): per-sample "
                             "percentiles of one operation's latency in ns, median over samples."),
                   latency]
    blocks.append(Heading(2, "All cases"))
    by_suite: dict[str, list[Case]] = defaultdict(list)
    for case in cases.values():
        if case.key.suite not in FLOOR_SUITES:
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
