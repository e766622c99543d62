"""The command line of scripts/bench-commits: parse, then run the comparison (comparison.py) or the gate check,
and print its Markdown. ``main(argv)`` returns the exit code."""

from __future__ import annotations

import argparse
import random
import signal
import sys
import time
from pathlib import Path

from analyze_lib.argtypes import checked_number, significance_level
from analyze_lib.judge.compare import DEFAULT_ALPHA
from analyze_lib import exit_codes
from analyze_lib.exit_codes import BENCH_COMMITS_BISECT_EXIT_CODES, BENCH_COMMITS_BISECT_NOTE, \
    BENCH_COMMITS_EXIT_CODES, BENCH_COMMITS_PRECEDENCE_NOTE, exit_codes_help
from analyze_lib.present.doc import markdown_table
from analyze_lib.present.render import resolution_table
from . import abba_plan, gate_check, git, package_manifest, paired_plan, same_code
from .bench_options import check_bench_options
from .build_cache import BuildCache, cache_directory, toolchain_version
from .bisect_run import run_bisect
from .comparison import compare_commits, measure, shape
from .errors import ComparisonError
from .run import PROG, AnalyzeError, Builder, Interrupted, Side, build, elapsed_text, observe, say
from .sides import SIDE_A, SIDE_B, result_paths, short
from .workspace import RESULTS_DIR, Workspace, resolve_revision, stamp


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

Bisect: `bench-commits bisect GOOD BAD [-- --filter ...]` finds the first commit of BAD's first-parent history
after GOOD at which the chosen cases got slower (--faster: faster), building and timing only the commits the
search needs, each step a paired comparison against GOOD; commits that run the same code are settled without
timing. Its options and exit codes: bench-commits bisect --help; how to use it: docs/which-commit.md.
"""

EPILOG = exit_codes_help(BENCH_COMMITS_EXIT_CODES, BENCH_COMMITS_PRECEDENCE_NOTE)

BISECT_DESCRIPTION = """\
Find the first commit at which the chosen cases got slower (--faster: faster). GOOD is a commit at which they were
not, BAD a later one at which they are; the candidates are the commits of BAD's first-parent history after GOOD
(git rev-list --first-parent --reverse GOOD..BAD). Run it where you run bench-commits BASE HEAD: in DispatchBench,
or in your package's directory with --product (docs/gate-your-own-package.md).

The chosen cases are those the bench options after `--` select (--filter, --threads), every case without them.
BAD is timed first, paired against GOOD: the cases it calls slower are the ones every later step times. Each step
builds the candidate in the middle of what is left, in a worktree (builds are kept in ~/.cache/dispatchbench/builds
as bench-commits keeps them, so a second bisect of the same range builds nothing), and settles it:

- same code: when it runs the same code for the chosen cases as the nearest commit settled on either side, or as
  GOOD (an equal code identity, or no chosen case's footprint holds a changed function or datum:
  docs/comparison-rule.md#which-cases-run-changed-code), it is settled as that commit is, without timing;
- else it is timed, paired against GOOD, by the comparison bench-commits BASE HEAD makes and the gate's rule
  (docs/comparison-rule.md): a case called slower puts the first slower commit at or before it; every case decided
  otherwise (no change, or faster) puts it after. A step that leaves a case undecided (not resolved, too few rounds)
  is timed further once, with twice the rounds, most rounds and budget; still undecided, the bisect stops there and
  names the commits left;
- a commit that does not build is skipped and said, as git bisect skip does.

For n candidates it times at most ceil(log2 n) + 1 steps, one more for each step timed further. The Markdown on
stdout names the first slower commit, its subject, its paired change against GOOD with each case's interval, what it
changed (sections and functions, demangled) and every step, with how many commits were built, timed and settled as
the same code; its verdict line comes first and last. Each timed step's CSVs go to Results/, as bench-commits
BASE HEAD writes them. From a series of runs: scripts/analyze history marks where a case shifted and prints the
bisect command (docs/which-commit.md).
"""

BISECT_EPILOG = exit_codes_help(BENCH_COMMITS_BISECT_EXIT_CODES, BENCH_COMMITS_BISECT_NOTE)


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
                         "[--seed S]\n"
                         f"       {PROG} bisect GOOD BAD [--faster] [options] [-- bench options]",
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
    _add_paired_options(paired)
    parser.add_argument("--check-gate", action="store_true",
                        help="compare HEAD with itself, plain and with a planted slowdown (see above)")
    parser.add_argument("--plant", type=_slowdown, metavar="F",
                        help="with --check-gate: only the comparison with `--spin-scale F` on side B")
    return parser


def build_bisect_parser() -> argparse.ArgumentParser:
    """The argument parser of ``bench-commits bisect`` (usage errors exit 2)."""
    parser = argparse.ArgumentParser(
        prog=f"{PROG} bisect", usage=f"{PROG} bisect GOOD BAD [--faster] [--product NAME] [--quick] [--rounds R] "
                                     "[--max-rounds M] [--visit-pairs N] [--sample-time MS] [--budget MIN] "
                                     "[--placement P] [--alpha A] [--rebuild] [--keep] [--seed S] [-- bench options]",
        description=BISECT_DESCRIPTION, epilog=BISECT_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("good", metavar="GOOD", help="a git revision of a commit at which the cases were not slower")
    parser.add_argument("bad", metavar="BAD",
                        help="a git revision of a later commit at which they are; GOOD on its first-parent history")
    parser.add_argument("--faster", action="store_true",
                        help="find the first commit at which the chosen cases got faster instead")
    parser.add_argument("--product", metavar="NAME",
                        help="the executable product to build and run at each commit, as bench-commits BASE HEAD "
                             f"--product (default: {package_manifest.OWN_PRODUCT} in DispatchBench itself; in your "
                             "package, its one executable that depends on DispatchBench)")
    parser.add_argument("--quick", action="store_true", help="bench --quick in every round")
    parser.add_argument("--alpha", type=significance_level, default=DEFAULT_ALPHA,
                        help=f"each step's significance level, as bench-commits BASE HEAD --alpha (default "
                             f"{DEFAULT_ALPHA:g})")
    parser.add_argument("--rebuild", action="store_true",
                        help="build every commit it visits afresh instead of reusing a build kept from an earlier run")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary worktrees, builds and logs (their directory is printed)")
    parser.add_argument("--seed", type=_seed, metavar="S", help="the seed of the case order (default: random)")
    _add_paired_options(parser.add_argument_group(
        "each timed step", "A paired comparison against GOOD of the chosen cases that run changed code, shaped as\n"
                           "bench-commits BASE HEAD's (docs/bench-commits.md#the-paired-comparison)."))
    return parser


def _add_paired_options(group) -> None:
    """The options that shape a paired comparison (bench-commits BASE HEAD, and each timed step of bisect)."""
    group.add_argument("--rounds", type=_pairs, metavar="R",
                        help=f"rounds that visit every case, each a fresh pair of workers (default "
                             f"{paired_plan.DEFAULT_ROUNDS}, quick {paired_plan.QUICK_ROUNDS})")
    group.add_argument("--max-rounds", type=_pairs, metavar="M",
                        help=f"the most rounds a case still coarser than the target gets (default "
                             f"{paired_plan.DEFAULT_MAX_ROUNDS}, quick {paired_plan.QUICK_MAX_ROUNDS})")
    group.add_argument("--visit-pairs", type=_pairs, metavar="N",
                        help=f"pairs a case gets in each round that visits it; the round keeps their median "
                             f"(default {paired_plan.DEFAULT_VISIT_PAIRS}, quick {paired_plan.QUICK_VISIT_PAIRS})")
    group.add_argument("--sample-time", type=_milliseconds, metavar="MS",
                        help=f"least length of one sample in milliseconds, fractions allowed (default "
                             f"{paired_plan.DEFAULT_SAMPLE_MS:g})")
    group.add_argument("--budget", type=_minutes, metavar="MIN",
                        help=f"minutes of measuring within which rounds beyond --rounds visit the cases still "
                             f"coarse (default {paired_plan.DEFAULT_BUDGET_MINUTES:g}, quick "
                             f"{paired_plan.QUICK_BUDGET_MINUTES:g}; when a --filter or the cases that run changed "
                             f"code leave fewer than the whole suite, in proportion to them, at least "
                             f"{paired_plan.LEAST_SELECTED_BUDGET_MINUTES:g}); "
                             "the first --rounds run whole whatever it says")
    group.add_argument("--placement", choices=paired_plan.PLACEMENTS,
                        help="where the threads run: pinned confines both builds to one CPU, the same for both, "
                             "while they measure a one-thread case (the CPU alternates by round), and runs thread i "
                             "of a case of more threads on one CPU alone, the same in both builds (the CPUs rotate "
                             "by round); same-cpu does the same for one-thread cases and lets the threads of the "
                             "others run free; free leaves every thread to the scheduler, as bench does "
                             f"(default {paired_plan.DEFAULT_PLACEMENT}; why: docs/bench-commits.md#placement)")


def split_bench_options(argv: list[str]) -> tuple[list[str], list[str]]:
    """bench-commits' own arguments and the bench options after the first ``--``."""
    if "--" in argv:
        index = argv.index("--")
        return argv[:index], argv[index + 1:]
    return argv, []


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
    commit = resolve_revision(repo, "HEAD")
    results = repo / package / RESULTS_DIR
    results.mkdir(exist_ok=True)
    run_stamp = stamp()
    workspace = Workspace(repo, package, args.keep)
    rows = []
    try:
        worktree = workspace.worktree(commit)
        built = build("HEAD", commit, worktree, builder, workspace.logs, cache, args.rebuild)
        binary, kit = built.binary, built.kit
        checks = (gate_check.planted_check(args.plant),) if args.plant else gate_check.gate_checks(quick, args.paired)
        what = _comparisons(checks, shape(args, quick))
        say(f"gate check of {short(commit)}: seed {seed}; {what}")
        for index, spec in enumerate(checks, start=1):
            slug = f"check-gate{index}"
            paths = result_paths(results, run_stamp, f"{short(commit)}-{slug}-a", f"{short(commit)}-{slug}-b")
            label = f"{spec.name} {short(commit)}"
            sides = {name: Side(name, " ".join([label, *options]), binary, worktree,
                                workspace.root / f"env-{index}-{name.lower()}.json", timing, options, kit)
                     for name, options, timing in ((SIDE_A, spec.a_options, paths.timing_a),
                                                   (SIDE_B, spec.b_options, paths.timing_b))}
            say(f"comparison {index}/{len(checks)}: {spec.name}")
            started = time.monotonic()
            measure(args, sides, bench_options, quick, seed, workspace.logs, started, control=False)
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


def _check_options(args, bench_options: list[str]) -> list[str]:
    """Refuse options that do not go together (ComparisonError), set --paired and --pairs from --abba, and return
    the bench options (checked for a paired run)."""
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
    return bench_options


def main(argv: list[str] | None = None, builder: Builder | None = None, cwd: Path | None = None) -> int:
    """Run the command line, ``bisect`` too; return the exit code (exit_codes.BENCH_COMMITS_EXIT_CODES, and
    BENCH_COMMITS_BISECT_EXIT_CODES for bisect). ``builder`` replaces
    the swift build (tests); by default it comes from the environment (BENCH_COMMITS_BUILD,
    BENCH_COMMITS_BINARY) or is swift's."""
    own, bench_options = split_bench_options(sys.argv[1:] if argv is None else list(argv))
    bisecting = own[:1] == ["bisect"]
    try:
        args = build_bisect_parser().parse_args(own[1:]) if bisecting else build_parser().parse_args(own)
    except SystemExit as stop:  # --help (0) or a usage error (2, argparse's line already printed)
        return int(stop.code or 0)
    previous = signal.signal(signal.SIGTERM, _raise_interrupted)
    try:
        bench_options, quick_option = check_bench_options(bench_options)
        quick = args.quick or quick_option
        if bisecting:
            # Every step is paired, without counts, the control or --what-changed (bisect_run.CommitProbe).
            args.paired, args.abba, args.pairs, args.check_gate = True, False, None, False
            args.all, args.no_count, args.what_changed = False, True, False
            args.revisions = [args.good, args.bad]
            bench_options = paired_plan.check_paired_bench_options(bench_options)
        else:
            bench_options = _check_options(args, bench_options)
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
        run = run_bisect if bisecting else compare_commits
        markdown, code = run(args, bench_options, quick, repo, package, builder, cache, seed, manifest, product)
        sys.stdout.write(markdown)
        return code
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
