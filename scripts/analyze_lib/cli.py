"""The command line: a thin argparse front over report, compare, gate, export, budget and history.

``main(argv)`` returns the exit code (their meanings: exit_codes.ANALYZE_EXIT_CODES). compare and gate take timing
files or counts files (bench count); report any mix of a timing, a counts and a stress file (bench stress); headers
tell them apart.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

from .argtypes import checked_number, significance_level
from .judge.compare import DEFAULT_ALPHA, DEFAULT_THRESHOLD_PERCENT, build_comparison
from .judge.paired import PAIRED_MIN_EFFECT_PERCENT
from .judge.counts_compare import (
    DEFAULT_ALLOCATIONS_TOLERANCE,
    DEFAULT_INSTRUCTIONS_TOLERANCE_PERCENT,
    build_counts_comparison,
)
from .exit_codes import (ANALYZE_EXIT_CODES, ANALYZE_PRECEDENCE_NOTE, EXIT_BAD_INPUT, EXIT_INCOMPLETE,
                         EXIT_INCONCLUSIVE, EXIT_OK, EXIT_REGRESSION, exit_codes_help)
from .judge.budgets import BUDGET_HEADROOM_PERCENT, BUDGETS_FILE, budget_rows, check_budgets, read_budgets
from .judge.change_points import COUNT_STEP_PERCENT, MIN_RUNS
from .judge.change_points import MAX_P as CHANGE_POINT_MAX_P
from .present.budget_text import budget_text
from .present.counts_render import COUNTS_RENDERERS
from .files.errors import AnalyzeError
from .judge.gate import decide_counts_gate, decide_gate
from .present.export import EXPORT_FORMATS, export_document
from .files.loader import load_any
from .files.model import CountsFile, ResultsFile, StressFile, filter_cases
from .present.render import FORMATS, RENDERERS
from .files.schema import COUNTS, STRESS, TIMING

PROG = "analyze"

EXIT_CODES_HELP = exit_codes_help(ANALYZE_EXIT_CODES, ANALYZE_PRECEDENCE_NOTE)

GATE_DESCRIPTION = (
    " The gate passes only when it could have failed: base cases missing from head fail it "
    f"(exit {EXIT_INCOMPLETE}; --allow-missing for a head filtered on purpose), undetectable "
    f"cases are listed and not judged, and when no case can be decided, or what it could not judge "
    f"stands against a pass, it is inconclusive (exit {EXIT_INCONCLUSIVE}). Cases only in head are listed, never "
    "failing. With counts files "
    f"the gate fails (exit {EXIT_REGRESSION}) when a case is worse; better cases are listed and do "
    "not fail it.")

ROUNDS_DESCRIPTION = (
    " With rounds (bench --rounds N, at least 2 a side) a case is judged on the between-round "
    "evidence instead: the ratio of the medians of round medians, slower or faster when an exact "
    "Mann-Whitney U test on the round medians is significant after Benjamini-Hochberg over all such "
    "cases at false discovery rate alpha and the change is at least the threshold (the ratio's "
    "hierarchical bootstrap CI is shown). Among m cases a change in one case alone is called only at "
    "p <= alpha/m: a case whose rounds cannot give so small a p (at 0.01 and the full suite, fewer "
    "than 10 rounds a side) is undetectable, and a note names the rounds needed. A case whose rounds' "
    "noise floor reaches the threshold is unstable, one whose samples fall in two levels bimodal: "
    "both are listed and not gated. With one round a side the output notes that one process's "
    "samples cannot show between-process variance.")

PAIRED_DESCRIPTION = (
    " The files of a paired comparison (scripts/bench-commits --paired: each sample records its round and "
    "pair) are judged on the log ratios of their pairs instead: the change is the 15% trimmed mean over rounds "
    "of each round's median, read on Student's t (Yuen's degrees of freedom) with a bootstrap standard error, "
    "slower or faster when significant after Holm's procedure over all paired cases at alpha (the chance that "
    "any unchanged case is called is at most alpha, however many did change) and the change is at least the "
    "threshold. Each case shows its resolution: the smallest change it could call alone.")

OUTPUT_DESCRIPTION = (
    " Per suite, the geometric mean of its cases' ratios with a CI from a bootstrap over rounds (each run's "
    "rounds drawn once for all the suite's cases; none without rounds). The output states what was "
    "checked, what could not be and the one thing to do (first in Markdown, last in text); cases are "
    "counted by row, so a case measured once per role (role=read, role=write) counts once per role. "
    "A starved median (no operation completed in half the samples) reads 'starved', and the ratio it "
    "gives '∞ (head starved)' or '0 (base starved)'.")

COUNTS_DESCRIPTION = (
    " Counts files (bench count: instructions and allocations per op) are compared exactly: "
    "a case is worse or better, regardless of any p-value, when its instructions/op changed by more "
    "than --instructions-tolerance percent of base or its allocations/op by at least "
    "--allocations-tolerance, in either direction (fewer is reported too: an unexplained "
    "improvement is a finding). Both files must be of one kind: timing or counts.")

RULE_LINK = " The rule, stated once: docs/comparison-rule.md."

DESCRIPTION = ("Analyse DispatchBench results CSVs: timing files (bench: one row per sample; metric "
               "ns_per_op, lower is better), counts files (bench count: one row per case; "
               "instructions and allocations per op) and stress files (bench stress: one row per "
               "check, thread count and outcome; report only), told apart by their headers.")


_threshold = checked_number(float, "a percentage in [0, 1000)", lambda value: 0 <= value < 1000)
_alpha = significance_level
_allocations = checked_number(float, "a number of allocations per op, at least 0",
                              lambda value: math.isfinite(value) and value >= 0)


def _pattern(text: str | None):
    if text is None:
        return None
    try:
        return re.compile(text)
    except re.error as error:
        raise AnalyzeError(f"--filter: invalid regular expression {text!r}: {error}") from None


def _add_rule_options(parser: argparse.ArgumentParser, counts: bool = False) -> None:
    """The options that judge a change. With ``counts`` (compare, gate) the timing options
    default to None, so that giving one for counts files, or a counts option for timing
    files, is told apart from leaving it out (_refuse_options refuses it)."""
    timing = " (timing files)" if counts else ""
    parser.add_argument("--threshold", type=_threshold, default=None if counts else DEFAULT_THRESHOLD_PERCENT,
                        metavar="PERCENT",
                        help=f"smallest change that counts, in percent (default {DEFAULT_THRESHOLD_PERCENT:g}; "
                             f"{PAIRED_MIN_EFFECT_PERCENT:g} for the files of a paired comparison)" + timing)
    parser.add_argument("--alpha", type=_alpha, default=None if counts else DEFAULT_ALPHA,
                        help=f"significance level of the test (Mann-Whitney U; Student's t for paired files), "
                             f"and 1 - the confidence of "
                             f"every interval shown (default {DEFAULT_ALPHA:g}: 99%% intervals)"
                             + timing)
    if counts:
        parser.add_argument("--instructions-tolerance", type=_threshold, metavar="PCT",
                            help="counts files: an instructions/op change of more than this, in percent of "
                                 f"base, is a change (default {DEFAULT_INSTRUCTIONS_TOLERANCE_PERCENT:g}; "
                                 "0: any difference)")
        parser.add_argument("--allocations-tolerance", type=_allocations, metavar="N",
                            help="counts files: an allocations/op change of at least this is a change "
                                 f"(default {DEFAULT_ALLOCATIONS_TOLERANCE:g}; 0: any difference)")
    parser.add_argument("--filter", metavar="REGEX",
                        help="only cases whose suite/benchmark/variant matches (re.search)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (usage errors exit 2, as argparse does by default)."""
    parser = argparse.ArgumentParser(
        prog=PROG, description=DESCRIPTION, epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    report = commands.add_parser(
        "report", help="charts, a which-one-to-use table and the environment of one run",
        description=("Write DIR/report.md, a self-contained DIR/report.html and PNG charts. Give at most "
                     "one file of each kind, in any order (told apart by their headers): a timing file, "
                     "a counts file (bench count), a stress file (bench stress); several stress files "
                     "are not merged. With a counts file the report adds a table of instructions/op and "
                     "allocations/op beside the one-thread timing medians, and charts of instructions/op "
                     "against each benchmark's swept parameter (once/hit: tokens). With a stress file it "
                     "adds a Stress checks section: forbidden outcomes in variants listed first as "
                     "failures (or '0 forbidden outcomes in N checks'), the negative controls with the "
                     "time each took to be caught (one never caught: 'check lost its teeth'), the checks "
                     "below their minimum trials, abandoned or slow, and every check's trials and outcomes "
                     "per thread count. --filter matches the check names there. A variant the stress file "
                     "does not prove (a check below its minimum or abandoned, none in the file, or no stress "
                     "file) is marked 'not proven' and never recommended over a proven one (docs/analyze.md). "
                     "The report exits 0 whatever it shows: bench stress's own exit status is the gate."),
        epilog=EXIT_CODES_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    report.add_argument("files", nargs="+", metavar="CSV",
                        help="a timing results CSV, a counts CSV, a stress CSV, or one of each kind")
    report.add_argument("--out", metavar="DIR",
                        help="output directory (default: report-<stem of the first CSV>/ beside that CSV)")
    report.add_argument("--filter", metavar="REGEX",
                        help="only cases whose suite/benchmark/variant matches, and stress checks whose "
                             "name (family/variant/check, control/... for controls) matches (re.search)")

    for name, summary in (("compare", "compare two runs case by case"),
                          ("gate", "compare, then fail if a case is slower (or worse, counts) or missing from "
                                   "head, or if no case can be decided")):
        extra = GATE_DESCRIPTION if name == "gate" else ""
        sub = commands.add_parser(
            name, help=summary,
            description=(f"{summary[0].upper()}{summary[1:]}: per case the head/base ratio of "
                         "median ns/op with its bootstrap CI at confidence 1 - alpha (99% at the default "
                         "--alpha), a two-sided Mann-Whitney U "
                         "p-value and a verdict. A case is slower or faster only when "
                         "p < alpha and the change is at least the threshold; a case with too "
                         "few samples for p < alpha is undetectable." + ROUNDS_DESCRIPTION + PAIRED_DESCRIPTION
                         + OUTPUT_DESCRIPTION + extra
                         + COUNTS_DESCRIPTION + RULE_LINK),
            epilog=EXIT_CODES_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.add_argument("base", metavar="BASE.csv")
        sub.add_argument("head", metavar="HEAD.csv")
        _add_rule_options(sub, counts=True)
        sub.add_argument("--format", choices=FORMATS, default="text" if name == "compare" else "md",
                         help="output format (default: %(default)s)")
        if name == "gate":
            sub.add_argument("--allow-missing", action="store_true",
                             help="do not fail when base cases are missing from head (head was "
                                  "run with a --filter on purpose); they are still listed")

    export = commands.add_parser(
        "export", help="one run as JSON for github-action-benchmark or Bencher",
        description=("Write one timing or counts file as JSON for a dashboard. --format github: "
                     "github-action-benchmark's customSmallerIsBetter list of {name, unit, value, range, "
                     "extra}; --format bencher: Bencher Metric Format {name: {measure: {value, lower_value, "
                     "upper_value}}}. Timing: median ns/op per case (median of round medians with "
                     "rounds), the IQR as range or bounds, Bencher measure latency. Counts: "
                     "instructions/op and allocations/op (Bencher measures instructions and "
                     "allocations). A case with a starved median is left out with a warning."),
        epilog=EXIT_CODES_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    export.add_argument("file", metavar="CSV", help="a timing or a counts results CSV")
    export.add_argument("--format", choices=EXPORT_FORMATS, required=True, help="github or bencher")
    export.add_argument("--out", metavar="PATH", help="write here instead of stdout")
    export.add_argument("--filter", metavar="REGEX",
                        help="only cases whose suite/benchmark/variant matches (re.search)")

    budget = commands.add_parser(
        "budget", help="hold a counts file's built-in cases to their instruction budgets",
        description=("Hold each built-in case of a counts file (bench count) to its instruction budget per "
                     f"operation, recorded once in {BUDGETS_FILE} with the count it was set from and the "
                     f"reason: a case that counts more than {BUDGET_HEADROOM_PERCENT:g}% over its recorded count, "
                     "or a built-in case counted without a budget, fails (exit 1). Counts are exact for a binary, "
                     "so a case over budget does more work per operation than was recorded: a call through a "
                     "witness table, a lost specialization. A case more than as far under its budget is named, "
                     "not failed. A package's own variants have no budgets. With --record, the cases the check "
                     "names are recorded at their counts with the reason given, and the file is rewritten "
                     "(docs/counts.md#instruction-budgets)."),
        epilog=EXIT_CODES_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    budget.add_argument("file", metavar="COUNTS.csv", help="a counts file (bench count), counted as the budgets "
                                                          "were (bench count --quick)")
    budget.add_argument("--budgets", metavar="CSV", default=str(BUDGETS_FILE),
                        help="the budgets file (default: %(default)s, from the current directory)")
    budget.add_argument("--filter", metavar="REGEX",
                        help="only cases whose suite/benchmark/variant matches (re.search)")
    budget.add_argument("--record", metavar="REASON",
                        help="record the cases over, far under or without a budget at their counts, with this "
                             "reason (why the count changed), then check again")

    history = commands.add_parser(
        "history", help="trend charts, steps and change points over many runs",
        description=("Order runs by started_at (timing files and counts files, each kind a series of its own), "
                     "chart each benchmark's medians over them and list the steps: consecutive timing runs whose "
                     "comparison is significant. Then the change points: the runs from which a case's level "
                     f"shifted and stayed, at least {MIN_RUNS} runs on each side, each marked on its case's chart "
                     "with the commit, its subject line and the command that would find the commit "
                     "(scripts/bench-commits bisect GOOD BAD -- --filter '^case$', GOOD the commit of the last run "
                     "before, BAD of the first after). ruptures' kernel change point detection proposes them; a "
                     f"timing one stands when Student's t on the runs either side gives p < {CHANGE_POINT_MAX_P:g} "
                     "and the shift is at least --threshold, a count one when every run after it moved by more "
                     f"than {COUNT_STEP_PERCENT:g}% of instructions/op (or the allocations tolerance). Unchanged "
                     "series of 12 independent runs show a false one about once in 100 at a 10% spread, more "
                     "where a case's runs fall on two levels (docs/analyze.md#change-points). A file that cannot "
                     "be used (header only, unreadable, unknown schema, a stress file) is skipped with a warning; "
                     "it fails only when no file is usable." + RULE_LINK),
        epilog=EXIT_CODES_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    history.add_argument("inputs", nargs="+", metavar="CSV|DIR",
                         help="results CSVs, or directories whose *.csv are all used")
    _add_rule_options(history)
    history.add_argument("--out", metavar="DIR",
                         help="output directory (default: history/ beside the first CSV)")
    return parser


def _warn(message: str) -> None:
    print(f"{PROG}: warning: {message}", file=sys.stderr)


def _load(path) -> ResultsFile | CountsFile | StressFile:
    """Load one timing, counts or stress file; what the loader worked around goes to stderr
    as warnings."""
    results = load_any(path)
    for warning in results.warnings:
        _warn(warning)
    if results.incomplete:
        _warn(incomplete_text(results))
    return results


def incomplete_text(loaded) -> str:
    """The sentence that names an incomplete file (a loaded file whose ``incomplete`` is set)."""
    return f"{loaded.path} is INCOMPLETE: {loaded.incomplete}"


def _incomplete_lines(files, fmt: str) -> str:
    """The first lines of compare's and gate's text and Markdown output: one per incomplete
    file (JSON has the gate's head_incomplete, and stderr names every incomplete file)."""
    named = [incomplete_text(f) for f in files if f.incomplete]
    if not named or fmt == "json":
        return ""
    prefix = "> **Warning:** " if fmt == "md" else "Warning: "
    return "".join(f"{prefix}{text}\n" for text in named) + "\n"


def _load_usable(paths: list[Path]) -> tuple[list[ResultsFile], list[CountsFile]]:
    """Load every timing and counts file that can be loaded, skipping the others with a one-line
    warning (a directory of nightly results may hold an interrupted, header-only file, or a stress
    file: history follows timings and counts).

    Raises AnalyzeError when nothing usable remains: the loader's own error for a
    single input, else a summary after the warnings.
    """
    runs: list[ResultsFile] = []
    counts: list[CountsFile] = []
    for path in paths:
        try:
            loaded = _load(path)
            _refuse_stress(loaded, "history")
        except AnalyzeError as error:
            if len(paths) == 1:
                raise
            _warn(f"skipped {error}")
            continue
        if isinstance(loaded, CountsFile):
            counts.append(loaded)
        elif isinstance(loaded, ResultsFile):
            runs.append(loaded)
    if not runs and not counts:
        raise AnalyzeError(f"no usable results file: all {len(paths)} inputs were skipped "
                           "(see the warnings above)")
    return runs, counts


def _kind(loaded) -> str:
    if isinstance(loaded, StressFile):
        return STRESS
    return COUNTS if isinstance(loaded, CountsFile) else TIMING


def _refuse_stress(loaded, command: str) -> None:
    """compare, gate and export judge timings or counts; a stress file has neither."""
    if isinstance(loaded, StressFile):
        raise AnalyzeError(f"{command} takes timing or counts files; this is a stress file (bench stress): "
                           "see its outcomes with `analyze report`", loaded.path)


def _given(value, default):
    """An option's value, or ``default`` when it was not given (None)."""
    return default if value is None else value


def _refuse_options(args, names: tuple[str, ...], kind: str, instead: str) -> None:
    """Refuse options that do not apply to ``kind`` files rather than ignore them."""
    for name in names:
        if getattr(args, name) is not None:
            option = "--" + name.replace("_", "-")
            raise AnalyzeError(f"{option} does not apply to {kind} files (they are judged by {instead})")


def _compare(args, gate: bool) -> int:
    pattern = _pattern(args.filter)
    base, head = _load(args.base), _load(args.head)
    for loaded in (base, head):
        _refuse_stress(loaded, args.command)
    if _kind(base) != _kind(head):
        raise AnalyzeError(f"{base.path} is a {_kind(base)} file but {head.path} is a {_kind(head)} file: "
                           "compare two timing files or two counts files")
    if isinstance(base, CountsFile):
        _refuse_options(args, ("threshold", "alpha"), "counts",
                        "--instructions-tolerance and --allocations-tolerance")
        counts = build_counts_comparison(
            base, head, _given(args.instructions_tolerance, DEFAULT_INSTRUCTIONS_TOLERANCE_PERCENT),
            _given(args.allocations_tolerance, DEFAULT_ALLOCATIONS_TOLERANCE), pattern)
        counts_decision = decide_counts_gate(counts, args.allow_missing, head.incomplete) if gate else None
        sys.stdout.write(_incomplete_lines((base, head), args.format)
                         + COUNTS_RENDERERS[args.format](counts, gate=counts_decision))
        return counts_decision.exit_code if counts_decision is not None else EXIT_OK
    _refuse_options(args, ("instructions_tolerance", "allocations_tolerance"), "timing", "--threshold and --alpha")
    comparison = build_comparison(base, head, args.threshold,
                                  _given(args.alpha, DEFAULT_ALPHA), pattern)
    decision = decide_gate(comparison, args.allow_missing, head.incomplete) if gate else None
    sys.stdout.write(_incomplete_lines((base, head), args.format)
                     + RENDERERS[args.format](comparison, gate=decision))
    return decision.exit_code if decision is not None else EXIT_OK


REPORT_INPUTS = "report takes at most one timing file, one counts file and one stress file"


def _report_inputs(paths: list[str]) -> tuple[ResultsFile | None, CountsFile | None, StressFile | None]:
    """At most one timing, one counts and one stress file, in any order. Two stress files
    are refused rather than merged: two runs' outcomes in one table would hide which run
    saw what."""
    if len(paths) > 3:
        raise AnalyzeError(f"{REPORT_INPUTS}, not {len(paths)} files")
    loaded = [_load(path) for path in paths]
    for index, later in enumerate(loaded):
        earlier = next((f for f in loaded[:index] if _kind(f) == _kind(later)), None)
        if earlier is not None:
            raise AnalyzeError(f"{earlier.path} and {later.path} are both {_kind(later)} files: {REPORT_INPUTS}")
    timing = next((f for f in loaded if isinstance(f, ResultsFile)), None)
    counts = next((f for f in loaded if isinstance(f, CountsFile)), None)
    stress = next((f for f in loaded if isinstance(f, StressFile)), None)
    return timing, counts, stress


def _report(args) -> int:
    from .present.report import default_report_dir, write_report

    pattern = _pattern(args.filter)
    results, counts, stress = _report_inputs(args.files)
    out = Path(args.out) if args.out else default_report_dir(args.files[0])
    written = write_report(results, out, pattern, counts=counts, stress=stress)
    print(f"wrote {written}")
    return EXIT_OK


def _history(args) -> int:
    from .files.commits import subject_reader
    from .present.history import collect_inputs, default_history_dir, write_history

    pattern = _pattern(args.filter)
    paths = collect_inputs(args.inputs)
    runs, counts = _load_usable(paths)
    out = Path(args.out) if args.out else default_history_dir(paths)
    # A commit's subject from the repository the runs are kept in, else the one history runs in.
    subjects = subject_reader([paths[0].resolve().parent, Path.cwd()])
    written = write_history(runs, out, args.threshold, args.alpha, pattern, counts, subjects)
    print(f"wrote {written}")
    return EXIT_OK


def _budget(args) -> int:
    counts = _load(args.file)
    if not isinstance(counts, CountsFile):
        raise AnalyzeError(f"{counts.path} is a {_kind(counts)} file: budget takes a counts file (bench count)")
    counts.cases = filter_cases(counts.cases, _pattern(args.filter))
    path = Path(args.budgets)
    try:
        text = path.read_text()
    except OSError as error:
        raise AnalyzeError(f"{path}: cannot read the budgets ({error.strerror})") from None
    budgets = read_budgets(text, str(path))
    check = check_budgets(counts, budgets)
    if args.record is not None:
        if not args.record.strip():
            raise AnalyzeError("--record needs a reason: why the counts changed")
        named = [budget.key for budget, _ in (*check.over, *check.under)] + [key for key, _ in check.unbudgeted]
        path.write_text(budget_rows(counts, named, args.record.strip(), budgets))
        print(f"recorded {len(named)} budget(s) in {path}", file=sys.stderr)
        check = check_budgets(counts, read_budgets(path.read_text(), str(path)))
    sys.stdout.write(budget_text(check, str(path)))
    return EXIT_OK if check.passed else EXIT_REGRESSION


def _export(args) -> int:
    loaded = _load(args.file)
    _refuse_stress(loaded, "export")
    pattern = _pattern(args.filter)
    loaded.cases = filter_cases(loaded.cases, pattern)
    if not loaded.cases:
        raise AnalyzeError(f"{loaded.path}: no case to export"
                           + (" matching --filter" if pattern is not None else ""))
    document, warnings = export_document(loaded, args.format)
    for warning in warnings:
        _warn(warning)
    text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    if args.out:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (see EXIT_CODES_HELP)."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "compare":
            return _compare(args, gate=False)
        if args.command == "gate":
            return _compare(args, gate=True)
        if args.command == "report":
            return _report(args)
        if args.command == "export":
            return _export(args)
        if args.command == "budget":
            return _budget(args)
        return _history(args)
    except AnalyzeError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
