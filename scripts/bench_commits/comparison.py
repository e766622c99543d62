"""The comparison of two built commits, the one bench-commits BASE HEAD makes and each timed step of
bench-commits bisect: say whether they run the same code and which cases run changed code, time those (paired, or
in ABBA order), the control of the identical ones and the counts, and give the Markdown, its verdict line and the
exit code. ``compare_commits`` resolves and builds the two commits of bench-commits BASE HEAD and makes one
``Comparison`` of them."""

from __future__ import annotations

import copy
import hashlib
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from analyze_lib.judge.compare import DEFAULT_ALPHA, Comparison as TimingComparison
from analyze_lib import exit_codes
from analyze_lib.present.control_text import control_headline, control_markdown
from analyze_lib.present.gate_text import code_headline
from . import brought_in, case_selection, package_manifest, paired_plan, same_code, verdict
from .bench_options import filter_option, with_filter, without_filter
from .build_cache import BuildCache
from .code_identity import CodeIdentity
from .errors import ComparisonError
from .paired import run_paired
from .run import Builder, Built, Side, build, count_functions, counts_markdown, control_of, elapsed_text, \
    run_counts, run_rounds, say, timing_gate, timing_markdown
from .sides import SIDE_A, SIDE_B, ResultPaths, result_paths, short, side_names
from .workspace import RESULTS_DIR, Workspace, resolve_revision, stamp


# The verdict line's words for a paired comparison whose rounds ran from copies of the builds, not fresh links.
FROM_COPIES_HEADLINE = "layout not shuffled: rounds ran from copies of the builds, not fresh links"


def paired_settings(args, quick: bool) -> paired_plan.PairedSettings:
    """The paired run's settings that the options ask for."""
    return paired_plan.settings(quick, args.rounds, args.max_rounds, args.visit_pairs, args.sample_time, args.budget,
                                args.placement)


def measure(args, sides, bench_options: list[str], quick: bool, seed: int, logs: Path, started: float,
            control: bool) -> None:
    """Run the comparison's timed part: paired runs (``control``: the same-code control's), or whole rounds in ABBA
    order with --abba."""
    if args.paired:
        run_paired(sides, bench_options, quick, paired_settings(args, quick), seed, logs, say, elapsed_text, control)
    else:
        run_rounds(sides, bench_options, quick, args.pairs, seed, logs, started)


def shape(args, quick: bool) -> str:
    """The run's shape in words, for the report's first lines (and the gate's alpha when not the default)."""
    alpha = "" if args.alpha == DEFAULT_ALPHA else f", gated at alpha {args.alpha:g}"
    if args.paired:
        paired = paired_settings(args, quick)
        return (f"paired: {paired.rounds}–{paired.max_rounds} rounds of worker pairs, {paired.visit_pairs} pair(s) a "
                f"case and round, samples of {paired.sample_ns / 1e6:g} ms, placement {paired.placement}"
                f"{', quick' if quick else ''}{alpha}")
    return f"{args.pairs} ABBA pairs{', quick' if quick else ''}{alpha}"


def check_measures_package(manifest: package_manifest.Manifest, product: str, built, bench_options: list[str]) -> None:
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


@dataclass(frozen=True)
class BuiltCommit:
    """One side of a comparison: the revision as given, the commit it names, the package's directory in that
    commit's worktree (where its bench runs, so that bench's git reads the commit) and its build."""

    revision: str
    commit: str
    directory: Path
    built: Built


@dataclass(frozen=True)
class Report:
    """A comparison's Markdown (its verdict line first and last), its exit code and its headlines."""

    markdown: str
    code: int
    headlines: tuple[str, ...]


class Comparison:
    """The comparison of two built commits under the gate's rule (docs/comparison-rule.md), in its open
    ``workspace``: what their code identities say (``code``, at once), which cases run changed code (``select``),
    then ``plan``, ``measure`` and ``report``, in that order; ``timing`` gives the timing gate's rows (each case's
    ratio, interval and outcome). ``options`` are bench-commits' parsed options; the comparison keeps a copy, whose
    rounds and budget it sets for itself. Its CSVs go to ``results``, named after ``stamp`` (now by default) and
    the two commits; ``label`` tells apart the environment files of several comparisons in one workspace."""

    def __init__(self, options, base: BuiltCommit, head: BuiltCommit, bench_options: list[str], quick: bool,
                 seed: int, workspace: Workspace, cache: BuildCache | None, results: Path,
                 started: float | None = None, run_stamp: str | None = None, label: str = ""):
        self.options = copy.copy(options)
        self.base, self.head = base, head
        self.bench_options = list(bench_options)
        self.quick, self.seed, self.workspace, self.cache, self.results = quick, seed, workspace, cache, results
        self.started = time.monotonic() if started is None else started
        self.stamp = run_stamp or stamp()
        self.label = label
        self.names = side_names(base.commit, head.commit)
        self.paths: ResultPaths = result_paths(results, self.stamp, *self.names)
        self.control_paths: ResultPaths | None = None
        self.code = _compare_code(base.built, head.built)
        self.control = False
        # The groups of the identical code that the control timed (same_code.control_groups), once it ran.
        self.control_groups: list[str] = []
        self.selection: case_selection.Selection | None = None
        self.group_cases: dict[str, int] = {}
        self._selected = False
        self.from_copies: list[str] = []
        self.counted = False

    def select(self) -> case_selection.Selection | None:
        """Which cases run changed code (case_selection), decided once: None when every case is timed (the code is
        the same or unknown, --all, or the footprints cannot be had)."""
        if not self._selected:
            self._selected = True
            if self.code.status == same_code.CHANGED and not self.options.all:
                builds = {self.base.commit: self.base.built, self.head.commit: self.head.built}
                directories = {self.base.commit: self.base.directory, self.head.commit: self.head.directory}
                self.selection, self.group_cases = _select_cases(self.bench_options, builds,
                                                                 (self.base.commit, self.head.commit), directories,
                                                                 self.cache, self.workspace.logs)
        return self.selection

    def plan(self) -> None:
        """Decide what the timed part times: only the control when the code is the same, else the cases that run
        changed code (the bench options' filter narrowed to them), with the budget of the cases it times."""
        args, head = self.options, self.head
        self.control = _time_control(args, self.code)
        selection = self.select()
        if selection is not None and not selection.every:
            self.bench_options = with_filter(self.bench_options, case_selection.filter_pattern(selection.timed()))
        narrowed = bool(filter_option(self.bench_options))
        if args.budget is None and args.paired and not self.control and not args.what_changed and narrowed:
            # The whole suite's budget in proportion to the cases timed (those a filter and the selection leave;
            # without a filter, every case is timed and the whole budget stands). The controls a timing run adds
            # to a filtered one are listed, but the paired workers do not measure them.
            timed = len([case for case in brought_in.list_cases(head.built.binary, head.directory, self.bench_options)
                         if not case.control])
            whole = len(brought_in.list_cases(head.built.binary, head.directory, without_filter(self.bench_options)))
            if timed < whole:
                args.budget = paired_plan.selected_budget(self.quick, timed, whole)

    def what_changed(self) -> str:
        """The Markdown of --what-changed (nothing timed)."""
        return "\n".join(_what_changed(self.base.revision, self.head.revision, self.base.commit, self.head.commit,
                                        self.code, self.selection, self.group_cases))

    def _sides_writing(self, timing_a: Path, timing_b: Path) -> dict[str, Side]:
        """The two sides, writing their timings to ``timing_a`` and ``timing_b``."""
        roles = ((SIDE_A, "base", self.base, timing_a), (SIDE_B, "head", self.head, timing_b))
        return {name: Side(name, f"{role} {short(side.commit)}", side.built.binary, side.directory,
                           self.workspace.root / f"environment{self.label}-{name.lower()}.json", timing,
                           link=side.built.kit)
                for name, role, side, timing in roles}

    def _cases_in(self, groups) -> int:
        """How many cases ``groups`` (``suite/benchmark/variant`` each) hold, of those the selection counted."""
        return sum(self.group_cases.get(group, 0) for group in groups)

    def measure(self, control: bool = True) -> None:
        """The timed part (paired, or whole rounds with --abba); then, unless ``control`` is False, the control of the
        cases that run identical code (paired); then, unless --no-count or the code is the same, the counts."""
        args, paths, logs = self.options, self.paths, self.workspace.logs
        sides = self._sides_writing(paths.timing_a, paths.timing_b)
        say(f"seed {self.seed} (--seed {self.seed} to reproduce the case order), {shape(args, self.quick)}: "
            f"{paths.timing_a} vs {paths.timing_b}")
        self.from_copies = [name for name, side in sides.items() if args.paired and side.link is None]
        measure(args, sides, self.bench_options, self.quick, self.seed, logs, self.started, self.control)
        selection = self.selection
        if control and selection is not None and not selection.every and selection.same() and _control_can_run(args):
            name_a, name_b = self.names
            self.control_paths = control_paths = result_paths(self.results, self.stamp, f"{name_a}-control",
                                                              f"{name_b}-control")
            self.control_groups = groups = same_code.control_groups(selection.same(), self.group_cases, self.seed)
            say(f"the control of {len(groups)} of the {len(selection.same())} variant(s) in their benchmarks that run "
                f"identical code ({self._cases_in(groups)} cases, at least "
                f"{same_code.CONTROL_CASES_PER_SUITE} of each suite, drawn by the seed): {same_code.CONTROL_ROUNDS} "
                f"paired rounds: {control_paths.timing_a} vs {control_paths.timing_b}")
            run_paired(self._sides_writing(control_paths.timing_a, control_paths.timing_b),
                       with_filter(self.bench_options, case_selection.filter_pattern(groups)), self.quick,
                       paired_plan.settings(self.quick, same_code.CONTROL_ROUNDS, same_code.CONTROL_ROUNDS,
                                            args.visit_pairs, args.sample_time, None, args.placement),
                       self.seed, logs, say, elapsed_text, control=True)
        if not args.no_count and not self.control:
            self.counted = run_counts(sides, self.bench_options, self.quick,
                                      {SIDE_A: paths.counts_a, SIDE_B: paths.counts_b}, logs)

    def timing(self) -> TimingComparison:
        """The timing gate's comparison of the measured files: a row per case compared, with its ratio (head/base),
        its interval and its outcome (compare.classify, the gate's one rule)."""
        return timing_gate(self.paths.timing_a, self.paths.timing_b, self.options.alpha,
                           suites_judged=not self.control)[0]

    def report(self) -> Report:
        """The Markdown of the measured comparison, its verdict line first and last, and its exit code (the first of
        1, 5, 4 that a gate gave, else 0: verdict.combine_exit_codes)."""
        args, paths, control, selection = self.options, self.paths, self.control, self.selection
        control_paths, group_cases = self.control_paths, self.group_cases
        markdown, timing_exit, timing_headline, cases, coarsest = timing_markdown(paths.timing_a, paths.timing_b,
                                                                                  args.alpha, control)
        codes = [timing_exit]
        narrowed_by_selection = selection is not None and not selection.every
        same = self._cases_in(selection.same()) if selection is not None and narrowed_by_selection else 0
        # The cases the selection timed, and the controls a filtered run times beside them (counted in ``cases``).
        selected = self._cases_in(selection.timed()) if selection is not None and narrowed_by_selection else cases
        controlled = self._cases_in(self.control_groups)
        headlines = [_code_headline(self.code, min(selected, cases), control, same, coarsest,
                                    same_code.CONTROL_ROUNDS if control_paths is not None else 0,
                                    max(cases - selected, 0), controlled),
                     f"timings{' (control)' if control else ''}: {_without_gate(timing_headline)}"]
        out = [f"# bench-commits: {self.base.revision} ({short(self.base.commit)}) → {self.head.revision} "
               f"({short(self.head.commit)})", "",
               f"{shape(args, self.quick)}, seed {self.seed}; "
               f"`{paths.timing_a.name}` vs `{paths.timing_b.name}`; {elapsed_text(time.monotonic() - self.started)} "
               "wall time.", "", *same_code.describe(self.code, cases, timed_all=None if narrowed_by_selection
                                                     else not control), ""]
        if selection is not None:
            out += [*case_selection.describe(selection, group_cases), ""]

        if self.from_copies:
            out += [f"**Layout not shuffled:** every round ran {' and '.join(self.from_copies)} from a copy of its "
                    "build, not from a fresh link (the build's note on stderr says why), so where the linker put its "
                    "code and data stayed the same through the comparison, and a layout difference between the builds "
                    "can read as a change (docs/paired-design.md#a-fresh-link-for-every-round).", ""]
            headlines.append(FROM_COPIES_HEADLINE)
        out += [markdown.rstrip(), ""]
        if control_paths is not None:
            suites = control_of(control_paths.timing_a, control_paths.timing_b)
            out += [f"Of the {same} cases that run identical code, the control of {controlled}, at least "
                    f"{same_code.CONTROL_CASES_PER_SUITE} of each suite, drawn by the seed "
                    f"(`{control_paths.timing_a.name}` vs `{control_paths.timing_b.name}`):", "",
                    *control_markdown(suites), ""]
            codes.append(same_code.control_exit(exit_codes.EXIT_PASSED, suites))
            headlines.append(f"the control of the identical code: {control_headline(suites)}")
        if self.counted:
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
        return Report("\n".join(verdict.first_and_last(code, headlines, out)), code, tuple(headlines))


def build_commit(side: str, revision: str, commit: str, directory: Path, builder: Builder, workspace: Workspace,
                 cache: BuildCache | None, rebuild: bool) -> BuiltCommit:
    """``commit`` built in ``directory`` (run.build: reused from ``cache`` unless ``rebuild``)."""
    return BuiltCommit(revision, commit, directory, build(side, commit, directory, builder, workspace.logs, cache,
                                                          rebuild))


def compare_commits(args, bench_options: list[str], quick: bool, repo: Path, package: Path, builder: Builder,
                    cache: BuildCache | None, seed: int, manifest: package_manifest.Manifest,
                    product: str) -> tuple[str, int]:
    """bench-commits BASE HEAD: resolve the two revisions, build each commit in a worktree of its own, compare
    them; the Markdown to print and the exit code."""
    base_rev, head_rev = args.revisions
    base, head = resolve_revision(repo, base_rev), resolve_revision(repo, head_rev)
    results = repo / package / RESULTS_DIR
    results.mkdir(exist_ok=True)
    run_stamp = stamp()
    started = time.monotonic()
    workspace = Workspace(repo, package, args.keep)
    try:
        directories = {commit: workspace.worktree(commit) for commit in dict.fromkeys((base, head))}
        leaving = package_manifest.paths_leaving(manifest, repo)
        for commit, directory in directories.items():
            if leaving:
                package_manifest.check_paths_from(package_manifest.read(directory), leaving, commit)
        builds: dict[str, BuiltCommit] = {}
        for side, revision, commit in (("base", base_rev, base), ("head", head_rev, head)):
            if commit not in builds:
                builds[commit] = build_commit(side, revision, commit, directories[commit], builder, workspace, cache,
                                              args.rebuild)
        if not manifest.is_dispatchbench:
            check_measures_package(manifest, product, [(built.built.binary, built.directory, built.built.kit)
                                                       for built in builds.values()], bench_options)
        comparison = Comparison(args, BuiltCommit(base_rev, base, directories[base], builds[base].built),
                                BuiltCommit(head_rev, head, directories[head], builds[head].built), bench_options,
                                quick, seed, workspace, cache, results, started, run_stamp)
        comparison.plan()
        if args.what_changed:
            return comparison.what_changed(), exit_codes.EXIT_PASSED
        comparison.measure()
    finally:
        workspace.close()
    report = comparison.report()
    return report.markdown, report.code


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
    name = footprints_name(bench_options)
    identities = {commits[0]: base.identity, commits[1]: head.identity}
    files = {commit: _footprints_file(commit, identities[commit], name, cache, logs) for commit in commits}
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


def footprints_name(bench_options: list[str]) -> str:
    """The name of a build's footprints file for the bench options' filter. Footprints are kept by code (a build of
    another commit with the same code has the same footprints), one file for each filter (the whole suite's,
    without one)."""
    return f"functions-{hashlib.sha256(' '.join(filter_option(bench_options)).encode()).hexdigest()[:12]}.tsv"


def _footprints_file(commit: str, identity: CodeIdentity, name: str, cache: BuildCache | None, logs: Path) -> Path:
    """Where the footprints ``name`` of the build of ``commit`` are: kept by its code, else in this run's logs
    (where they are written, and which may hold them already)."""
    return (cache.kept_by_code(identity, name) if cache is not None else None) or logs / f"functions-{commit[:12]}.tsv"


def footprints_kept(side: BuiltCommit, bench_options: list[str], cache: BuildCache | None, logs: Path) -> bool:
    """Whether the footprints of ``side``'s build for the bench options' filter are at hand (kept by code, or
    written by this run), so that a selection with it as the base computes none of its own."""
    identity = side.built.identity
    return identity is not None and _footprints_file(side.commit, identity, footprints_name(bench_options), cache,
                                                     logs).is_file()


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
                   coarsest: float = float("nan"), control_rounds: int = 0, harness: int = 0,
                   controlled: int | None = None) -> str:
    """The code part of the verdict line (gate_text.code_headline): ``same`` cases not timed, their code identical,
    or timed only in a control of ``control_rounds`` (``controlled`` of them); ``coarsest``: the largest change that
    could hide in a timed case; ``harness``: the controls timed beside the ``cases``."""
    if code.same:
        return "code: " + code_headline(cases, same_code.evidence(code), timed_all=not control)
    if code.status == same_code.CHANGED:
        return "code: " + code_headline(cases, changed=same_code.changes_summary(code), identical=same,
                                        coarsest=coarsest, control_rounds=control_rounds, harness=harness,
                                        controlled=controlled)
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

