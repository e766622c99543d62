"""The command line of scripts/bench-commits: parse, resolve the revisions, set up the worktrees, run, and
print the comparison (or the gate check's table). ``main(argv)`` returns the exit code."""

from __future__ import annotations

import argparse
import datetime
import hashlib
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

from analyze_lib.argtypes import checked_number, significance_level
from analyze_lib.judge.compare import DEFAULT_ALPHA
from analyze_lib import exit_codes
from analyze_lib.exit_codes import BENCH_COMMITS_EXIT_CODES, BENCH_COMMITS_PRECEDENCE_NOTE, exit_codes_help
from analyze_lib.present.doc import markdown_table
from analyze_lib.present.control_text import control_headline, control_markdown
from analyze_lib.present.gate_text import code_headline
from analyze_lib.present.render import resolution_table
from . import abba_plan, brought_in, case_selection, gate_check, git, package_manifest, paired_plan, same_code, \
    verdict
from .bench_options import check_bench_options, filter_option, with_filter, without_filter
from .build_cache import BuildCache, cache_directory, toolchain_version
from .errors import ComparisonError
from .paired import run_paired
from .run import PROG, AnalyzeError, Builder, Built, Interrupted, Side, build, count_functions, counts_markdown, \
    control_of, elapsed_text, observe, run_counts, run_rounds, say, timing_markdown
from .sides import SIDE_A, SIDE_B, result_paths, short, side_names


RESULTS_DIR = "Results"
# The verdict line's words for a paired comparison whose rounds ran from copies of the builds, not fresh links.
FROM_COPIES_HEADLINE = "layout not shuffled: rounds ran from copies of the builds, not fresh links"
SEED_RANGE = (1, 2**31 - 1)

DESCRIPTION = """\
Compare two commits of a package on this machine: DispatchBench itself, or a package of yours that
depends on it and runs DispatchBench.main (--product; run this from your package's directory, where it
finds the package and writes Results/). Each revision is resolved to a commit, checked out in a
detached git worktree under a temporary directory and built there (swift build -c release --product
bench, or yours, with its own .build: your working tree and .build are not touched). A build is kept by
commit, toolchain and product in ~/.cache/dispatchbench/builds and reused by later runs (--rebuild
builds afresh). The two binaries
then run side by side (paired, below), and scripts/analyze's gate compares them: the
comparison's Markdown goes to stdout, progress to stderr, and the exit code is the gate's. Unless
--no-count, `bench count` runs once per side and its instructions and allocations per op are gated
exactly (skipped with a note when valgrind is missing, and not run when the code is the same).

Same code first: each build's code identity (every section the program loads, of every object it
links, and the toolchain, build and link commands, manifest and resolved dependencies) is computed once
and kept with the build. When the two are equal, every case runs identical code and is "unchanged:
same code", and only a control of every case in a few paired rounds is timed (a suite it finds moved
slower still fails); else the changed sections are named, and only the cases that can run them are timed:
each case's footprint (the functions its loop ran under callgrind, bench count --functions, and all
they refer to) is held against the changed functions, and a change to the harness, to what no footprint
holds, or to the toolchain or manifest times every case. --all times every case anyway; --what-changed
times nothing (docs/comparison-rule.md#same-code-before-anything-is-timed and
#which-cases-run-changed-code).

Paired, by default: the two builds alternate sample by sample, one worker process per build and
round, fresh every round and started from a link of its build made for that round, its code and data
in an order lld shuffles anew (below, and docs/bench-commits.md#the-paired-comparison). Each pair of
samples is taken side by side, so a drift of the machine moves both, and the gate decides on the
ratios of the pairs.

--abba instead runs whole rounds, one fresh process each: pair i runs base then head when i is odd,
head then base when even (A B B A A B ...). The gate then decides on the spread between rounds, and
among the full suite's cases it decides together, a change in one case alone needs 10 rounds a side (the
default --pairs). It resolves less than the paired mode on a shared machine (docs/paired-design.md) and is
kept for comparing with runs of it made before. One seed shuffles the case order of every round
(printed; --seed to reproduce). The rule, stated once: docs/comparison-rule.md; this tool and CI:
docs/bench-commits.md.

Files: Results/<UTC stamp>-<short base>.csv and -<short head>.csv (-<short>-a/-b when both sides are
one commit), counts-<stamp>-<short>.csv for the counts; -2, -3, ... when a name is taken, never
overwritten. Bench options after `--` go to every timed round (and --filter to bench count too).

Gate check (--check-gate): builds HEAD once and compares it with itself three times, N pairs each: plain
(A/A: must flag nothing), then with `--spin-scale 1.25` and `--spin-scale 1.10` on side B, 1.00 on A (must flag
nothing but harness/spin and never call it faster; at 1.25 one harness/spin row at least must be called
slower; rows not called slower are named with their outcome and noise floor, which is what the gate
resolves on this runner). With --quick (paired) the planted factors are 3 (must be called) and 1.25: a
quick paired run's few rounds resolve only large changes. It prints a table of what it saw and the wall
time of each comparison: run it on your own runner to learn what the gate resolves there. No counts.
--plant F runs only one comparison, `--spin-scale F` on side B, judged as a planted slowdown: for a
series of planted comparisons, one seed each.

Time: about two bench runs of as many rounds (every case, twice), plus a release build per commit and
bench count unless --no-count (docs/bench-commits.md).
"""

EPILOG = exit_codes_help(BENCH_COMMITS_EXIT_CODES, BENCH_COMMITS_PRECEDENCE_NOTE)


_pairs = checked_number(int, "at least 1", lambda value: value >= 1)
_seed = checked_number(int, f"in {SEED_RANGE[0]}..{SEED_RANGE[1]}",
                       lambda value: SEED_RANGE[0] <= value <= SEED_RANGE[1])
_milliseconds = checked_number(float, "0.1 to 60000 milliseconds", lambda value: 0.1 <= value <= 60_000)
_minutes = checked_number(float, "0 to 1440 minutes", lambda value: 0 <= value <= 24 * 60)
_slowdown = checked_number(float, "a slowdown factor above 1, at most 100", lambda value: 1 < value <= 100)
PAIRED_ONLY_OPTIONS = ("rounds", "max_rounds", "visit_pairs", "sample_time", "budget", "placement")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (usage errors exit 2)."""
    parser = argparse.ArgumentParser(
        prog=PROG, usage=f"{PROG} BASE HEAD [--product NAME] [--quick] [--rounds R] [--max-rounds M] "
                         f"[--visit-pairs N] [--sample-time MS] [--budget MIN] [--placement P] [--no-count] [--all] "
                         f"[--rebuild] [--keep] [--seed S] [-- bench options]\n"
                         f"       {PROG} BASE HEAD --what-changed [--product NAME] [--rebuild] [--keep]\n"
                         f"       {PROG} BASE HEAD --abba [--product NAME] [--quick] [--pairs N] [--no-count] "
                         f"[--rebuild] [--keep] [--seed S] [-- bench options]\n"
                         f"       {PROG} --check-gate [--abba] [--product NAME] [--quick] [--pairs N] [--plant F] "
                         "[--seed S]",
        description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revisions", nargs="*", metavar="REV", help="BASE and HEAD: any git revision of a commit")
    parser.add_argument("--product", metavar="NAME",
                        help="the executable product to build and run at each commit: one whose main is "
                             "DispatchBench.main, as a package that brings its own patterns has (default: "
                             f"{package_manifest.OWN_PRODUCT} in DispatchBench itself; in your package, its one "
                             "executable that depends on DispatchBench). In your package, a comparison that would "
                             "measure none of its variants (a product or a --filter that selects none) stops "
                             "before timing anything, exit 2 (docs/gate-your-own-package.md)")
    parser.add_argument("--quick", action="store_true", help="bench --quick in every round (and bench count --quick)")
    parser.add_argument("--abba", action="store_true",
                        help="compare whole rounds in ABBA order instead of paired runs (the former default)")
    parser.add_argument("--pairs", type=_pairs, metavar="N",
                        help=f"with --abba: ABBA pairs, i.e. rounds per side (default {abba_plan.DEFAULT_PAIRS}: "
                             "the fewest that let the gate call a change in one case alone among the full suite's "
                             "cases; with fewer it is inconclusive, exit 4, unless --filter selects few cases; it "
                             f"judges rounds from {abba_plan.MIN_DECIDING_PAIRS})")
    parser.add_argument("--no-count", action="store_true", help="skip bench count and the exact counts gate")
    parser.add_argument("--all", action="store_true",
                        help="time every case as a changed one, even when the two builds run identical code (by "
                             "default a same-code comparison times only a control of "
                             f"{same_code.CONTROL_ROUNDS} paired rounds, judged suite by suite; --rounds 10 judges "
                             "each case: docs/comparison-rule.md#the-control-of-identical-code)")
    parser.add_argument("--what-changed", action="store_true",
                        help="build both commits, say whether they run the same code and what differs (the "
                             "changed sections and their symbols), and time nothing; exit 0")
    parser.add_argument("--alpha", type=significance_level, default=DEFAULT_ALPHA,
                        help=f"the timing gate's significance level: the chance that any unchanged case is called "
                             f"(paired) or its false discovery rate over the cases (not paired), and 1 - the "
                             f"confidence of its intervals, as scripts/analyze gate --alpha "
                             f"(default {DEFAULT_ALPHA:g}); with --check-gate, the level every comparison of "
                             "the check is judged at")
    parser.add_argument("--rebuild", action="store_true",
                        help="build both commits afresh instead of reusing a build kept from an earlier run (builds "
                             "are kept by commit, toolchain and product in ~/.cache/dispatchbench/builds, or "
                             "$BENCH_COMMITS_CACHE)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary worktrees, builds and logs (their directory is printed)")
    parser.add_argument("--seed", type=_seed, metavar="S", help="the seed of the case order (default: random)")
    paired = parser.add_argument_group(
        "paired runs (the default)", "The two builds alternate sample by sample "
                       "(docs/bench-commits.md#the-paired-comparison): one "
                       "bench worker per build and round, fresh every round; the cases in a shuffled order; each "
                       "case set up on both and sampled in pairs, the side that runs first alternating from pair "
                       "to pair. The first --rounds rounds visit every case; further rounds visit only the cases "
                       "whose resolution is still coarser than the sequential rule's target, up to --max-rounds, "
                       "within the time budget.")
    paired.add_argument("--paired", action="store_true",
                        help="paired runs: the default, accepted so that commands written before it was still run")
    paired.add_argument("--rounds", type=_pairs, metavar="R",
                        help=f"rounds that visit every case, each a fresh pair of workers (default "
                             f"{paired_plan.DEFAULT_ROUNDS}, quick {paired_plan.QUICK_ROUNDS})")
    paired.add_argument("--max-rounds", type=_pairs, metavar="M",
                        help=f"the most rounds a case still coarser than the target gets (default "
                             f"{paired_plan.DEFAULT_MAX_ROUNDS}, quick {paired_plan.QUICK_MAX_ROUNDS})")
    paired.add_argument("--visit-pairs", type=_pairs, metavar="N",
                        help=f"pairs a case gets in each round that visits it; the round keeps their median "
                             f"(default {paired_plan.DEFAULT_VISIT_PAIRS}, quick {paired_plan.QUICK_VISIT_PAIRS})")
    paired.add_argument("--sample-time", type=_milliseconds, metavar="MS",
                        help=f"least length of one sample in milliseconds, fractions allowed (default "
                             f"{paired_plan.DEFAULT_SAMPLE_MS:g})")
    paired.add_argument("--budget", type=_minutes, metavar="MIN",
                        help=f"minutes of measuring within which rounds beyond --rounds visit the cases still "
                             f"coarse (default {paired_plan.DEFAULT_BUDGET_MINUTES:g}, quick "
                             f"{paired_plan.QUICK_BUDGET_MINUTES:g}; when a --filter or the cases that run changed "
                             f"code leave fewer than the whole suite, in proportion to them, at least "
                             f"{paired_plan.LEAST_SELECTED_BUDGET_MINUTES:g}); "
                             "the first --rounds run whole whatever it says")
    paired.add_argument("--placement", choices=paired_plan.PLACEMENTS,
                        help="where the threads run: pinned confines both builds to one CPU, the same for both, "
                             "while they measure a one-thread case (the CPU alternates by round), and runs thread i "
                             "of a case of more threads on one CPU alone, the same in both builds (the CPUs rotate "
                             "by round); same-cpu does the same for one-thread cases and lets the threads of the "
                             "others run free; free leaves every thread to the scheduler, as bench does "
                             f"(default {paired_plan.DEFAULT_PLACEMENT}; why: docs/bench-commits.md#placement)")
    parser.add_argument("--check-gate", action="store_true",
                        help="compare HEAD with itself, plain and with a planted slowdown (see above)")
    parser.add_argument("--plant", type=_slowdown, metavar="F",
                        help="with --check-gate: only the comparison with `--spin-scale F` on side B")
    return parser


def split_bench_options(argv: list[str]) -> tuple[list[str], list[str]]:
    """bench-commits' own arguments and the bench options after the first ``--``."""
    if "--" in argv:
        index = argv.index("--")
        return argv[:index], argv[index + 1:]
    return argv, []


class _Workspace:
    """The temporary directory with the worktrees and logs; removed (worktrees first) on exit unless kept.
    ``package`` is the package's directory relative to the top of the repository (``.`` at its root).

    While it is open it is also the temporary directory (TMPDIR) of every child process: the Swift toolchain
    leaves lock files and empty directories there at each build and link, and they go with the workspace."""

    def __init__(self, repo: Path, package: Path, keep: bool):
        self.repo, self.package, self.keep = repo, package, keep
        self.root = Path(tempfile.mkdtemp(prefix="bench-commits-"))
        self.logs = self.root / "logs"
        self.logs.mkdir()
        self.worktrees: list[Path] = []
        temporary = self.root / "tmp"
        temporary.mkdir()
        self._outer_tmpdir = os.environ.get("TMPDIR")
        os.environ["TMPDIR"] = str(temporary)

    def worktree(self, commit: str) -> Path:
        """A worktree of ``commit``; returns the package's directory in it (ComparisonError when that commit has
        no Package.swift there)."""
        path = self.root / f"worktree-{commit[:12]}"
        self.worktrees.append(path)
        git.add_worktree(self.repo, path, commit)
        package = path / self.package
        if not (package / "Package.swift").is_file():
            raise ComparisonError(f"commit {commit[:12]} has no Package.swift in {self.package}: run "
                                  "bench-commits from the directory of the package to compare")
        return package

    def close(self) -> None:
        if self._outer_tmpdir is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = self._outer_tmpdir
        if self.keep:
            say(f"kept the worktrees, builds and logs in {self.root}")
            return
        git.remove_worktrees(self.repo, self.worktrees)
        shutil.rmtree(self.root, ignore_errors=True)


def package_directory(start: Path, repo: Path) -> Path:
    """The package to compare: the nearest directory from ``start`` up to the top of ``repo`` that has a
    Package.swift (the top itself when none has), relative to that top."""
    start, repo = start.resolve(), repo.resolve()
    for directory in (start, *start.parents):
        if (directory / "Package.swift").is_file():
            return directory.relative_to(repo)
        if directory == repo:
            break
    return Path(".")


def _raise_interrupted(signum, frame):
    raise Interrupted(128 + signum)


def _stamp() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d-%H%M%S")


def _resolve(repo: Path, revision: str) -> str:
    commit = git.resolve(repo, revision)
    git.refuse_working_tree(repo, revision, commit)
    return commit


def _paired_settings(args, quick: bool) -> paired_plan.PairedSettings:
    return paired_plan.settings(quick, args.rounds, args.max_rounds, args.visit_pairs, args.sample_time, args.budget,
                                args.placement)


def _measure(args, sides, bench_options: list[str], quick: bool, seed: int, logs: Path, started: float,
             control: bool) -> None:
    """Run the comparison's timed part: paired runs (``control``: the same-code control's), or whole rounds in ABBA
    order with --abba."""
    if args.paired:
        run_paired(sides, bench_options, quick, _paired_settings(args, quick), seed, logs, say, elapsed_text, control)
    else:
        run_rounds(sides, bench_options, quick, args.pairs, seed, logs, started)


def _shape(args, quick: bool) -> str:
    """The run's shape in words, for the report's first lines (and the gate's alpha when not the default)."""
    alpha = "" if args.alpha == DEFAULT_ALPHA else f", gated at alpha {args.alpha:g}"
    if args.paired:
        paired = _paired_settings(args, quick)
        return (f"paired: {paired.rounds}–{paired.max_rounds} rounds of worker pairs, {paired.visit_pairs} pair(s) a "
                f"case and round, samples of {paired.sample_ns / 1e6:g} ms, placement {paired.placement}"
                f"{', quick' if quick else ''}{alpha}")
    return f"{args.pairs} ABBA pairs{', quick' if quick else ''}{alpha}"


def _check_measures_package(manifest: package_manifest.Manifest, product: str, built, bench_options: list[str]) -> None:
    """ComparisonError, before anything is timed, when some side's build would measure none of the package's own
    variants (brought_in.check_measures_package)."""
    try:
        default = manifest.default_product()
    except ComparisonError:
        default = None
    for binary, directory, _ in built:
        brought_in.check_measures_package(manifest.name, product,
                                          partial(brought_in.list_cases, binary, directory, []),
                                          brought_in.list_cases(binary, directory, bench_options), bench_options,
                                          default)


def _compare_commits(args, bench_options: list[str], quick: bool, repo: Path, package: Path, builder: Builder,
                     cache: BuildCache | None, seed: int, manifest: package_manifest.Manifest, product: str) -> int:
    base_rev, head_rev = args.revisions
    base, head = _resolve(repo, base_rev), _resolve(repo, head_rev)
    results = repo / package / RESULTS_DIR
    results.mkdir(exist_ok=True)
    name_a, name_b = side_names(base, head)
    stamp = _stamp()
    paths = result_paths(results, stamp, name_a, name_b)
    control_paths = None
    started = time.monotonic()
    workspace = _Workspace(repo, package, args.keep)
    try:
        directories = {commit: workspace.worktree(commit) for commit in dict.fromkeys((base, head))}
        leaving = package_manifest.paths_leaving(manifest, repo)
        for commit, directory in directories.items():
            if leaving:
                package_manifest.check_paths_from(package_manifest.read(directory), leaving, commit)
        builds = {}
        for side, commit in (("base", base), ("head", head)):
            if commit not in builds:
                builds[commit] = build(side, commit, directories[commit], builder, workspace.logs, cache,
                                       args.rebuild)
        if not manifest.is_dispatchbench:
            _check_measures_package(manifest, product, [(built.binary, directories[commit], built.kit)
                                                        for commit, built in builds.items()], bench_options)
        identities = _compare_code(builds[base], builds[head])
        control = _time_control(args, identities)
        selection: case_selection.Selection | None = None
        group_cases: dict[str, int] = {}
        if identities.status == same_code.CHANGED and not args.all:
            selection, group_cases = _select_cases(bench_options, builds, (base, head), directories, cache,
                                                   workspace.logs)
            if selection is not None and not selection.every:
                bench_options = with_filter(bench_options, case_selection.filter_pattern(selection.timed()))
        narrowed = bool(filter_option(bench_options))
        if args.budget is None and args.paired and not control and not args.what_changed and narrowed:
            # The whole suite's budget in proportion to the cases timed (those a filter and the selection leave;
            # without a filter, every case is timed and the whole budget stands). The controls a timing run adds
            # to a filtered one are listed, but the paired workers do not measure them.
            timed = len([case for case in brought_in.list_cases(builds[head].binary, directories[head], bench_options)
                         if not case.control])
            whole = len(brought_in.list_cases(builds[head].binary, directories[head], without_filter(bench_options)))
            if timed < whole:
                args.budget = paired_plan.selected_budget(quick, timed, whole)
        if args.what_changed:
            sys.stdout.write("\n".join(_what_changed(base_rev, head_rev, base, head, identities, selection,
                                                     group_cases)))
            return exit_codes.EXIT_PASSED
        def sides_writing(timing_a: Path, timing_b: Path) -> dict[str, Side]:
            """The two sides, writing their timings to ``timing_a`` and ``timing_b``."""
            roles = ((SIDE_A, "base", base, timing_a), (SIDE_B, "head", head, timing_b))
            return {name: Side(name, f"{role} {short(commit)}", builds[commit].binary, directories[commit],
                               workspace.root / f"environment-{name.lower()}.json", timing, link=builds[commit].kit)
                    for name, role, commit, timing in roles}
        sides = sides_writing(paths.timing_a, paths.timing_b)
        say(f"seed {seed} (--seed {seed} to reproduce the case order), {_shape(args, quick)}: "
            f"{paths.timing_a} vs {paths.timing_b}")
        from_copies = [name for name, side in sides.items() if args.paired and side.link is None]
        _measure(args, sides, bench_options, quick, seed, workspace.logs, started, control)
        if selection is not None and not selection.every and selection.same() and _control_can_run(args):
            control_paths = result_paths(results, stamp, f"{name_a}-control", f"{name_b}-control")
            say(f"the control of the {len(selection.same())} variant(s) in their benchmarks that run identical code: "
                f"{same_code.CONTROL_ROUNDS} paired rounds: {control_paths.timing_a} vs {control_paths.timing_b}")
            run_paired(sides_writing(control_paths.timing_a, control_paths.timing_b),
                       with_filter(bench_options, case_selection.filter_pattern(selection.same())), quick,
                       paired_plan.settings(quick, same_code.CONTROL_ROUNDS, same_code.CONTROL_ROUNDS,
                                            args.visit_pairs, args.sample_time, None, args.placement),
                       seed, workspace.logs, say, elapsed_text, control=True)
        counted = False
        if not args.no_count and not control:
            counted = run_counts(sides, bench_options, quick,
                                 {SIDE_A: paths.counts_a, SIDE_B: paths.counts_b}, workspace.logs)
    finally:
        workspace.close()
    markdown, timing_exit, timing_headline, cases, coarsest = timing_markdown(paths.timing_a, paths.timing_b,
                                                                              args.alpha, control)
    codes = [timing_exit]
    narrowed_by_selection = selection is not None and not selection.every
    same = sum(group_cases.get(group, 0) for group in selection.same()) \
        if selection is not None and narrowed_by_selection else 0
    headlines = [_code_headline(identities, cases, control, same, coarsest,
                                same_code.CONTROL_ROUNDS if control_paths is not None else 0),
                 f"timings{' (control)' if control else ''}: {_without_gate(timing_headline)}"]
    out = [f"# bench-commits: {base_rev} ({short(base)}) → {head_rev} ({short(head)})", "",
           f"{_shape(args, quick)}, seed {seed}; "
           f"`{paths.timing_a.name}` vs `{paths.timing_b.name}`; {elapsed_text(time.monotonic() - started)} "
           "wall time.", "", *same_code.describe(identities, cases, timed_all=None if narrowed_by_selection
                                                 else not control), ""]
    if selection is not None:
        out += [*case_selection.describe(selection, group_cases), ""]

    if from_copies:
        out += [f"**Layout not shuffled:** every round ran {' and '.join(from_copies)} from a copy of its build, "
                "not from a fresh link (the build's note on stderr says why), so where the linker put its code "
                "and data stayed the same through the comparison, and a layout difference between the builds can "
                "read as a change (docs/paired-design.md#a-fresh-link-for-every-round).", ""]
        headlines.append(FROM_COPIES_HEADLINE)
    out += [markdown.rstrip(), ""]
    if control_paths is not None:
        suites = control_of(control_paths.timing_a, control_paths.timing_b)
        out += [f"Of the {same} cases that run identical code, the control "
                f"(`{control_paths.timing_a.name}` vs `{control_paths.timing_b.name}`):", "",
                *control_markdown(suites), ""]
        codes.append(same_code.control_exit(exit_codes.EXIT_PASSED, suites))
        headlines.append(f"the control of the identical code: {control_headline(suites)}")
    if counted:
        counts_text, counts_exit, counts_headline = counts_markdown(paths.counts_a, paths.counts_b)
        codes.append(counts_exit)
        out += [counts_text.rstrip(), ""]
        headlines.append(f"counts: {_without_gate(counts_headline)}")
    elif args.no_count:
        out += ["Counts: not run (--no-count).", ""]
        headlines.append("counts: not run")
    elif control:
        out += [f"Counts: not run: {same_code.COUNTS_NOT_RUN}.", ""]
        headlines.append("counts: same code")
    else:
        out += ["Counts: skipped, `bench count` cannot run on this machine (valgrind or jemalloc missing).", ""]
        headlines.append("counts: skipped")
    code = verdict.combine_exit_codes(codes)
    sys.stdout.write("\n".join(verdict.first_and_last(code, headlines, out)))
    return code


def _compare_code(base: Built, head: Built) -> same_code.CodeComparison:
    """What the two builds' code identities say (same_code), with a line on stderr."""
    why = "; ".join(f"{role}: {built.why_no_identity}" for role, built in (("base", base), ("head", head))
                    if built.identity is None)
    code = same_code.compare_identities(base.identity, head.identity, why)
    if code.same:
        say(f"same code: {same_code.evidence(code)}")
    elif code.status == same_code.CHANGED:
        say(f"changed code: {len(code.changed_pieces)} section(s) differ"
            + (f", and {', '.join(code.changed_inputs)}" if code.changed_inputs else ""))
    else:
        say(f"{same_code.UNKNOWN}: {code.why}")
    return code


def _select_cases(bench_options: list[str], builds: dict[str, Built], commits: tuple[str, str],
                  directories: dict[str, Path], cache: BuildCache | None,
                  logs: Path) -> tuple[case_selection.Selection | None, dict[str, int]]:
    """Which cases run changed code (case_selection), from each build's function map and the functions each case
    ran (``bench count --functions`` with the options' filter, run on both builds at once, kept for that filter by
    code: BuildCache.kept_by_code); None, with a line on stderr, when that cannot be had (every case is then
    timed). Also how many cases each group has in the head."""
    base, head = (builds[commit] for commit in commits)
    if base.functions is None or head.functions is None or base.identity is None or head.identity is None:
        say("every case is timed: a build has no function map, so which cases run changed code is not known")
        return None, {}
    # Kept by code (a build of another commit with the same code has the same footprints), one file for each
    # filter (the whole suite's, without one).
    name = f"functions-{hashlib.sha256(' '.join(filter_option(bench_options)).encode()).hexdigest()[:12]}.tsv"
    identities = {commits[0]: base.identity, commits[1]: head.identity}
    files = {commit: (cache.kept_by_code(identities[commit], name) if cache is not None else None) or
             logs / f"functions-{commit[:12]}.tsv" for commit in commits}
    missing = [commit for commit in dict.fromkeys(commits) if not files[commit].is_file()]
    footprinted: tuple[str, ...] = commits
    if missing == [commits[1]]:
        # The base's are kept and the head is new: the head's are computed only where the base's cannot answer.
        needed = case_selection.head_footprints_needed(
            base.functions, head.functions, case_selection.read_functions(files[commits[0]].read_text()),
            case_selection.changed_nodes(base.functions, head.functions))
        if not needed:
            say("footprints of the head: not needed, the base's answer (its start-up ran and read no changed code: "
                "docs/comparison-rule.md#which-cases-run-changed-code)")
            missing, footprinted = [], commits[:1]
        else:
            say(f"footprints of the head: needed, {needed}")
    started = time.monotonic()
    if missing:
        say(f"footprints of {len(missing)} build(s): the functions each case runs, under valgrind "
            "(bench count --functions); kept with a kept build")
    with ThreadPoolExecutor(max_workers=2) as pool:
        why = list(pool.map(lambda commit: count_functions(builds[commit].binary, directories[commit], bench_options,
                                                           files[commit], logs / f"functions-{commit[:12]}.log"),
                            missing))
    if any(why):
        say(f"every case is timed: which cases run changed code is not known: {next(w for w in why if w)}")
        return None, {}
    if missing:
        say(f"footprints of {len(missing)} build(s): {elapsed_text(time.monotonic() - started)}")
        for commit in missing:
            if cache is not None:
                cache.keep_by_code(identities[commit], name, files[commit])
    footprints: dict[str, set[str]] = {}
    for commit in footprinted:
        for group, functions in case_selection.read_functions(files[commit].read_text()).items():
            footprints.setdefault(group, set()).update(functions)
    listed = {commit: brought_in.list_cases(builds[commit].binary, directories[commit], bench_options)
              for commit in commits}
    modules = {case.module for cases in listed.values() for case in cases if case.module}
    group_cases: dict[str, int] = {case.path: 0 for cases in listed.values() for case in cases}
    for case in listed[commits[1]]:
        group_cases[case.path] += 1
    selection = case_selection.select(group_cases, base.identity.inputs, head.identity.inputs, base.functions,
                                      head.functions, footprints, case_selection.selective_modules(modules))
    if selection.every:
        say(f"every case is timed: {selection.every}")
    else:
        say(f"timing {len(selection.timed())} variant(s) in their benchmarks that run changed code; "
            f"{len(selection.same())} unchanged: same code")
    return selection, group_cases


def _control_can_run(args) -> bool:
    """Whether the cases a selected comparison leaves out, their code identical, can be timed in a control: only
    paired (with a line on stderr when not)."""
    if not args.paired:
        say("no control of the cases that run identical code: --abba times whole rounds of what it is given")
    return bool(args.paired)


def _time_control(args, code: same_code.CodeComparison) -> bool:
    """Whether the comparison times only the control (same code, paired, not --all); if so, it gets no rounds
    beyond the first (``--rounds``, by default same_code.CONTROL_ROUNDS), with a line on stderr."""
    if not code.same or args.all:
        return False
    if not args.paired:
        say("same code, but --abba times every case as asked")
        return False
    args.rounds = args.max_rounds = args.rounds or same_code.CONTROL_ROUNDS
    say(f"same code: every case is unchanged: same code; timing a control of {args.rounds} paired rounds, none "
        "further (--all times every case as a changed one)")
    return True


def _code_headline(code: same_code.CodeComparison, cases: int, control: bool, same: int = 0,
                   coarsest: float = float("nan"), control_rounds: int = 0) -> str:
    """The code part of the verdict line (gate_text.code_headline): ``same`` cases not timed, their code identical,
    or timed only in a control of ``control_rounds``; ``coarsest``: the largest change that could hide in a timed
    case."""
    if code.same:
        return "code: " + code_headline(cases, same_code.evidence(code), timed_all=not control)
    if code.status == same_code.CHANGED:
        return "code: " + code_headline(cases, changed=same_code.changes_summary(code), identical=same,
                                        coarsest=coarsest, control_rounds=control_rounds)
    return "code: " + code_headline(cases, unknown=code.why)


def _what_changed(base_rev: str, head_rev: str, base: str, head: str, code: same_code.CodeComparison,
                  selection: case_selection.Selection | None = None, group_cases: dict[str, int] | None = None
                  ) -> list[str]:
    """The Markdown of --what-changed: the code section alone (and which cases run changed code), nothing
    timed."""
    chosen = [*case_selection.describe(selection, group_cases or {}), ""] if selection is not None else []
    return [f"# bench-commits --what-changed: {base_rev} ({short(base)}) → {head_rev} ({short(head)})", "",
            *same_code.describe(code, None, timed_all=None), "", *chosen,
            f"**Code: {code.status}**" + (f" ({same_code.evidence(code)})" if code.same else
                                         f" ({same_code.changes_summary(code)})" if code.status == same_code.CHANGED
                                         else f" ({code.why})"), ""]


def _without_gate(headline: str) -> str:
    """A gate's headline without its leading ``Gate: ``."""
    return headline.removeprefix("Gate: ")


def render_check_gate(rows: list[tuple[gate_check.GateCheckSpec, gate_check.Observed, bool, str, float]]) -> str:
    """The gate check's table in Markdown, the resolutions of its A/A comparison when paired, then its
    verdict line."""
    lines = ["| comparison | cases compared | flagged | unstable | wall time | verdict |",
             "| --- | ---: | --- | ---: | ---: | --- |"]
    for spec, observed, ok, why, seconds in rows:
        flagged = ", ".join(f"`{label}` ({verdict})" for label, verdict in observed.flagged) or "none"
        lines.append(f"| {spec.name} | {observed.compared} | {flagged} | {observed.unstable} | "
                     f"{elapsed_text(seconds)} | {'as expected' if ok else 'NOT as expected'}: {why} |")
    passed = all(ok for _, _, ok, _, _ in rows)
    for spec, observed, _, _, _ in rows:
        if observed.resolutions and not spec.planted:
            headers, aligns, body = resolution_table(list(observed.resolutions))
            lines += ["", f"Resolution of the paired cases per suite and thread count, in the {spec.name} "
                          "comparison (the smallest change each could call):", ""]
            lines += markdown_table(headers, aligns, body)
    lines += ["", f"Gate check: {'PASS' if passed else 'FAIL'} ({sum(r[2] for r in rows)} of {len(rows)} "
                  "comparisons as expected)", ""]
    return "\n".join(lines)


def _comparisons(checks, shape: str) -> str:
    """How many comparisons the check runs and their shape, for its first lines."""
    if len(checks) == 1:
        return f"one comparison, {shape}"
    return f"{('two', 'three', 'four')[len(checks) - 2]} comparisons, each {shape}"


def _check_gate(args, bench_options: list[str], quick: bool, repo: Path, package: Path, builder: Builder,
                cache: BuildCache | None, seed: int) -> int:
    if args.revisions:
        raise ComparisonError("--check-gate takes no revisions: it compares HEAD with itself")
    commit = _resolve(repo, "HEAD")
    results = repo / package / RESULTS_DIR
    results.mkdir(exist_ok=True)
    stamp = _stamp()
    workspace = _Workspace(repo, package, args.keep)
    rows = []
    try:
        worktree = workspace.worktree(commit)
        built = build("HEAD", commit, worktree, builder, workspace.logs, cache, args.rebuild)
        binary, kit = built.binary, built.kit
        checks = (gate_check.planted_check(args.plant),) if args.plant else gate_check.gate_checks(quick, args.paired)
        what = _comparisons(checks, _shape(args, quick))
        say(f"gate check of {short(commit)}: seed {seed}; {what}")
        for index, spec in enumerate(checks, start=1):
            slug = f"check-gate{index}"
            paths = result_paths(results, stamp, f"{short(commit)}-{slug}-a", f"{short(commit)}-{slug}-b")
            label = f"{spec.name} {short(commit)}"
            sides = {name: Side(name, " ".join([label, *options]), binary, worktree,
                                workspace.root / f"env-{index}-{name.lower()}.json", timing, options, kit)
                     for name, options, timing in ((SIDE_A, spec.a_options, paths.timing_a),
                                                   (SIDE_B, spec.b_options, paths.timing_b))}
            say(f"comparison {index}/{len(checks)}: {spec.name}")
            started = time.monotonic()
            _measure(args, sides, bench_options, quick, seed, workspace.logs, started, control=False)
            observed = observe(paths.timing_a, paths.timing_b, args.alpha)
            ok, why = gate_check.judge_check_gate(spec, observed)
            seconds = time.monotonic() - started
            say(f"{spec.name}: {'as expected' if ok else 'NOT as expected'} ({why}), {elapsed_text(seconds)}")
            rows.append((spec, observed, ok, why, seconds))
    finally:
        workspace.close()
    sys.stdout.write(f"# bench-commits gate check of {short(commit)}\n\n{what[0].upper()}{what[1:]}; "
                     f"seed {seed}.\n\n" + render_check_gate(rows))
    return exit_codes.EXIT_PASSED if all(row[2] for row in rows) else exit_codes.EXIT_REGRESSION


def _build_cache(builder: Builder, package: Path) -> BuildCache | None:
    """The kept builds for this product and package, or None when the toolchain cannot be read."""
    toolchain = toolchain_version()
    if toolchain is None:
        say("note: swift --version did not answer, so builds are neither reused nor kept")
        return None
    return BuildCache(cache_directory(), toolchain, (*builder.command, builder.binary, str(package)))


def main(argv: list[str] | None = None, builder: Builder | None = None, cwd: Path | None = None) -> int:
    """Run the command line; return the exit code (exit_codes.BENCH_COMMITS_EXIT_CODES). ``builder`` replaces
    the swift build (tests); by default it comes from the environment (BENCH_COMMITS_BUILD,
    BENCH_COMMITS_BINARY) or is swift's."""
    own, bench_options = split_bench_options(sys.argv[1:] if argv is None else list(argv))
    try:
        args = build_parser().parse_args(own)
    except SystemExit as stop:  # --help (0) or a usage error (2, argparse's line already printed)
        return int(stop.code or 0)
    previous = signal.signal(signal.SIGTERM, _raise_interrupted)
    try:
        bench_options, quick_option = check_bench_options(bench_options)
        quick = args.quick or quick_option
        if args.paired and args.abba:
            raise ComparisonError("--paired and --abba are two ways to compare: give one (paired is the default)")
        args.paired = not args.abba
        if args.paired:
            bench_options = paired_plan.check_paired_bench_options(bench_options)
            if args.pairs is not None:
                raise ComparisonError("--pairs counts whole rounds a side, with --abba; paired runs take --rounds and "
                                      "--max-rounds")
        else:
            args.pairs = args.pairs or abba_plan.DEFAULT_PAIRS
            given = [name for name in PAIRED_ONLY_OPTIONS if getattr(args, name) is not None]
            if given:
                raise ComparisonError(f"--{given[0].replace('_', '-')} goes with paired runs, not --abba")
        if args.what_changed and args.check_gate:
            raise ComparisonError("--what-changed compares two commits; --check-gate compares HEAD with itself")
        if args.plant and not args.check_gate:
            raise ComparisonError("--plant goes with --check-gate")
        if not args.check_gate and len(args.revisions) != 2:
            raise ComparisonError(f"give two revisions, BASE and HEAD (got {len(args.revisions)}), or --check-gate")
        # args.pairs is an int without --paired (set above); mypy keeps the None of the paired branch's check.
        if not args.paired and args.pairs < abba_plan.MIN_DECIDING_PAIRS:  # type: ignore[operator]
            say(f"warning: with {args.pairs} pair(s) the gate has fewer than {abba_plan.MIN_DECIDING_PAIRS} rounds "
                "a side to judge between processes: " + ("it can decide no case" if args.pairs > 1 else  # type: ignore[operator]
                                                        "it falls back to the samples of one process"))
        start = cwd or Path.cwd()
        repo = git.toplevel(start)
        package = package_directory(start, repo)
        seed = args.seed if args.seed is not None else random.randint(*SEED_RANGE)
        manifest = package_manifest.read(repo / package)
        product = package_manifest.chosen_product(manifest, args.product)
        builder = builder or Builder.from_environment(product)
        cache = _build_cache(builder, package)
        if args.check_gate:
            return _check_gate(args, bench_options, quick, repo, package, builder, cache, seed)
        return _compare_commits(args, bench_options, quick, repo, package, builder, cache, seed, manifest, product)
    except (ComparisonError, AnalyzeError) as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return exit_codes.EXIT_BAD_INPUT
    except Interrupted as stop:
        say(f"interrupted: the CSVs written so far are kept in {RESULTS_DIR}/")
        return stop.status
    except KeyboardInterrupt:
        say(f"interrupted: the CSVs written so far are kept in {RESULTS_DIR}/")
        return exit_codes.EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGTERM, previous)
