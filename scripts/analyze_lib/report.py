"""``analyze report``: one run as report.md, a self-contained report.html and PNG charts.

This module assembles the document; the parts come from their own modules: decisions
(which one to use), chart_plan and charts (which figures, and drawing them), tables (the
reference tables), presentation (what a benchmark's params say about how to show it).

The page leads with a table of contents; then per family (suite) the decision table and
the charts, with the per-scenario ratios folded below them; then the harness floor,
starved cases, latency percentiles, the environment and every case (folded).
Output is written atomically (see output.atomic_directory).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from .chart_plan import plan_charts
from .charts import draw_figure
from .decisions import Decision, decide, decision_table, rules_text
from .doc import Contents, Details, Heading, Image, Paragraph, to_html, to_markdown
from .figures import FigureBudget
from .model import Case, ResultsFile, filter_cases
from .output import atomic_directory
from .presentation import FLOOR_SUITES
from .tables import (
    DISQUALIFIED_MARK,
    TIE_PREFIX,
    cases_table,
    environment_table,
    latency_table,
    starved_table,
    which_one_tables,
)

DEFAULT_RESULTS_DIR = "Results"
REPORT_MD = "report.md"
REPORT_HTML = "report.html"


def default_report_dir(csv_path: str | Path) -> Path:
    """``Results/report-<csv stem>/`` (relative to the working directory)."""
    return Path(DEFAULT_RESULTS_DIR) / f"report-{Path(csv_path).stem}"


def _summary(results: ResultsFile, count: int) -> str:
    run = results.run
    return (f"{count} cases from `{results.path}`: commit `{results.commit_label}`, {run['host']} "
            f"({run['cpu_model']}, {run['logical_cpus']} logical CPUs), {run['build']} build, Swift "
            f"{run['swift_version']}, {run['started_at']:%Y-%m-%d}. Times are ns per operation, lower is "
            f"better; more than {run['logical_cpus']} threads oversubscribe the machine.")


def _how_to_read(cpus: int) -> list:
    return [Heading(2, "How to read this report"),
            Paragraph(rules_text(cpus)),
            Paragraph("Charts: lines join medians, bars span the interquartile range, the panels of a "
                      "figure share their y axis; oversubscribed thread counts are shaded. Each title "
                      "names the thread counts it shows.")]


def _family(suite: str, decisions: list[Decision], figures, ratios) -> list:
    blocks: list = [Heading(2, suite)]
    if decisions:
        blocks += [Heading(3, "Which one to use"), decision_table(decisions)]
    if figures:
        blocks.append(Heading(3, "Charts"))
        blocks += [Image(f.filename, f.title) for f in figures]
    if ratios:
        inner: list = [Paragraph(
            "Per scenario (same benchmark, threads and params), the fastest variant by median and "
            "every variant's median as a multiple of it. "
            f"`{TIE_PREFIX}`: the 95% bootstrap CI of the ratio reaches 1.00 (not told apart); "
            f"`{DISQUALIFIED_MARK}`: disqualified in the decision table (starves a role or is unfair); "
            "`starved`: no operation completed in at least half its samples; empty: not measured.")]
        for name, table in ratios:
            inner += [Heading(4, name), table]
        blocks.append(Details(f"Every scenario of {suite}: medians as multiples of the fastest "
                              f"({sum(len(t.rows) for _, t in ratios)} rows)", tuple(inner)))
    return blocks


def build_report(results: ResultsFile, out_dir: Path, pattern=None) -> list:
    """Draw the charts into ``out_dir`` and return the report's blocks."""
    cases = filter_cases(results.cases, pattern)
    cpus = results.logical_cpus
    budget = FigureBudget()
    figures = plan_charts(cases, cpus, budget)
    for figure in figures:
        draw_figure(out_dir / figure.filename, figure.title, list(figure.panels), figure.axes)
    decisions = decide(cases, cpus)
    ratios = which_one_tables(cases, cpus)

    blocks: list = [Heading(1, f"DispatchBench report: {Path(results.path).stem}"),
                    Paragraph(_summary(results, len(cases))), Contents()]
    if not cases:
        blocks.append(Paragraph("No case matches the filter."))
    # Families in the order bench ran them (their first row in the CSV).
    order = list(dict.fromkeys(c.key.suite for c in cases.values() if c.key.suite not in FLOOR_SUITES))
    if order:
        blocks += _how_to_read(cpus)
    for suite in order:
        blocks += _family(suite, [d for d in decisions if d.suite == suite],
                          [f for f in figures if f.suite == suite],
                          [(n, t) for n, t in ratios if n.split("/", 1)[0] == suite])
    note = budget.skipped_note()
    if note:
        blocks.append(Paragraph(note))
    floor = [c for c in cases.values() if c.key.suite in FLOOR_SUITES]
    if floor:
        blocks += [Heading(2, "Harness overhead"),
                   Paragraph("The cost of the measurement itself: the floor under every other number."),
                   cases_table(floor, cpus, with_suite=True)]
    starved = starved_table(list(cases.values()), cpus)
    if starved:
        blocks += [Heading(2, "Starved samples"),
                   Paragraph("A sample is *starved* when the case completed no operation in it "
                             "(bench writes `ns_per_op=inf`, `ops=0`): e.g. the writer of "
                             "`isolation/roles` kept out by readers for a whole sample. Starved "
                             "samples count as slower than any time; a median that falls on them "
                             "reads `starved`, and on charts sits as ▲ on the panels' top edge."),
                   starved]
    latency = latency_table(list(cases.values()), cpus)
    if latency:
        blocks += [Heading(2, "Latency percentiles"),
                   Paragraph("Cases that time each operation (`once/race`, `wait/handoff`): per-sample "
                             "percentiles of one operation's latency in ns, median over samples."),
                   latency]
    blocks += [Heading(2, "Environment"), environment_table(results)]
    by_suite: dict[str, list[Case]] = defaultdict(list)
    for case in cases.values():
        if case.key.suite not in FLOOR_SUITES:
            by_suite[case.key.suite].append(case)
    if by_suite:
        blocks += [Heading(2, "All cases"),
                   Paragraph("Every case's samples, median, interquartile range and fairness (the slowest "
                             "thread's operations over the busiest's, medians over samples).")]
        blocks += [Details(f"{suite}: {len(by_suite[suite])} cases", (cases_table(by_suite[suite], cpus),))
                   for suite in order]
    return blocks


def write_report(results: ResultsFile, out_dir: Path, pattern=None) -> Path:
    """Write report.md, report.html and the PNGs to ``out_dir`` atomically; return it."""
    with atomic_directory(out_dir) as staging:
        blocks = build_report(results, staging, pattern)
        (staging / REPORT_MD).write_text(to_markdown(blocks), encoding="utf-8")
        title = next(b.text for b in blocks if isinstance(b, Heading))
        (staging / REPORT_HTML).write_text(to_html(blocks, staging, title), encoding="utf-8")
    return out_dir
