"""bench-commits bisect on real commits: the probe that builds each commit the search asks for (kept in the build
cache, as bench-commits keeps its builds), tells whether two commits run the same code for the chosen cases, and
times a commit against GOOD with the comparison bench-commits BASE HEAD makes (comparison.Comparison); then the
report. The search itself is bisect.search; the report's words are bisect_report's.

Which cases: the chosen cases are those the bench options select (``--filter``, ``--threads``), until BAD is
timed; from then on, the cases BAD moved (the *tracked* cases), and only those are timed at later steps.

Same code for the chosen cases: the two builds' code identities are equal, or the selection of the cases that
run changed code (case_selection, with the footprints of the whole suite, so that its rule 3 sees every group)
times none of them. A timed step times, against GOOD, the chosen cases whose code differs from GOOD's; the
others count as unchanged.
"""

from __future__ import annotations

import copy
import time
from dataclasses import replace
from typing import Any
from pathlib import Path

from analyze_lib.files.model import CaseKey
from analyze_lib.judge.compare import FASTER, SLOWER, UNCHANGED, UNDETECTABLE
from . import bisect, bisect_report, case_selection, git, package_manifest, same_code
from .bench_options import with_filter, without_filter
from .bisect_report import Timing
from .brought_in import list_cases
from .build_cache import BuildCache
from .comparison import BuiltCommit, Comparison, build_commit, check_measures_package, footprints_kept, \
    paired_settings, shape
from .errors import ComparisonError
from .run import Builder, elapsed_text, say
from .sides import short
from .workspace import RESULTS_DIR, Workspace, resolve_revision

# A step timed further gets this many times the rounds, the most rounds and the budget of its first timing.
FURTHER_FACTOR = 2
# The outcomes that decide a case either way (bisect.step_verdict).
DECIDED = (UNCHANGED, SLOWER, FASTER)


def candidates(repo: Path, good: str, bad: str, good_rev: str, bad_rev: str) -> list[str]:
    """The commits of BAD's first-parent history after GOOD, oldest first; ComparisonError (one line) when GOOD is
    BAD, is not its ancestor, or is not on its first-parent history."""
    if good == bad:
        raise ComparisonError(f"GOOD and BAD are one commit ({short(good)}): no range to bisect")
    if not git.is_ancestor(repo, good, bad):
        swapped = " (BAD is an ancestor of GOOD: are they swapped?)" if git.is_ancestor(repo, bad, good) else ""
        raise ComparisonError(f"GOOD {good_rev} ({short(good)}) is not an ancestor of BAD {bad_rev} ({short(bad)})"
                              f"{swapped}")
    found = git.first_parent_range(repo, good, bad)
    if not found:
        raise ComparisonError(f"no commit in {good_rev}..{bad_rev}: nothing to bisect")
    if git.first_parent(repo, found[0]) != good:
        raise ComparisonError(f"GOOD {good_rev} ({short(good)}) is not on BAD's first-parent history (it was merged "
                              "in from another branch): give a GOOD on it, such as the merge that brought it in or "
                              "that merge's first parent")
    return found


class CommitProbe:
    """The probe of bisect.search on the commits of a repository, within an open ``workspace`` (module doc)."""

    def __init__(self, args, repo: Path, package: Path, manifest: package_manifest.Manifest, product: str,
                 builder: Builder, cache: BuildCache | None, workspace: Workspace, bench_options: list[str],
                 quick: bool, seed: int, good: str, revisions: dict[str, str]):
        self.repo, self.manifest, self.product, self.builder = repo, manifest, product, builder
        self.cache, self.workspace, self.quick, self.seed = cache, workspace, quick, seed
        self.bench_options = list(bench_options)
        self.good, self.revisions = good, revisions
        self.results = repo / package / RESULTS_DIR
        self.direction = FASTER if args.faster else SLOWER
        self.rebuild = args.rebuild
        # Timed steps: every chosen case as a changed one (the selection is asked before); no control, no counts.
        self.options = copy.copy(args)
        self.options.all, self.options.no_count, self.options.what_changed = True, True, False
        self.select_options = copy.copy(self.options)
        self.select_options.all = False
        self.leaving = package_manifest.paths_leaving(manifest, repo)
        self.commits: dict[str, BuiltCommit] = {}
        self.failed: dict[str, str] = {}
        self.chosen: frozenset[str] = frozenset()
        self.tracked: frozenset[CaseKey] | None = None
        self.timings: dict[str, list[Timing]] = {}
        self._first_options: dict[str, Any] = {}
        self._code: dict[frozenset[str], Comparison] = {}

    # The probe (bisect.Probe)

    def build(self, commit: str) -> str:
        if commit in self.commits:
            return ""
        if commit in self.failed:
            return self.failed[commit]
        role = "GOOD" if commit == self.good else "BAD" if commit in self.revisions else "commit"
        try:
            directory = self.workspace.worktree(commit)
            if self.leaving:
                package_manifest.check_paths_from(package_manifest.read(directory), self.leaving, commit)
            self.commits[commit] = build_commit(role, self.revisions.get(commit, short(commit)), commit, directory,
                                                self.builder, self.workspace, self.cache, self.rebuild)
        except ComparisonError as error:
            self.failed[commit] = str(error)
            say(f"bisect: {short(commit)} skipped: {error}")
            return str(error)
        return ""

    def same_code(self, a: str, b: str) -> bool:
        if a == b:
            return True
        comparison = self._compared(a, b)
        if comparison.code.same:
            say(f"bisect: {short(b)} runs the same code as {short(a)}: settled without timing")
            return True
        selection = comparison.select() if comparison.code.status == same_code.CHANGED else None
        groups = self.groups()
        same = selection is not None and not selection.every and all(
            selection.groups.get(group, ("",))[0] == case_selection.SAME for group in groups)
        if same:
            say(f"bisect: {short(b)} runs the same code as {short(a)} for the {len(groups)} chosen variant(s): "
                "settled without timing")
        return same

    def time(self, commit: str, further: bool) -> str:
        good, head = self.commits[self.good], self.commits[commit]
        previous = self.timings.get(commit, [])
        if further:
            earlier = _outcomes(previous[-1], self.tracked)
            groups = frozenset(key.filter_name for key, outcome in earlier.items()
                               if outcome not in DECIDED and isinstance(key, CaseKey))
        else:
            earlier, groups = {}, self.groups()
        comparison = self._compared(self.good, commit)
        selection = comparison.select() if comparison.code.status == same_code.CHANGED else None
        narrowed = selection is not None and not selection.every
        same = sorted(group for group in groups if narrowed and selection is not None
                      and selection.groups.get(group, ("",))[0] == case_selection.SAME)
        timed = sorted(set(groups) - set(same))
        if not timed:  # every chosen case runs GOOD's code (the search asks same_code first, so only when it could not)
            self.timings.setdefault(commit, []).append(Timing(commit, further, ("", ""), (), tuple(same),
                                                              bisect.NOT_MOVED, ""))
            return bisect.NOT_MOVED
        options = self._further_options(commit) if further else self.options
        step = sum(len(found) for found in self.timings.values()) + 1
        say(f"bisect: timing {short(commit)} against GOOD ({short(self.good)}){', further' if further else ''}: "
            f"{len(timed)} variant(s) in their benchmarks")
        timing = Comparison(options, good, head, with_filter(self.bench_options, case_selection.filter_pattern(timed)),
                            self.quick, self.seed, self.workspace, self.cache, self.results, label=f"-{step}")
        timing.plan()
        if not further:
            self._first_options[commit] = timing.options
        timing.measure(control=False)
        rows = tuple(row for row in timing.timing().rows
                     if (self.tracked is None or row.key in self.tracked) and row.key.filter_name in timed)
        found = Timing(commit, further, (timing.paths.timing_a.name, timing.paths.timing_b.name), rows, tuple(same),
                       "", shape(timing.options, self.quick))
        outcomes = {**{key: outcome for key, outcome in earlier.items() if outcome in DECIDED},
                    **_outcomes(found, self.tracked)}
        verdict = bisect.step_verdict(outcomes.values(), self.direction)
        self.timings.setdefault(commit, []).append(replace(found, verdict=verdict))
        if self.tracked is None and verdict == bisect.MOVED:
            self.tracked = frozenset(key for key, outcome in outcomes.items()
                                     if outcome == self.direction and isinstance(key, CaseKey))
            say(f"bisect: BAD moved {len(self.tracked)} case(s); the later steps time those")
        say(f"bisect: {short(commit)}: {verdict}")
        return verdict

    # What the probe learnt, for the report

    def prepare(self, bad: str) -> None:
        """Build GOOD and BAD (ComparisonError when either fails: there is nothing to bisect against), refuse a
        package whose product would measure none of its variants, and learn the chosen cases."""
        for commit in (self.good, bad):
            why = self.build(commit)
            if why:
                raise ComparisonError(why)
        if not self.manifest.is_dispatchbench:
            check_measures_package(self.manifest, self.product,
                                   [(side.built.binary, side.directory, side.built.kit)
                                    for side in (self.commits[self.good], self.commits[bad])], self.bench_options)
        good = self.commits[self.good]
        self.chosen = frozenset(case.path for case in list_cases(good.built.binary, good.directory, self.bench_options)
                                if not case.control)
        if not self.chosen:
            raise ComparisonError("the bench options choose no case of GOOD's build")

    def groups(self) -> frozenset[str]:
        """The chosen groups: those of the cases BAD moved once it is timed, else those the bench options select."""
        return self.chosen if self.tracked is None else frozenset(key.filter_name for key in self.tracked)

    def what_changed(self, before: str, commit: str) -> list[str]:
        """The Markdown of what ``commit`` changed against ``before`` (its code, and which chosen variants run the
        changed functions, demangled)."""
        comparison = self._compared(before, commit)
        lines = same_code.describe(comparison.code, None, timed_all=None)
        selection = comparison.select() if comparison.code.status == same_code.CHANGED else None
        if selection is not None and selection.every:
            lines += ["", f"Which of the chosen variants run the changed code: any may ({selection.every}; "
                          "docs/comparison-rule.md#which-cases-run-changed-code)."]
        elif selection is not None:
            groups = sorted(self.groups())
            reasons = [selection.groups.get(group, ("", "not listed in both builds"))[1] for group in groups]
            lines += ["", "Which of the chosen variants run the changed code (their footprints: "
                          "docs/comparison-rule.md#which-cases-run-changed-code):", "",
                      *[f"- `{group}`: {reason}" for group, reason in zip(groups, case_selection.demangled(reasons))]]
        return lines

    @property
    def reused(self) -> int:
        """How many of the builds were kept from an earlier run."""
        return sum(1 for side in self.commits.values() if side.built.reused)

    def _compared(self, a: str, b: str) -> Comparison:
        """The comparison of two built commits for their code and selection (the whole suite's footprints), made once
        for each pair; its base is the one whose footprints are at hand, so that at most the other's are computed."""
        key = frozenset((a, b))
        if key not in self._code:
            whole = without_filter(self.bench_options)
            base, head = self.commits[a], self.commits[b]
            if not footprints_kept(base, whole, self.cache, self.workspace.logs) and \
                    footprints_kept(head, whole, self.cache, self.workspace.logs):
                base, head = head, base
            self._code[key] = Comparison(self.select_options, base, head, whole, self.quick, self.seed,
                                         self.workspace, self.cache, self.results)
        return self._code[key]

    def _further_options(self, commit: str) -> Any:
        """The options of a step timed further: FURTHER_FACTOR times its first timing's rounds, most rounds and
        budget."""
        first = self._first_options[commit]
        settings = paired_settings(first, self.quick)
        options = copy.copy(first)
        options.rounds = settings.rounds * FURTHER_FACTOR
        options.max_rounds = settings.max_rounds * FURTHER_FACTOR
        options.budget = settings.budget_seconds / 60 * FURTHER_FACTOR
        return options


def _outcomes(timing: Timing, tracked: frozenset[CaseKey] | None) -> dict[CaseKey | str, str]:
    """Each chosen case's outcome in ``timing``: its row's, UNCHANGED for a group not timed (GOOD's code), and
    UNDETECTABLE for a tracked case it has no row of."""
    outcomes: dict[CaseKey | str, str] = {row.key: row.outcome for row in timing.rows}
    for key in tracked or ():
        if key not in outcomes:
            outcomes[key] = UNCHANGED if key.filter_name in timing.same else UNDETECTABLE
    if tracked is None:
        outcomes.update({group: UNCHANGED for group in timing.same})
    return outcomes


def run_bisect(args, bench_options: list[str], quick: bool, repo: Path, package: Path, builder: Builder,
               cache: BuildCache | None, seed: int, manifest: package_manifest.Manifest,
               product: str) -> tuple[str, int]:
    """bench-commits bisect GOOD BAD: the report's Markdown and the exit code (exit_codes.BENCH_COMMITS_BISECT_EXIT_
    CODES)."""
    good_rev, bad_rev = args.revisions
    good, bad = resolve_revision(repo, good_rev), resolve_revision(repo, bad_rev)
    line = candidates(repo, good, bad, good_rev, bad_rev)
    (repo / package / RESULTS_DIR).mkdir(exist_ok=True)
    started = time.monotonic()
    say(f"bisect: {len(line)} commit(s) in {good_rev}..{bad_rev} (first parent), looking for the first "
        f"{'faster' if args.faster else 'slower'}; at most {bisect.most_timed_steps(len(line))} timed steps unless "
        "one is timed further")
    workspace = Workspace(repo, package, args.keep)
    try:
        probe = CommitProbe(args, repo, package, manifest, product, builder, cache, workspace, bench_options, quick,
                            seed, good, {good: good_rev, bad: bad_rev})
        probe.prepare(bad)
        found = bisect.search(good, line, probe)
        if found.status == bisect.BROKEN:
            raise ComparisonError(found.why)
        changed = probe.what_changed(found.last_good, found.first_bad) if found.status == bisect.FOUND else []
    finally:
        workspace.close()
    facts = bisect_report.Facts(
        good_rev=good_rev, bad_rev=bad_rev, direction=probe.direction, subjects=git.subjects(repo, [good, *line]),
        timings=probe.timings, changed=changed, reused=probe.reused, chosen=_chosen_text(bench_options, probe),
        bench_options=tuple(bench_options), shape=shape(probe.options, quick), seed=seed,
        wall=elapsed_text(time.monotonic() - started))
    return bisect_report.render(found, facts)


def _chosen_text(bench_options: list[str], probe: CommitProbe) -> str:
    """The chosen cases in words, for the report's first lines."""
    given = " ".join(bench_options)
    variants = f"{len(probe.chosen)} variant(s) in their benchmarks"
    return f"`{given}` ({variants})" if given else f"every case ({variants})"
