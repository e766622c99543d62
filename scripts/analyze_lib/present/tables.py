"""The report's reference tables: the environment, every case, latency percentiles, starved
cases, per benchmark every scenario's medians as multiples of the fastest, the counts
per operation of a counts file (beside the timing medians, and against a swept param), and
a stress file's failures, negative controls and outcomes."""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from ..judge.decisions import disqualification, role_rows
from ..judge.diagnosis import Diagnosis
from ..judge.evidence import StallFloor, zero
from ..judge.signals import fairness as fairness_level
from ..judge.stress import NO_STRESS_FAILURES, StressFailures
from .decision_table import TIE_PREFIX
from .doc import Table
from .origin_marks import NO_ORIGINS, Origins, marked, variant_module
from .proof_marks import NOT_PROVEN
from ..fmt import fmt_allocations, fmt_duration, fmt_instructions, fmt_multiple, fmt_ns, fmt_rate, fmt_seconds
from ..files.model import Case, CaseCounts, CaseKey, OutcomeCount, RunMetadata, StressResult, format_params
from ..judge.situations import FLOOR_SUITES
from ..files.schema import FORBIDDEN, STALLED_OUTCOME
from ..judge.stats import finite_median, quartiles, starved_count
from ..judge.summary import case_median, factor

# Marks a variant the decision tables disqualify (it failed a stress check, starves a role or is unfair).
DISQUALIFIED_MARK = "✗"
LATENCY_COLUMNS = ("p50_ns", "p90_ns", "p99_ns")


def _oversubscribed(key: CaseKey, logical_cpus: int) -> str:
    return " (oversubscribed)" if key.threads > logical_cpus else ""


def scenario_label(key: CaseKey, logical_cpus: int) -> str:
    """``threads:8 (oversubscribed) tokens=100``."""
    params = f" {key.params_text}" if key.params else ""
    return f"threads:{key.threads}{_oversubscribed(key, logical_cpus)}{params}"


def case_name(key: CaseKey, logical_cpus: int, with_suite: bool, origins: Origins = NO_ORIGINS) -> str:
    """The case's label (without its suite unless asked), marked with the module that brought its variant and
    when oversubscribed."""
    path, rest = key.label.split(" ", 1)
    path = marked(path if with_suite else path.split("/", 1)[1], variant_module(origins, key.suite, key.variant))
    return f"{path} {rest}{_oversubscribed(key, logical_cpus)}"


def _ratio_cell(case: Case, fastest: Case, disqualified: bool) -> str:
    mark = f" {DISQUALIFIED_MARK}" if disqualified else ""
    if case is fastest:
        return f"**1.00**{mark}"
    if math.isinf(case_median(case)):
        return "starved"
    estimate = factor(case, fastest)
    tie = TIE_PREFIX if estimate.reaches_one else ""
    return f"{tie}{fmt_multiple(estimate.ratio)}{mark}"


def which_one_tables(cases: dict[CaseKey, Case], logical_cpus: int, *,
                     cpu_share: float | None, floor: StallFloor, origins: Origins = NO_ORIGINS,
                     failed: StressFailures = NO_STRESS_FAILURES) -> list[tuple[str, Table]]:
    """Per benchmark, a table with a row per scenario (threads and params) that has two or
    more variants: the fastest variant by median, its median, and every variant's median
    as a multiple of the fastest's (prefixed ≈ when the 95% bootstrap CI of that ratio
    reaches 1, i.e. not told apart from the fastest; marked ✗ when the decision tables
    disqualify it, judged as they are: ``cpu_share``, ``floor`` (the floor the run's controls set, over the whole
    run, not the filtered ``cases``) and ``failed`` as in decisions.decide). A scenario whose
    every variant is starved has no fastest. Returns
    (``suite/benchmark``, table) pairs in case order. A brought-in variant is marked with its module."""
    rows_by_measurement = role_rows(cases.values())
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
            ranked = sorted(scenario_cases, key=lambda c: (case_median(c), c.key.variant))
            fastest = ranked[0]
            by_variant = {c.key.variant: c for c in scenario_cases}
            out = {c.key.variant: disqualification(c, rows_by_measurement, logical_cpus, cpu_share=cpu_share,
                                                   floor=floor, failed=failed) is not None
                   for c in scenario_cases}
            if math.isinf(case_median(fastest)):
                name, cells = "(all starved)", ["starved" if v in by_variant else "" for v in variants]
            else:
                mark = f" {DISQUALIFIED_MARK}" if out[fastest.key.variant] else ""
                name = f"**{marked(fastest.key.variant, variant_module(origins, suite, fastest.key.variant))}**{mark}"
                cells = [_ratio_cell(by_variant[v], fastest, out[v]) if v in by_variant else "" for v in variants]
            rows.append((scenario_label(fastest.key, logical_cpus), name,
                         fmt_ns(case_median(fastest)), *cells))
        headers = ("Scenario", "Fastest", "Median ns/op",
                   *(marked(v, variant_module(origins, suite, v)) for v in variants))
        tables.append((f"{suite}/{benchmark}", Table(headers, tuple(rows), "llr" + "r" * len(variants))))
    return tables


def _environment_rows(results) -> tuple[tuple[str, str], ...]:
    run = results.run
    dirty = {True: " (dirty)", False: "", None: " (dirty: unknown, git could not be read)"}[run["dirty"]]
    commit = run["commit"] + dirty
    return (("Host", run["host"]), ("CPUs (logical)", str(run["logical_cpus"])),
            ("CPU model", run["cpu_model"]), ("OS", f"{run['os']} (kernel {run['kernel']})"),
            ("Swift version", run["swift_version"]), ("Build", run["build"]),
            ("Allocator", run["allocator"]), ("Commit", f"`{commit}`"),
            ("Date", f"{run['started_at']:%Y-%m-%dT%H:%M:%SZ}"), ("Run id", f"`{run['run_id']}`"),
            ("Schema version", str(results.schema_version)), ("File", f"`{results.path}`"))


def environment_table(*files: RunMetadata, names: tuple[str, ...] = ()) -> Table:
    """Where the run came from: machine, toolchain, build, commit and date. Given several
    files (a timing and a counts file), a column each, headed by ``names``."""
    columns = [_environment_rows(f) for f in files]
    rows = tuple((field, *(dict(c)[field] for c in columns)) for field, _ in columns[0])
    headers = ("Field", *names) if len(files) > 1 else ("Field", "Value")
    return Table(headers, rows, "l" * len(headers))


def _iqr_text(values: np.ndarray) -> str:
    low, high = quartiles(values)
    return f"{fmt_ns(low)}–{fmt_ns(high)}"


def _samples_text(case: Case) -> str:
    starved = starved_count(case.ns_per_op)
    return f"{case.n} ({starved} starved)" if starved else str(case.n)


def cases_table(cases: list[Case], logical_cpus: int, with_suite: bool = False, origins: Origins = NO_ORIGINS) -> Table:
    """Every case: samples (and how many starved), median and IQR, plus fairness where
    recorded (signals.fairness: the slowest thread's operations over the busiest's, as the rules judge it)."""
    fairness = any(finite_median(c.columns["thread_ops_min"]) is not None for c in cases)
    headers = ["Case", "n", "Median ns/op", "IQR"]
    if fairness:
        headers.append("Thread ops min/max")
    rows = []
    for case in sorted(cases, key=lambda c: c.key.sort_key()):
        row = [case_name(case.key, logical_cpus, with_suite, origins), _samples_text(case),
               fmt_ns(case_median(case)), _iqr_text(case.ns_per_op)]
        if fairness:
            level = fairness_level(case)
            row.append(f"{level:.2f}" if level is not None else "")
        rows.append(tuple(row))
    return Table(tuple(headers), tuple(rows), "lrrl" + "r" * (len(headers) - 4))


def _share_cell(value: float | None) -> str:
    return f"{value:.0%}" if value is not None and math.isfinite(value) else ""


def _per_op_cell(value: float | None, format_value=fmt_duration) -> str:
    return format_value(value) if value is not None and math.isfinite(value) else ""


# The columns of time_split_table, after the case and its label.
TIME_SPLIT_HEADERS = ("Running", "Waiting for a CPU", "Blocked", "Running/op", "Waiting/op", "Blocked/op",
                      "Switches in/op")


def time_split_table(diagnoses: list[Diagnosis], logical_cpus: int, origins: Origins = NO_ORIGINS) -> Table | None:
    """Where each case's measured threads' time went (judge/signals.Split), beside the label the rules gave it:
    each thread's running, waiting and blocked shares, the threads' time in each per op and their switches in per
    op. None when no case records it (a file before schema 8, or from a platform without schedstat)."""
    split = sorted((d for d in diagnoses if d.signals.split is not None), key=lambda d: d.key.sort_key())
    if not split:
        return None
    rows = []
    for d in split:
        s = d.signals.split
        assert s is not None
        rows.append((case_name(d.key, logical_cpus, False, origins), d.label,
                     _share_cell(s.running), _share_cell(s.runqueue), _share_cell(s.blocked),
                     _per_op_cell(s.running_ns), _per_op_cell(s.runqueue_ns), _per_op_cell(s.blocked_ns),
                     _per_op_cell(s.switches_in, fmt_rate)))
    return Table(("Case", "Label", *TIME_SPLIT_HEADERS), tuple(rows), "ll" + "r" * len(TIME_SPLIT_HEADERS))


def latency_table(cases: list[Case], logical_cpus: int, origins: Origins = NO_ORIGINS) -> Table | None:
    """The cases that record latency percentiles (wait/handoff): median ns/op and the
    median over samples of each sample's p50/p90/p99 (None when no case has them)."""
    measured = [c for c in cases if finite_median(c.columns["p50_ns"]) is not None]
    if not measured:
        return None
    rows = []
    for case in sorted(measured, key=lambda c: c.key.sort_key()):
        cells = [finite_median(case.columns[c]) for c in LATENCY_COLUMNS]
        rows.append((case_name(case.key, logical_cpus, True, origins), _samples_text(case),
                     fmt_ns(case_median(case)),
                     *(fmt_ns(v) if v is not None else "" for v in cells)))
    return Table(("Case", "n", "Median ns/op", "p50 ns", "p90 ns", "p99 ns"), tuple(rows), "lrrrrr")


def starved_table(cases: list[Case], logical_cpus: int, origins: Origins = NO_ORIGINS) -> Table | None:
    """The cases with at least one sample in which it, or within the CPUs one of its threads, completed no operation
    (evidence.zero, what the starvation rule reads), most such samples first (None when none): per case the samples
    with no operation at all and those in which only some thread had none."""
    zeros = {c.key: int(zero(c, logical_cpus).sum()) for c in cases}
    starved = sorted((c for c in cases if zeros[c.key]), key=lambda c: (-zeros[c.key], c.key.sort_key()))
    if not starved:
        return None
    rows = tuple((case_name(c.key, logical_cpus, True, origins), f"{starved_count(c.ns_per_op)} of {c.n}",
                  f"{zeros[c.key] - starved_count(c.ns_per_op)} of {c.n}", fmt_ns(case_median(c))) for c in starved)
    return Table(("Case", "Starved samples", "Samples a thread starved in", "Median ns/op"), rows, "lrrr")


def counts_table(counted: list[CaseCounts], timings: dict[CaseKey, Case] | None, logical_cpus: int,
                 with_suite: bool = False, origins: Origins = NO_ORIGINS) -> Table:
    """Every counted case: instructions and allocations per op and, given a timing run, the
    timing median of the same case (same threads and params; empty where not timed)."""
    headers = ["Case", "Instructions/op", "Allocations/op"]
    if timings is not None:
        headers.append("Timing median ns/op")
    rows = []
    for case in sorted(counted, key=lambda c: c.key.sort_key()):
        row = [case_name(case.key, logical_cpus, with_suite, origins), fmt_instructions(case.instructions_per_op),
               fmt_allocations(case.allocations_per_op)]
        if timings is not None:
            timed = timings.get(case.key)
            row.append(fmt_ns(case_median(timed)) if timed is not None else "")
        rows.append(tuple(row))
    return Table(tuple(headers), tuple(rows), "l" + "r" * (len(headers) - 1))


def counts_by_param_table(counted: list[CaseCounts], x: str, origins: Origins = NO_ORIGINS) -> Table:
    """Instructions per op with a row per variant (and per thread count and other params,
    where they vary) and a column per value of param ``x``: the numbers a counts chart draws. A brought-in
    variant is named with its module."""
    values = sorted({c.key.params_dict[x] for c in counted})
    rows: dict[tuple, dict] = defaultdict(dict)
    for case in counted:
        others = tuple((k, v) for k, v in case.key.params if k != x)
        rows[(case.key.variant, case.key.threads, others)][case.key.params_dict[x]] = case
    several_threads = len({threads for _, threads, _ in rows}) > 1
    several_params = len({others for _, _, others in rows}) > 1

    suites = {case.key.variant: case.key.suite for case in counted}

    def name(variant: str, threads: int, others: tuple) -> str:
        parts = [marked(variant, variant_module(origins, suites[variant], variant))] + (
            [f"threads:{threads}"] if several_threads else [])
        return " ".join(parts) + (f", {format_params(others).replace(';', ', ')}" if several_params else "")

    body = []
    for (variant, threads, others), by_value in sorted(rows.items(), key=lambda kv: (
            kv[0][1], CaseKey("", "", "", 1, kv[0][2]).sort_key(), kv[0][0])):
        body.append((name(variant, threads, others),
                     *(fmt_instructions(by_value[v].instructions_per_op) if v in by_value else "" for v in values)))
    headers = ("Variant", *(format_params(((x, v),)) for v in values))
    return Table(headers, tuple(body), "l" + "r" * len(values))


# What the stress tables say of a suspected deadlock (bench's watchdog abandoned the check: none of its threads
# advanced for --watchdog seconds; before stress_schema_version 4, no iteration completed in them).
STALLED_TEXT = "abandoned: suspected deadlock (no progress within --watchdog)"
LOST_TEETH_TEXT = "check lost its teeth"
# What they say of a racy control caught only after more trials than its check's minimum.
BEYOND_MINIMUM_TEXT = "beyond the minimum: the check's power fell short in this run"


def trials_text(trials: int, minimum: int) -> str:
    """``7,000 (minimum 1,000)``: trials made beside the minimum that proves a variant."""
    return f"{trials:,} (minimum {minimum:,})"


def _check_name(result: StressResult) -> str:
    """A check's name, marked with the module that brought its variant."""
    return marked(f"`{result.check}`", result.origin)


def _outcome_name(outcome: OutcomeCount) -> str:
    name = f"`{outcome.outcome}`"
    return f"{name}: {STALLED_TEXT}" if outcome.outcome == STALLED_OUTCOME else name


def stress_failures_table(failures: list[tuple[StressResult, OutcomeCount]]) -> Table:
    """Each forbidden outcome a variant observed: check, thread count, outcome, how often and
    in how many iterations."""
    rows = tuple((_check_name(result), str(result.threads), _outcome_name(outcome), f"{outcome.count:,}",
                  f"{result.iterations:,}") for result, outcome in failures)
    return Table(("Check", "Threads", "Forbidden outcome", "Count", "Iterations"), rows, "lrlrr")


def _trials_to_catch(control: StressResult) -> str:
    """A caught control's trials to its first forbidden outcome against its check's minimum, a racy one caught only
    beyond it marked; a deterministic one is caught at any trial count, so its minimum is not a bar for it."""
    if control.trials_to_first_forbidden is None or control.minimum_trials is None:
        return ""
    text = trials_text(control.trials_to_first_forbidden, control.minimum_trials)
    return f"**{text}: {BEYOND_MINIMUM_TEXT}**" if control.racy and control.caught_beyond_minimum else text


def stress_controls_table(controls: list[StressResult]) -> Table:
    """Each negative control: whether its check caught it, how fast (bench stops a control
    at its first forbidden outcome), its iterations and the forbidden outcomes seen. A
    control never caught reads "check lost its teeth". A file with trial counts (stress_schema_version 4 on) adds
    each control's kind and its trials to the first forbidden outcome against its check's minimum: a racy control
    caught only beyond it is marked (the check's power fell short in this run)."""
    counted = any(c.trials is not None for c in controls)
    rows = []
    for control in controls:
        if control.caught:
            caught, after = "yes", fmt_seconds(control.seconds_to_first_forbidden)
        else:
            reason = STALLED_TEXT if control.stalled else LOST_TEETH_TEXT
            caught, after = f"**no: {reason}**", f"never, in {fmt_seconds(control.seconds)}"
        seen = ", ".join(f"`{o.outcome}` {o.count:,}" for o in control.forbidden
                         if o.outcome != STALLED_OUTCOME)
        kind = (control.control_kind or "",) if counted else ()
        trials = (_trials_to_catch(control),) if counted else ()
        rows.append((_check_name(control), *kind, str(control.threads), caught, after, *trials,
                     f"{control.iterations:,}", seen or "none"))
    if counted:
        return Table(("Control", "Kind", "Threads", "Caught", "First caught after", "Trials to first caught",
                      "Iterations", "Forbidden outcomes seen"), tuple(rows), "llrlrrrl")
    return Table(("Control", "Threads", "Caught", "First caught after", "Iterations", "Forbidden outcomes seen"),
                 tuple(rows), "lrlrrl")


def stress_unproven_table(results: list[StressResult]) -> Table:
    """The variant checks that made fewer trials than their minimum at a thread count: not proven there, so the
    report recommends their variant over no proven one."""
    rows = tuple((_check_name(r), str(r.threads), f"**{trials_text(r.trials or 0, r.minimum_trials or 0)}**",
                  f"{r.iterations:,}", f"{r.seconds:.2f} s") for r in results)
    return Table(("Check", "Threads", "Trials", "Iterations", "Seconds"), rows, "lrrrr")


def stress_slow_table(results: list[StressResult]) -> Table:
    """The checks whose iterations took longer than --watchdog while their threads still advanced: slow, not stuck
    (acceptable-interesting), with how many iterations were, of how many, in how long."""
    rows = tuple((_check_name(r), str(r.threads), f"{r.slow_iterations:,}", f"{r.iterations:,}",
                  f"{r.seconds:.2f} s") for r in results)
    return Table(("Check", "Threads", "Slow iterations", "Iterations", "Seconds"), rows, "lrrrr")


def _trials_cell(result: StressResult) -> str:
    """A slot's trials beside its minimum, bold and marked not proven when below it."""
    if result.trials is None or result.minimum_trials is None:
        return ""
    text = trials_text(result.trials, result.minimum_trials)
    return f"**{text}: {NOT_PROVEN}**" if result.below_minimum else text


def stress_outcomes_table(results: list[StressResult]) -> Table:
    """The variant checks' outcomes: per check a row of its iterations (and seconds), one of its trials against
    its minimum (a file with trial counts; bold and marked not proven below it), one of what a trial is and what N
    threads mean to the check (a file of version 5 on), then a
    row per outcome with its grade, and a column per thread count. A count is 0 where the
    check ran at that thread count without observing the outcome, empty where it did not
    run; forbidden counts are bold."""
    threads = sorted({r.threads for r in results})
    by_check: dict[str, dict[int, StressResult]] = defaultdict(dict)
    for result in results:
        by_check[result.check][result.threads] = result
    rows = []
    for runs in by_check.values():
        rows.append((_check_name(next(iter(runs.values()))), "iterations", "",
                     *(f"{runs[t].iterations:,} in {runs[t].seconds:.2f} s" if t in runs else "" for t in threads)))
        if any(r.trials is not None for r in runs.values()):
            rows.append(("", "trials", "", *(_trials_cell(runs[t]) if t in runs else ""
                                                               for t in threads)))
        meaning = next(iter(runs.values()))
        if meaning.trial and meaning.threads_meaning:
            rows.append(("", "what it counts", f"a trial is one {meaning.trial}; N threads: {meaning.threads_meaning}",
                         *("" for _ in threads)))
        grades = {o.outcome: o.grade for r in runs.values() for o in r.outcomes}
        for outcome, grade in grades.items():
            forbidden = grade == FORBIDDEN
            cells = []
            for t in threads:
                if t not in runs:
                    cells.append("")
                    continue
                count = next((o.count for o in runs[t].outcomes if o.outcome == outcome), 0)
                cells.append(f"**{count:,}**" if forbidden and count else f"{count:,}")
            rows.append(("", f"`{outcome}`", f"**{grade}**" if forbidden else grade, *cells))
    headers = ("Check", "Outcome", "Grade", *(f"threads:{t}" for t in threads))
    return Table(headers, tuple(rows), "lll" + "r" * len(threads))
