"""``analyze report``: one run as report.md, a self-contained report.html and PNG charts.

This module assembles the document; the parts come from their own modules: decisions
(which one to use), chart_plan and charts (which figures, and drawing them), tables (the
reference tables), situations (what a benchmark's params say about how to show and judge it).

The page leads with the run's conditions (its shape and whether the machine was busy,
judge/conditions.py; a run taken under load is marked again on every section of its figures),
then its headlines (judge/headlines.py: stress failures, starvation, the steepest cliffs with
their causes, what the seed patterns cost), a table row each, beside a chart of the seed patterns' cost
against threads (in HTML one section, the first screen), and a table of contents; then per family (suite) the
decision table (each avoided variant with its cause, judge/diagnosis.py), where its cost jumps
with threads, and the charts, with the per-scenario ratios folded below them; then, given a counts file,
the counts per operation (charts of instructions/op against a swept param, and every
counted case beside its timing median); given a stress file, the stress checks (failures
first, the negative controls, then every check's outcomes, folded); then the harness floor,
starved cases, latency percentiles, the environment and every case (folded). A report may
have any one or two of the three files alone. Output is written atomically (see
output.atomic_directory).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from ..fmt import fmt_count
from .chart_plan import CountsChart, plan_charts, plan_counts_charts, plan_seed_chart
from .charts import draw_figure
from ..judge.decisions import Decision, decide, disqualified_anywhere
from ..judge.evidence import UNMEASURED_FLOOR, spoiled_count
from ..judge.picks import picks
from ..judge.diagnosis import CLIFF_FACTOR, Cliff, Diagnosis, cliffs as find_cliffs, diagnose
from ..judge.headlines import headlines, seed_lines
from .diagnosis_text import RULES_PAGE, cliff_text
from .headlines_text import headline_table
from .decision_table import decision_table, rules_text
from .conditions_text import conditions_items, load_mark, machine_items, recommendation_note
from .picks_text import PICKS_TITLE, picks_table
from .doc import Bullets, Contents, Details, Heading, Image, Paragraph, Section, Table, to_html, to_markdown
from .figures import FigureBudget
from .origin_marks import Origins, brought_in_rows, marked, stress_origins
from ..files.model import Case, CaseCounts, CaseKey, CountsFile, ResultsFile, StressFile, filter_cases, filter_stress
from ..files.output import atomic_directory
from ..judge.conditions import RunConditions, run_conditions
from ..judge.situations import FLOOR_SUITES, notes
from ..judge.stress import NOT_IN_FILE, Proof, StressVerdict, judge_proof, judge_stress, stress_failures
from .tables import (
    DISQUALIFIED_MARK,
    TIE_PREFIX,
    cases_table,
    counts_by_param_table,
    counts_table,
    environment_table,
    latency_table,
    starved_table,
    stress_controls_table,
    stress_failures_table,
    stress_outcomes_table,
    stress_slow_table,
    stress_unproven_table,
    time_split_table,
    which_one_tables,
)

# Without --out, a report is written beside the file it reads, in a directory named for it.
REPORT_DIR_PREFIX = "report-"
REPORT_MD = "report.md"
REPORT_HTML = "report.html"
HEADLINES_TITLE = "Headlines:"
# The HTML sections of the first screen (1400×900): the run's conditions, then the headlines beside their chart.
FIRST_SCREEN = "first-screen"
AT_A_GLANCE = "at-a-glance"
COUNTS_HEADING = "Counts per operation"
BROUGHT_IN_HEADING = "Variants brought from outside"
STRESS_HEADING = "Stress checks"
# Said once near the top of a report that recommends variants without a stress file.
UNCHECKED_NOTE = ("**Correctness was not checked in this report:** no stress file was given, so no variant is "
                  "proven and each is recommended for its speed alone: the decision tables and headlines mark every "
                  "variant they recommend \"not proven\". Run `bench stress` and pass its CSV to `report` too: a "
                  "variant that fails a check is then disqualified, and one its checks do not prove is never "
                  "recommended over one they do.")
# How long bench stress runs a negative control before giving up on catching it (Swift's
# Bench.Stress.controlBudget).
BENCH_CONTROL_BUDGET_S = 10


def default_report_dir(csv_path: str | Path) -> Path:
    """``<the CSV's directory>/report-<csv stem>/``: beside the file, wherever it is run from."""
    path = Path(csv_path)
    return path.parent / f"{REPORT_DIR_PREFIX}{path.stem}"


def _summary(results: ResultsFile, count: int) -> str:
    return (f"{count} cases from `{results.path}`: {_run_text(results)}. Times are ns per operation, lower "
            f"is better; more than {results.logical_cpus} threads oversubscribe the machine. A case's median "
            "is the median of its round medians (each round a fresh process), as compare and export use."
            + _brought_text(results.origins))


def _brought_text(origins: dict[tuple[str, str], str]) -> str:
    """One sentence naming the variants a package brought, if any: the tables mark them with their module."""
    if not origins:
        return ""
    # A variant joins several suites (a lock: isolation and the harness's mutex-pair): named once.
    by_module: dict[str, dict[str, None]] = {}
    for (_, variant), module in sorted(origins.items()):
        by_module.setdefault(module, {})[f"`{variant}`"] = None
    named = "; ".join(f"{', '.join(variants)} from {module}" for module, variants in by_module.items())
    return (f" Variants brought from outside DispatchBench, marked with their module in the tables: {named}.")


def _brought_in_section(origins: Origins, cases, stress: StressFile | None, proof: Proof) -> list:
    """Every variant a package brought, with its module, its timed cases and its stress checks (a failed one
    marked, and one short of its minimum trials): listed here whether or not it stands in a decision table (none
    when the files hold no brought-in variant)."""
    rows = brought_in_rows(origins, cases, stress.results.values() if stress is not None else None, proof)
    if not rows:
        return []
    return [Heading(2, BROUGHT_IN_HEADING),
            Paragraph("The variants a package brought beside DispatchBench's own (docs/bring-your-own.md), "
                      "marked with their module wherever the report names them."),
            Table(("Variant", "Module", "Timed cases", "Stress checks"), tuple(rows), "llll")]


def _shown_stress(stress: StressFile, pattern, cases) -> dict:
    """The stress results a report shows: those whose check ``pattern`` matches, and every check of a variant
    among ``cases`` (the timed cases it shows)."""
    timed = {(key.suite, key.variant) for key in cases}
    matched = filter_stress(stress.results, pattern)
    return {key: result for key, result in stress.results.items()
            if key in matched or (not result.is_control and (result.family, result.variant) in timed)}


# The variants a report's first paragraph names that the stress file has no check of (the rest are counted).
SUMMARY_UNCHECKED = 6


def _not_in_stress_text(cases, proof: Proof, origins: Origins) -> str:
    """A sentence naming the variants timed here (candidates of a decision) that the stress file has no check of,
    so that a stress file filtered to some checks is not read as proving the rest; empty when it has them all."""
    missing: dict[tuple[str, str], None] = {}
    for key in sorted(cases, key=CaseKey.sort_key):
        if key.suite in FLOOR_SUITES or key.variant in notes(key.suite, key.benchmark).baselines:
            continue
        if proof.unproven(key.suite, key.benchmark, key.variant) == NOT_IN_FILE:
            missing[(key.suite, key.variant)] = None
    if not missing:
        return ""
    named = [f"{marked(f'`{variant}`', origins.get((suite, variant)))} ({suite})"
             for suite, variant in list(missing)[:SUMMARY_UNCHECKED]]
    more = len(missing) - len(named)
    listed = ", ".join(named) + (f" and {more} more" if more else "")
    return (f"**Not in the stress file, so not proven:** {listed}; the decision tables mark "
            f"{'it' if len(missing) == 1 else 'them'} and recommend none over a proven variant.")


# What the report says when its file does not record where the threads' time went.
NO_SPLIT_NOTE = ("This file does not record where each thread's time went (running, waiting for a CPU, blocked: "
                 "schema 8 on Linux, from schedstat); the causes read the process's CPU time and switches, whose "
                 f"user/system split is sampled at the scheduler's tick ({RULES_PAGE}).")


def _how_to_read(cpus: int, has_split: bool = True) -> list:
    return [Heading(2, "How to read this report"),
            Paragraph(rules_text(cpus)),
            *([] if has_split else [Paragraph(NO_SPLIT_NOTE)]),
            Paragraph("Charts: lines join medians, bars span the samples' interquartile range, the panels of a "
                      "figure share their y axis; oversubscribed thread counts are shaded. Each title "
                      "names the thread counts it shows.")]


def _marked(conditions: RunConditions | None) -> list:
    """The under-load mark for a section of the run's figures, as a block (none when quiet)."""
    mark = load_mark(conditions) if conditions is not None else None
    return [Paragraph(mark)] if mark else []


def _cliffs_block(cliffs: list[Cliff], origins: Origins) -> list:
    """A family's cliffs, each with its cause, folded (the steepest are also headlines); a brought variant's with
    its module."""
    if not cliffs:
        return []
    lines = []
    for cliff in sorted(cliffs, key=lambda c: c.key.sort_key()):
        key = cliff.key
        params = f" {key.params_text.replace(';', ', ')}" if key.params else ""
        name = marked(f"`{key.benchmark}/{key.variant}`", origins.get((key.suite, key.variant)))
        lines.append(f"{name}{params}: {cliff_text(cliff)}")
    return [Details(f"Where the cost jumps with threads: {len(cliffs)} cliff{'s' if len(cliffs) != 1 else ''}",
                    (Paragraph(f"Per variant and params, the first thread count whose median is at least "
                               f"{CLIFF_FACTOR:g}× the one measured before it, with the cause its signals show "
                               f"({RULES_PAGE})."), Bullets(tuple(lines))))]


def _time_split_block(suite: str, diagnoses: dict[CaseKey, Diagnosis], origins: dict[tuple[str, str], str]) -> list:
    """A family's cases with their labels and where their threads' time went, folded; nothing when the file does
    not record it (the how-to-read section says so once)."""
    cpus = next(iter(diagnoses.values())).signals.logical_cpus if diagnoses else 1
    table = time_split_table([d for d in diagnoses.values() if d.key.suite == suite], cpus, origins)
    if table is None:
        return []
    return [Details(f"Where each case's time went: {len(table.rows)} case{'s' if len(table.rows) != 1 else ''}",
                    (Paragraph("Per case, the label the rules gave it and where its measured threads' time went: "
                               "each thread's share of the sample's wall time running on a CPU, waiting on a run "
                               "queue for one, and blocked (neither), then the threads' time in each per operation "
                               f"and their switches in per operation ({RULES_PAGE})."), table))]


def _family(suite: str, decisions: list[Decision], figures, ratios,
            origins: dict[tuple[str, str], str], conditions: RunConditions,
            diagnoses: dict[CaseKey, Diagnosis] | None = None, cliffs: list[Cliff] = ()) -> list:
    blocks: list = [Heading(2, suite), *_marked(conditions)]
    if decisions:
        note = recommendation_note(conditions)
        blocks += [Heading(3, "Which one to use"), *([Paragraph(note)] if note else []),
                   decision_table(decisions, origins, diagnoses)]
    blocks += _cliffs_block(list(cliffs), origins)
    blocks += _time_split_block(suite, diagnoses or {}, origins)
    if figures:
        blocks.append(Heading(3, "Charts"))
        blocks += [Image(f.filename, f.title) for f in figures]
    if ratios:
        inner: list = [Paragraph(
            "Per scenario (same benchmark, threads and params), the fastest variant by median and "
            "every variant's median as a multiple of it. "
            f"`{TIE_PREFIX}`: the 95% bootstrap CI of the ratio reaches 1.00 (not told apart); "
            f"`{DISQUALIFIED_MARK}`: disqualified in the decision table (failed a stress check, starves a role "
            "or is unfair); "
            "`starved`: no operation completed in at least half its samples; empty: not measured.")]
        for name, table in ratios:
            inner += [Heading(4, name), table]
        blocks.append(Details(f"Every scenario of {suite}: medians as multiples of the fastest "
                              f"({sum(len(t.rows) for _, t in ratios)} rows)", tuple(inner)))
    return blocks


def _run_text(results) -> str:
    run = results.run
    return (f"commit `{results.commit_label}`, {run['host']} ({run['cpu_model']}, {run['logical_cpus']} logical "
            f"CPUs), {run['build']} build, Swift {run['swift_version']}, {run['started_at']:%Y-%m-%d}")


def _counts_summary(counts: CountsFile, count: int) -> str:
    return (f"{count} counted cases from `{counts.path}`: {_run_text(counts)}. Instructions and allocations "
            "per operation, one counted run per case; lower is better.")


def _counts_section(counts: CountsFile, counted: dict[CaseKey, CaseCounts], charts: list[CountsChart],
                    timings: ResultsFile | None, cases: dict[CaseKey, Case]) -> list:
    """The counts of a counts file: what they are, the charts of instructions/op against a
    swept param with their numbers, then every counted case (beside its timing median)."""
    blocks: list = [Heading(2, COUNTS_HEADING), Paragraph(
        f"From `{counts.path}`: {_run_text(counts)}, allocator {counts.run['allocator']}. Per case one "
        "counted run: instructions (valgrind callgrind, collection on only around the loop) and "
        "allocations (jemalloc, thread cache off), each divided by the run's operations. Counts are exact "
        "and repeatable for the same binary, so they have no noise band, and `analyze gate` compares "
        "them exactly. `harness/empty/loop` is the harness's own per-iteration cost; nothing is "
        "subtracted from any row.")]
    if timings is not None:
        blocks.append(Paragraph(
            f"*Timing median ns/op* is the median of the same case (same threads and params) in "
            f"`{timings.path}`; empty where that run did not time it."))
        if timings.commit_label != counts.commit_label:
            blocks.append(Paragraph(
                f"**Note:** the counts come from commit `{counts.commit_label}` and the timings from "
                f"`{timings.commit_label}`: they may not measure the same code."))
    if not counted:
        return blocks + [Paragraph("No counted case matches the filter.")]
    for chart in charts:
        blocks.append(Heading(3, f"{chart.suite}/{chart.benchmark}: instructions per op vs {chart.x}"))
        blocks += [Image(f.filename, f.title) for f in chart.figures]
        blocks.append(counts_by_param_table(list(chart.cases), chart.x, counts.origins))
    by_suite: dict[str, list[CaseCounts]] = defaultdict(list)
    for case in counted.values():
        by_suite[case.key.suite].append(case)
    timed = cases if timings is not None else None
    blocks.append(Heading(3, "Every counted case"))
    blocks += [Details(f"{suite}: {len(members)} counted case{'s' if len(members) != 1 else ''}",
                       (counts_table(members, timed, counts.logical_cpus, origins=counts.origins),))
               for suite, members in by_suite.items()]
    return blocks



def _and_list(items) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _slots(results) -> str:
    """```check`` at 1 and 2 threads, …``: the slots named, a check once with its thread counts and the module that
    brought its variant."""
    threads: dict[str, list[int]] = defaultdict(list)
    names: dict[str, str] = {}
    for r in results:
        threads[r.check].append(r.threads)
        names[r.check] = marked(f"`{r.check}`", r.origin)
    return ", ".join(f"{names[check]} at {_and_list(sorted(counts))} thread{'s' if counts != [1] else ''}"
                     for check, counts in threads.items())


def proof_text(verdict: StressVerdict, version: int) -> str:
    """What the stress file proves, in a sentence (nothing when every variant check made its minimum trials): a file
    before trial counts proves no variant; checks below their minimum leave theirs not proven; a check abandoned or
    slow is named; a racy control caught only beyond its check's minimum says the check's power fell short."""
    sentences = []
    if verdict.variants and not verdict.counts_trials:
        sentences.append(f"**This file predates trial counts** (stress_schema_version {version}): it proves no "
                         "variant, so the report recommends none over another for being proven.")
    short = verdict.below_minimum
    if short:
        one = len(dict.fromkeys(r.check for r in short)) == 1
        sentences.append(f"**{fmt_count(len(dict.fromkeys(r.check for r in short)), 'check')} not proven** (fewer "
                         f"trials than {'its' if one else 'their'} minimum: {_slots(short)}): the report never "
                         f"recommends {'its variant' if one else 'their variants'} over a proven one.")
    if verdict.abandoned:
        sentences.append(f"**Abandoned by the watchdog** as suspected deadlocks (no progress within --watchdog): "
                         f"{_slots(verdict.abandoned)}.")
    if verdict.slow:
        sentences.append(f"Slow, not stuck (iterations longer than --watchdog while the threads advanced): "
                         f"{_slots(verdict.slow)}.")
    weak = verdict.racy_beyond_minimum
    racy = [r for r in verdict.controls if r.racy and r.caught]
    if racy and not weak:
        sentences.append("The racy control was caught within its check's minimum trials: the check has the power "
                         "its minimum assumes." if len(racy) == 1 else
                         f"All {len(racy)} racy controls were caught within their checks' minimum trials: the checks "
                         "have the power their minimums assume.")
    if weak:
        one = len(weak) == 1
        whose = "its check's" if one else "their checks'"
        sentences.append(f"**{fmt_count(len(weak), 'racy control')} caught only beyond {whose} minimum, or not at "
                         "all** "
                         f"({_slots(weak)}): in this run "
                         f"{'the check' if one else 'each'} fell short of the power its minimum assumes, so a variant "
                         "with such a race could have passed it; not a run failure.")
    return " ".join(sentences)


def stress_verdict_text(verdict: StressVerdict, version: int | None = None) -> str:
    """The stress checks' verdict in a sentence or two: failures and uncaught controls first,
    in bold, or "0 forbidden outcomes in N checks" and how fast the controls were caught; then, given the file's
    ``version``, what it proves (proof_text)."""
    checks = len(verdict.checks)
    if verdict.failures:
        failed = verdict.failed_checks
        module = {r.check: r.origin for r in verdict.variants}
        variants = (f"**FAILED: forbidden outcomes in {len(failed)} of {fmt_count(checks, 'check')}** "
                    f"({', '.join(marked(f'`{c}`', module.get(c)) for c in failed)}).")
    elif checks:
        variants = (f"**0 forbidden outcomes in {fmt_count(checks, 'check')}** "
                    f"({fmt_count(verdict.iterations, 'iteration')} "
                    f"at {_and_list(verdict.threads)} threads).")
    else:
        variants = "No variant check in this file."
    controls = len(verdict.controls)
    if verdict.uncaught:
        missed = verdict.uncaught
        teeth = (f"**{len(missed)} of {fmt_count(controls, 'negative control')} never caught: "
                 f"{'its check' if len(missed) == 1 else 'their checks'} lost {'its' if len(missed) == 1 else 'their'} "
                 f"teeth** ({', '.join(f'`{r.check}` threads:{r.threads}' for r in missed)}).")
    elif controls:
        # Every deterministic control is caught here; a racy one may not be (named by proof_text).
        slowest = verdict.slowest_catch
        caught = sum(r.caught for r in verdict.controls)
        whole = (f"All {fmt_count(controls, 'negative control')}" if caught == controls
                 else f"{caught} of {fmt_count(controls, 'negative control')}")
        teeth = (f"{whole} caught" + (f", the slowest after {slowest.seconds_to_first_forbidden:.3f} s "
                                      f"(`{slowest.check}`)." if slowest is not None else "."))
    else:
        teeth = ("No negative controls (`bench stress --no-controls`, or filtered out): nothing here shows "
                 "that the checks can fail.")
    proof = proof_text(verdict, version) if version is not None else ""
    return " ".join(filter(None, (variants, teeth, proof)))


# What the stress section says of trials, for a file that counts them.
TRIALS_NOTE = ("Each check counts its trials, the racing windows it made (tokens raced, writes, tasks, round trips), "
               "at each thread count, beside the minimum that proves a variant there: a variant is proven only when "
               "every check of it made its minimum at every thread count and none was abandoned, and the report "
               "never recommends a variant not proven over a proven one. A racy control, broken by a race people "
               "write, is caught only as often as the check has power: caught within the minimum, it shows the check "
               "has it; a deterministic one is caught in its first iteration at any speed.")


def _stress_section(stress: StressFile, verdict: StressVerdict) -> list:
    """A stress file's checks: the verdict, the variants' forbidden outcomes (failures), the checks not proven
    (below their minimum trials), the slow ones, the negative controls, then every variant check's outcomes per
    family, folded."""
    blocks: list = [Heading(2, STRESS_HEADING), Paragraph(
        f"From `{stress.path}`: {_run_text(stress)}. `bench stress` runs each check of each variant "
        "again and again at each thread count and counts what every iteration observed, graded as "
        "jcstress grades outcomes: `acceptable`, `acceptable-interesting` (allowed, worth seeing) or "
        "`forbidden` (the contract broken). A forbidden outcome in a variant is a failure; each "
        "negative control, a deliberately broken variant, runs until its check catches it (at most "
        f"{BENCH_CONTROL_BUDGET_S} s): a control never caught means the check lost its teeth. A check none of whose "
        "threads advanced for --watchdog seconds is abandoned as a suspected deadlock (a failure); one whose "
        "iterations took longer while its threads advanced is slow, not stuck."),
        *([Paragraph(TRIALS_NOTE)] if verdict.counts_trials else []),
        Paragraph(stress_verdict_text(verdict, stress.schema_version))]
    if not verdict.variants and not verdict.controls:
        return blocks + [Paragraph("No stress check matches the filter.")]
    if verdict.failures:
        blocks += [Heading(3, "Failures: forbidden outcomes in variants"),
                   stress_failures_table(list(verdict.failures))]
    if verdict.below_minimum:
        blocks += [Heading(3, "Not proven: checks below their minimum trials"),
                   stress_unproven_table(list(verdict.below_minimum))]
    if verdict.slow:
        blocks += [Heading(3, "Slow, not stuck"), stress_slow_table(list(verdict.slow))]
    if verdict.controls:
        blocks += [Heading(3, "Negative controls"), stress_controls_table(list(verdict.controls))]
    if verdict.variants:
        by_family: dict[str, list] = defaultdict(list)
        for result in verdict.variants:
            by_family[result.family].append(result)
        blocks.append(Heading(3, "Every check's outcomes"))
        for family, members in by_family.items():
            names = dict.fromkeys(r.check for r in members)
            failed = [c for c in verdict.failed_checks if c in names]
            state = f"{len(failed)} with forbidden outcomes" if failed else "no forbidden outcome"
            blocks.append(Details(f"{family}: {fmt_count(len(names), 'check')}, {state}",
                                  (stress_outcomes_table(members),)))
    return blocks


def build_report(results: ResultsFile | None, out_dir: Path, pattern=None,
                 counts: CountsFile | None = None, stress: StressFile | None = None) -> list:
    """Draw the charts into ``out_dir`` and return the report's blocks: of a timing file,
    a counts file, a stress file, or any mix of them (at least one)."""
    main = next((f for f in (results, counts, stress) if f is not None), None)
    if main is None:
        raise ValueError("build_report needs a timing file, a counts file or a stress file")
    cases = filter_cases(results.cases, pattern) if results is not None else {}
    counted = filter_cases(counts.cases, pattern) if counts is not None else {}
    # A variant that failed a stress check is disqualified wherever it is timed (stress_failures), whatever the
    # filter matched of the check names; the checks shown are those the filter matches and those of the variants
    # the report times, so that each disqualification's check is on the page too.
    failed = stress_failures(judge_stress(stress.results)) if stress is not None else {}
    # Likewise what the whole file proves: a variant whose checks did not make their minimum trials, or did not run,
    # is never recommended over one whose checks did.
    proof = judge_proof(stress.results.values() if stress is not None else None)
    verdict = judge_stress(_shown_stress(stress, pattern, cases)) if stress is not None else None
    cpus = main.logical_cpus
    budget = FigureBudget()
    figures = plan_charts(cases, cpus, budget)
    counts_charts = plan_counts_charts(counted, budget)
    for figure in figures + [f for chart in counts_charts for f in chart.figures]:
        draw_figure(out_dir / figure.filename, figure.title, list(figure.panels), figure.axes)
    # The run's conditions are the whole file's, whatever the filter left of its cases: the CPU share and the stall
    # floor its controls set judge the filtered cases as they judge the whole run (without a timing file there is
    # no case to judge).
    conditions = run_conditions(results) if results is not None else None
    share = conditions.cpu_share if conditions is not None else None
    floor = conditions.floor if conditions is not None else UNMEASURED_FLOOR
    # A variant disqualified in any case measured is not recommended in any situation of its suite.
    failed = disqualified_anywhere(cases, cpus, cpu_share=share, floor=floor, failed=failed)
    decisions = decide(cases, cpus, cpu_share=share, floor=floor, failed=failed, proof=proof)
    origins: dict[tuple[str, str], str] = {**(counts.origins if counts is not None else {}),
                                           **(results.origins if results is not None else {})}
    ratios = which_one_tables(cases, cpus, cpu_share=share, floor=floor, origins=origins, failed=failed)
    diagnoses = diagnose(cases, cpus, share, floor=floor)
    cliffs = find_cliffs(diagnoses)
    found = headlines(decisions, diagnoses, cliffs, cpus, verdict, frozenset(origins))

    summary = []
    if results is not None:
        summary.append(_summary(results, len(cases)))
        if counts is not None:
            summary.append(f"Counts per operation of {len(counted)} cases from `{counts.path}` have "
                           "their own section.")
    elif counts is not None:
        summary.append(_counts_summary(counts, len(counted)))
    if verdict is not None:
        # The stress verdict leads the page: a failure must not hide below the timings.
        source = f"Stress checks from `{stress.path}`" + (
            f" ({_run_text(stress)})" if main is stress else "")
        summary.append(f"{source}: {stress_verdict_text(verdict, stress.schema_version)}")
        if decisions:
            summary.append(_not_in_stress_text(cases, proof, origins))
    elif decisions:
        summary.append(UNCHECKED_NOTE)
    # An incomplete file is named before anything read from it: its run did not complete.
    incomplete = [Paragraph(f"**Incomplete:** `{f.path}`: {f.incomplete}. What follows is what it holds, "
                            "not what the whole run would have measured.")
                  for f in (results, counts, stress) if f is not None and f.incomplete]
    # The run's shape leads the page: every figure below was taken under it.
    shape = [Bullets(conditions_items(conditions))] if conditions is not None else []
    # Then the answer: per benchmark what to use within the CPUs, at what cost, and the seed patterns beside it;
    # then the few findings worth a headline, a table row each, and what the seed patterns cost against threads;
    # then the machine. Paragraphs, not headings: the first screen stays above the contents.
    # The headlines may name a check whose variant only the stress file says was brought.
    named_origins = {**stress_origins(stress.results.values() if stress is not None else None), **origins}
    chosen = picks(decisions, cases, cpus)
    lead: list = [Paragraph(f"**{PICKS_TITLE}** (the most threads that fit the {cpus} CPUs; ns per operation, "
                            "the median of round medians with its 95% interval):"),
                  picks_table(chosen, cpus, named_origins)] if chosen else []
    if found:
        lead += [Paragraph(f"**{HEADLINES_TITLE}**"), headline_table(found, named_origins)]
    seed_chart = plan_seed_chart(seed_lines(found, cases), cpus, named_origins)
    if seed_chart is not None:
        draw_figure(out_dir / seed_chart.filename, seed_chart.title, list(seed_chart.panels), seed_chart.axes,
                    seed_chart.size)
        lead.append(Image(seed_chart.filename, seed_chart.title))
    if conditions is not None and results is not None:
        spoiled, samples, recorded = spoiled_count(cases.values())
        lead += [Paragraph("**The machine:**"),
                 Bullets(machine_items(results.run["cpu_model"], conditions, spoiled, samples, recorded))]
    first = Section(FIRST_SCREEN, (*incomplete, Paragraph(" ".join(filter(None, summary))), *shape,
                                   *([Section(AT_A_GLANCE, tuple(lead))] if lead else [])))
    blocks: list = [Heading(1, f"DispatchBench report: {Path(main.path).stem}"), first, Contents()]
    if not cases and not counted and stress is None:
        blocks.append(Paragraph("No case matches the filter."))
    # Families in the order bench ran them (their first row in the CSV).
    order = list(dict.fromkeys(c.key.suite for c in cases.values() if c.key.suite not in FLOOR_SUITES))
    blocks += _brought_in_section(origins, [*cases, *counted], stress, proof)
    if order:
        blocks += _how_to_read(cpus, any(d.signals.split is not None for d in diagnoses.values()))
    for suite in order:
        blocks += _family(suite, [d for d in decisions if d.suite == suite],
                          [f for f in figures if f.suite == suite],
                          [(n, t) for n, t in ratios if n.split("/", 1)[0] == suite],
                          origins, conditions, diagnoses, [c for c in cliffs if c.key.suite == suite])
    if counts is not None:
        blocks += _counts_section(counts, counted, counts_charts, results, cases)
    if stress is not None:
        blocks += _stress_section(stress, verdict)
    note = budget.skipped_note()
    if note:
        blocks.append(Paragraph(note))
    floor = [c for c in cases.values() if c.key.suite in FLOOR_SUITES]
    if floor:
        blocks += [Heading(2, "Harness overhead"), *_marked(conditions),
                   Paragraph("The cost of the measurement itself: the floor under every other number."),
                   cases_table(floor, cpus, with_suite=True, origins=origins)]
    starved = starved_table(list(cases.values()), cpus, origins)
    if starved:
        blocks += [Heading(2, "Starved samples"), *_marked(conditions),
                   Paragraph("A sample is *starved* when the case completed no operation in it "
                             "(bench writes `ns_per_op=inf`, `ops=0`): e.g. the writer of "
                             "`isolation/roles` kept out by readers for a whole sample. Starved "
                             "samples count as slower than any time; a median that falls on them "
                             "reads `starved`, and on charts sits as ▲ on the panels' top edge. "
                             "With every thread on a CPU, a sample in which one thread completed none while "
                             "the others did (`thread_ops_min` 0) is counted beside it: e.g. a thread kept from a "
                             "lock the others took turn after turn. Both are what a disqualification for "
                             "starvation reads, once the samples something outside the variant explains are set "
                             "aside (the host's steal, a batch edge, threads held off their CPUs: "
                             "docs/diagnosis.md)."),
                   starved]
    latency = latency_table(list(cases.values()), cpus, origins)
    if latency:
        blocks += [Heading(2, "Latency percentiles"), *_marked(conditions),
                   Paragraph("Cases that time each operation (`once/race`, `wait/handoff`): per-sample "
                             "percentiles of one operation's latency in ns, median over samples."),
                   latency]
    named = [(f, name) for f, name in ((results, "Timings"), (counts, "Counts"), (stress, "Stress"))
             if f is not None]
    blocks += [Heading(2, "Environment"),
               environment_table(*(f for f, _ in named), names=tuple(name for _, name in named))]
    by_suite: dict[str, list[Case]] = defaultdict(list)
    for case in cases.values():
        if case.key.suite not in FLOOR_SUITES:
            by_suite[case.key.suite].append(case)
    if by_suite:
        blocks += [Heading(2, "All cases"), *_marked(conditions),
                   Paragraph("Every case's samples, median, interquartile range and fairness (the slowest "
                             "thread's operations over the busiest's, each sample's, as a median of round medians: the "
                             "figure the decision tables judge).")]
        blocks += [Details(f"{suite}: {len(by_suite[suite])} cases",
                           (cases_table(by_suite[suite], cpus, origins=origins),))
                   for suite in order]
    return blocks


def write_report(results: ResultsFile | None, out_dir: Path, pattern=None,
                 counts: CountsFile | None = None, stress: StressFile | None = None) -> Path:
    """Write report.md, report.html and the PNGs to ``out_dir`` atomically; return it.
    ``results`` (timings), ``counts``, ``stress`` or any mix, as build_report."""
    with atomic_directory(out_dir) as staging:
        blocks = build_report(results, staging, pattern, counts=counts, stress=stress)
        (staging / REPORT_MD).write_text(to_markdown(blocks), encoding="utf-8")
        title = next(b.text for b in blocks if isinstance(b, Heading))
        (staging / REPORT_HTML).write_text(to_html(blocks, staging, title), encoding="utf-8")
    return out_dir
