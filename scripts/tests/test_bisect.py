"""The search of bench-commits bisect (bench_commits.bisect) on fake commits, nothing built or timed: a culprit at
each end of the range, a run of same-code commits (settled, never timed), a step that stays undecided (timed
further, then where the search stopped), a build that fails (skipped and said), a range with no change (said),
each beside a negative control; and the timed steps stay within ⌈log₂ n⌉ + 2."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from analyze_lib import exit_codes
from analyze_lib.judge.compare import FASTER, SLOWER, UNCHANGED, UNDETECTABLE, UNRESOLVED
from bench_commits import bisect, bisect_report
from bench_commits.bisect import (BROKEN, BUILD_FAILED, FOUND, MOVED, NARROWED, NO_CHANGE, NOT_MOVED, SAME_CODE,
                                  STOPPED, TIMED, TIMED_FURTHER, UNDECIDED, search, step_verdict)
from gitrepo import commit, git
from test_bench_commits import invocations, run

GOOD = "c00"
# What the fake gate calls a change: a factor beyond 5% either way.
CALLED = 1.05


@dataclass
class FakeProbe:
    """Commits with a speed against GOOD (head/base ns/op of the one chosen case) and a code: two commits with equal
    codes run the same code. ``undecided``: how many of a commit's timings come out not resolved; ``broken``: commits
    whose build fails; ``no_same_code``: answer every same_code with False, as if the identities could not be had."""

    speeds: dict[str, float]
    codes: dict[str, str]
    undecided: dict[str, int] = field(default_factory=dict)
    broken: set[str] = field(default_factory=set)
    direction: str = SLOWER
    no_same_code: bool = False
    built: list[str] = field(default_factory=list)
    timed: list[tuple[str, bool]] = field(default_factory=list)

    def build(self, commit: str) -> str:
        assert commit not in self.built, f"{commit} built twice"
        self.built.append(commit)
        return "exit 1: error: cannot find 'oops' in scope" if commit in self.broken else ""

    def same_code(self, a: str, b: str) -> bool:
        assert a in self.built and b in self.built and a not in self.broken and b not in self.broken
        return not self.no_same_code and self.codes[a] == self.codes[b]

    def time(self, commit: str, further: bool) -> str:
        assert commit in self.built and commit not in self.broken
        self.timed.append((commit, further))
        if self.undecided.get(commit, 0) > 0:
            self.undecided[commit] -= 1
            return step_verdict([UNRESOLVED], self.direction)
        speed = self.speeds[commit]
        outcome = SLOWER if speed > CALLED else FASTER if speed < 1 / CALLED else UNCHANGED
        return step_verdict([outcome], self.direction)


def series(speeds: list[float], codes: list[str] | None = None, **options) -> tuple[list[str], FakeProbe]:
    """Candidates c01.. with ``speeds`` (GOOD's is 1) and ``codes`` (each commit its own code by default)."""
    names = [f"c{index:02d}" for index in range(1, len(speeds) + 1)]
    codes = codes or [f"code-{name}" for name in names]
    probe = FakeProbe({GOOD: 1.0, **dict(zip(names, speeds))}, {GOOD: "code-good", **dict(zip(names, codes))},
                      **options)
    return names, probe


def slowed_at(n: int, culprit: int | None, factor: float = 1.3) -> list[float]:
    """n commits whose speed steps up by ``factor`` at the 1-based ``culprit`` (None: never)."""
    return [factor if culprit is not None and index >= culprit else 1.0 for index in range(1, n + 1)]


def timed_commits(probe: FakeProbe) -> list[str]:
    return [commit for commit, _ in probe.timed]


# The verdict of one step, from the gate's outcomes


def test_a_step_is_moved_when_any_case_was_called_the_way_searched_for():
    assert step_verdict([UNCHANGED, SLOWER, UNRESOLVED]) == MOVED
    assert step_verdict([UNCHANGED, FASTER], FASTER) == MOVED
    # Negative controls: called the other way is decided and not moved; anything not resolved leaves it undecided.
    assert step_verdict([UNCHANGED, FASTER]) == NOT_MOVED
    assert step_verdict([UNCHANGED, SLOWER], FASTER) == NOT_MOVED
    assert step_verdict([UNCHANGED, UNRESOLVED]) == UNDECIDED
    assert step_verdict([UNDETECTABLE]) == UNDECIDED
    assert step_verdict([]) == UNDECIDED
    with pytest.raises(ValueError):
        step_verdict([SLOWER], UNCHANGED)


# A culprit at each end


@pytest.mark.parametrize("culprit", [1, 12], ids=["first", "last"])
def test_a_culprit_at_either_end_is_found(culprit):
    names, probe = series(slowed_at(12, culprit))
    found = search(GOOD, names, probe)
    assert found.status == FOUND and found.culprit == names[culprit - 1]
    assert found.last_good == (GOOD if culprit == 1 else names[culprit - 2])
    assert found.remaining == (names[culprit - 1],)
    assert found.timed_steps <= bisect.most_timed_steps(12)
    # Negative control: the same series without the slowdown names no commit.
    names, probe = series(slowed_at(12, None))
    none = search(GOOD, names, probe)
    assert none.status == NO_CHANGE and none.culprit is None and timed_commits(probe) == [names[-1]]


def test_a_range_of_one_commit():
    names, probe = series([1.3])
    found = search(GOOD, names, probe)
    assert (found.status, found.culprit, found.timed_steps, found.built) == (FOUND, "c01", 1, 2)
    names, probe = series([1.0])
    assert search(GOOD, names, probe).status == NO_CHANGE


def test_faster_finds_a_speedup_and_not_a_slowdown():
    speeds = [1.0, 1.0, 0.7, 0.7, 1.3, 1.3, 1.3]  # sped up at c03, slowed at c05 (still faster than GOOD)
    speeds[4:] = [0.7 * 1.3] * 3
    names, probe = series(speeds, direction=FASTER)
    assert search(GOOD, names, probe).culprit == "c03"
    # Negative control: searched for a slowdown, the same series has none against GOOD (0.91 is faster still).
    names, probe = series(speeds)
    assert search(GOOD, names, probe).status == NO_CHANGE


# Same code: settled without timing


def test_same_code_commits_are_settled_without_timing():
    # c01..c06 change only docs (GOOD's code), c07 slows the case, c08..c12 change only docs again.
    codes = ["code-good"] * 6 + ["slow"] * 6
    names, probe = series(slowed_at(12, 7), codes)
    found = search(GOOD, names, probe)
    assert found.culprit == "c07"
    same = {step.commit for step in found.steps if step.how == SAME_CODE}
    assert same and not same & set(timed_commits(probe)), "a same-code commit was timed"
    assert timed_commits(probe) == ["c12"]  # BAD alone: every other commit has GOOD's code or BAD's
    assert all(step.same_as for step in found.steps if step.how == SAME_CODE)
    assert found.count(SAME_CODE) == len(same)
    # Negative control: were the same-code commits timed, the culprit would be the same, after more timing.
    names, timing_all = series(slowed_at(12, 7), codes, no_same_code=True)
    timed_everywhere = search(GOOD, names, timing_all)
    assert timed_everywhere.culprit == "c07" and timed_everywhere.count(SAME_CODE) == 0
    assert len(timing_all.timed) > len(probe.timed)


def test_bad_with_the_same_code_as_good_is_no_change_and_times_nothing():
    names, probe = series([1.0, 1.0, 1.0], ["code-good"] * 3)
    found = search(GOOD, names, probe)
    assert found.status == NO_CHANGE and "same code" in found.why and probe.timed == []
    assert [step.how for step in found.steps] == [SAME_CODE]


def test_a_commit_with_the_code_of_a_moved_one_is_moved():
    # c04 slows and c05 only touches docs: c04, the culprit, is settled as the same code as c05 (BAD), moved.
    names, probe = series(slowed_at(5, 4), ["a", "b", "c", "slow", "slow"])
    found = search(GOOD, names, probe)
    assert found.culprit == "c04"
    assert found.settled("c04") == bisect.Step("c04", SAME_CODE, MOVED, same_as="c05")
    assert timed_commits(probe) == ["c05", "c02", "c03"]


def test_a_revert_to_goods_code_is_not_moved_without_timing():
    # c02 changes the code and c03 reverts it; c04 slows. c03 is settled against GOOD, though its neighbours differ.
    names, probe = series([1.0, 1.0, 1.0, 1.3, 1.3, 1.3], ["a", "b", "code-good", "slow", "slow2", "slow3"])
    found = search(GOOD, names, probe)
    assert found.culprit == "c04"
    assert found.settled("c03") == bisect.Step("c03", SAME_CODE, NOT_MOVED, same_as=GOOD)
    assert "c03" not in timed_commits(probe)


# A step that cannot decide


def test_an_undecided_step_is_timed_further_and_the_search_goes_on():
    names, probe = series(slowed_at(8, 6), undecided={"c04": 1})
    found = search(GOOD, names, probe)
    assert found.culprit == "c06"
    assert ("c04", True) in probe.timed and [step.how for step in found.steps if step.commit == "c04"] == [
        TIMED, TIMED_FURTHER]
    assert found.settled("c04").verdict == NOT_MOVED
    assert found.timed_steps <= bisect.most_timed_steps(8) + 1


def test_a_step_still_undecided_when_timed_further_stops_the_search_and_names_the_range_left():
    names, probe = series(slowed_at(8, 6), undecided={"c04": 2})
    stopped = search(GOOD, names, probe)
    assert stopped.status == STOPPED and stopped.culprit is None and stopped.stopped_at == "c04"
    assert (stopped.last_good, stopped.first_bad) == (GOOD, "c08")
    assert stopped.remaining == tuple(names) and "c04" in stopped.why
    assert probe.timed == [("c08", False), ("c04", False), ("c04", True)]
    # Negative control: decided at the first timing, the same series is found.
    names, probe = series(slowed_at(8, 6))
    assert search(GOOD, names, probe).culprit == "c06"


def test_bad_still_undecided_stops_before_any_halving():
    names, probe = series(slowed_at(8, 6), undecided={"c08": 2})
    stopped = search(GOOD, names, probe)
    assert stopped.status == STOPPED and stopped.stopped_at == "c08" and len(stopped.remaining) == 8
    assert probe.timed == [("c08", False), ("c08", True)]


# A build that fails


def test_a_build_that_fails_is_skipped_and_said():
    names, probe = series(slowed_at(12, 9), broken={"c06"})
    found = search(GOOD, names, probe)
    assert found.culprit == "c09"
    assert found.settled("c06") == bisect.Step("c06", BUILD_FAILED, why="exit 1: error: cannot find 'oops' in scope")
    assert found.count(BUILD_FAILED) == 1 and "c06" not in timed_commits(probe)
    # Negative control: without the failure, the same culprit.
    names, probe = series(slowed_at(12, 9))
    assert search(GOOD, names, probe).culprit == "c09"


def test_failed_builds_just_before_the_culprit_leave_it_narrowed_to_them():
    names, probe = series(slowed_at(8, 6), broken={"c04", "c05"})
    narrowed = search(GOOD, names, probe)
    assert narrowed.status == NARROWED and narrowed.culprit is None
    assert (narrowed.last_good, narrowed.first_bad, narrowed.remaining) == ("c03", "c06", ("c04", "c05", "c06"))
    assert "2 commit(s)" in narrowed.why
    # Negative control: with c04 and c05 built, c06 alone.
    names, probe = series(slowed_at(8, 6))
    assert search(GOOD, names, probe).remaining == ("c06",)


def test_an_end_that_does_not_build_is_broken():
    names, probe = series(slowed_at(4, 2), broken={"c04"})
    broken = search(GOOD, names, probe)
    assert broken.status == BROKEN and broken.why.startswith("BAD (c04) could not be built") and probe.timed == []
    names, probe = series(slowed_at(4, 2), broken={GOOD})
    assert search(GOOD, names, probe).why.startswith("GOOD (c00) could not be built")


# How many steps are timed


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 12, 13, 31, 64])
def test_the_timed_steps_stay_within_log2_n_plus_2(n):
    bound = math.ceil(math.log2(n)) + 2
    for culprit in range(1, n + 1):
        names, probe = series(slowed_at(n, culprit))
        found = search(GOOD, names, probe)
        assert found.culprit == names[culprit - 1]
        assert found.timed_steps <= bisect.most_timed_steps(n) <= bound
        assert found.built <= bisect.most_timed_steps(n) + 1  # GOOD and every commit timed, nothing else
        # One step undecided at first (the first halving's) costs one timed step more, still within the bound.
        if n > 1:
            names, probe = series(slowed_at(n, culprit), undecided={names[n // 2 - 1]: 1} if n > 2 else {})
            assert search(GOOD, names, probe).timed_steps <= bound


def test_the_bound_is_reached_when_the_culprit_is_the_worst_place():
    # Not vacuous: some culprit of 12 takes all ⌈log₂ 12⌉ + 1 = 5 timed steps.
    steps = []
    for culprit in range(1, 13):
        names, probe = series(slowed_at(12, culprit))
        steps.append(search(GOOD, names, probe).timed_steps)
    assert max(steps) == bisect.most_timed_steps(12) == 5


# On a repository: the fake build and bench (fake_build.py, fake_bench.py), nothing of Swift


ONE_CASE = ("--seed", "7", "--max-rounds", "10", "--", "--filter", "^harness/spin", "--threads", "1")


def worker_calls(repo: Path) -> list[dict]:
    """The fake's worker processes (two a paired round), each with the commit it ran."""
    return [call for call in invocations(repo) if call.get("argv", [])[-1:] == ["worker"]]


def a_series(repo: Path, slowdown: bool = True) -> dict[str, str]:
    """GOOD and six commits after it: two code changes that leave the case's speed alone, a commit whose build fails,
    one that mends it (the code of the one before the failure), the slowdown (unless not ``slowdown``: a third code
    change), and a docs change."""
    commits = {"GOOD": git(repo, "rev-parse", "HEAD")}
    commits["c1"] = commit(repo, "c1: a change to another variant", {"CODE": "a\n"})
    commits["c2"] = commit(repo, "c2: another", {"CODE": "b\n"})
    commits["c3"] = commit(repo, "c3: a commit that does not build", {"BROKEN": "yes\n"})
    commits["c4"] = commit(repo, "c4: mend the build", {"BROKEN": None})
    commits["c5"] = commit(repo, "c5: the planted slowdown" if slowdown else "c5: a third change",
                           {"SPEED": "1.3\n"} if slowdown else {"CODE": "c\n"})
    commits["c6"] = commit(repo, "c6: docs", {"README.md": "docs\n"})
    return commits


def test_bisect_names_the_slowdown_skips_a_failed_build_and_times_no_same_code_commit(repo, capsys):
    commits = a_series(repo)
    assert run(repo, "bisect", commits["GOOD"], "HEAD", *ONE_CASE) == exit_codes.EXIT_OK
    captured = capsys.readouterr()
    out = captured.out
    first = out.splitlines()[0]
    assert first.startswith("**Verdict: FOUND** (exit 0); first slower commit: `")
    assert "c5: the planted slowdown" in first
    assert commits["c5"][:7] in first and "harness/spin/loop threads:1" in first and "slower" in first
    assert out.rstrip().splitlines()[-1] == first
    # What was timed: BAD and c2 (each a comparison against GOOD); c4 and c5 settled as the same code; c3 skipped.
    timed_heads = {call["commit"] for call in worker_calls(repo)} - {commits["GOOD"]}
    assert timed_heads == {commits["c6"], commits["c2"]}
    assert "6 commits: 5 built, 2 timed, 2 same code, 1 build failed" in first
    assert f"| `{commits['c3'][:7]}` | c3: a commit that does not build | build failed: build of commit" in out
    assert f"same code as `{commits['c6'][:7]}` (BAD)" in out and f"same code as `{commits['c2'][:7]}`" in out
    assert "It runs the same code for the chosen cases as" in out
    slower = r"1\.[23]\d"  # the fake's 1.3 with its noise
    row = rf"\| `harness/spin/loop threads:1` \| {slower} \| \[{slower}, {slower}\] \| {slower}× slower \|"
    assert re.search(row, out)
    assert "**Code: changed**" in out  # what the culprit changed, against c4
    # A second bisect of the same range builds nothing (the commit that fails to build fails again).
    assert run(repo, "bisect", commits["GOOD"], "HEAD", *ONE_CASE) == exit_codes.EXIT_OK
    again = capsys.readouterr()
    assert f"first slower commit: `{commits['c5'][:7]}`" in again.out.splitlines()[0]
    assert "Built: 5, GOOD included (5 kept from an earlier run)" in again.out
    assert again.err.count("reused the build") == 5 and "building GOOD" not in again.err


def test_bisect_of_a_range_without_the_slowdown_says_no_change(repo, capsys):
    commits = a_series(repo, slowdown=False)
    assert run(repo, "bisect", commits["GOOD"], "HEAD", *ONE_CASE) == exit_codes.EXIT_NO_CHANGE
    out = capsys.readouterr().out
    assert out.startswith(f"**Verdict: NO CHANGE** (exit 6); no change: BAD `{commits['c6'][:7]}` is not slower than "
                          f"GOOD `{commits['GOOD'][:7]}` on the chosen cases")
    assert "## No change" in out and "Not visited: 5." in out


def test_bisect_of_docs_alone_times_nothing(repo, capsys):
    good = git(repo, "rev-parse", "HEAD")
    commit(repo, "docs", {"README.md": "docs\n"})
    commit(repo, "more docs", {"README.md": "more docs\n"})
    assert run(repo, "bisect", good, "HEAD", *ONE_CASE) == exit_codes.EXIT_NO_CHANGE
    assert "runs the same code as GOOD for the chosen cases" in capsys.readouterr().out.splitlines()[0]
    assert not worker_calls(repo)


@pytest.mark.parametrize("revisions, message", [
    (("HEAD", "HEAD~2"),
     r"is not an ancestor of BAD HEAD~2 \(\w+\) \(BAD is an ancestor of GOOD: are they swapped\?\)"),
    (("HEAD", "main"), "GOOD and BAD are one commit .*: no range to bisect"),
    (("no-such-branch", "HEAD"), "not a commit: 'no-such-branch'"),
    (("side", "HEAD"), "GOOD side .* is not an ancestor of BAD HEAD"),
], ids=["swapped", "empty", "unknown", "not-an-ancestor"])
def test_bisect_refuses_a_range_it_cannot_walk_in_one_line(repo, capsys, revisions, message):
    commit(repo, "one", {"CODE": "1\n"})
    commit(repo, "two", {"CODE": "2\n"})
    git(repo, "branch", "side", "HEAD~1")
    git(repo, "checkout", "-q", "side")
    commit(repo, "on the side", {"CODE": "side\n"})
    git(repo, "checkout", "-q", "main")
    assert run(repo, "bisect", *revisions) == exit_codes.EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and re.search(message, err[0]), err
    assert invocations(repo) == [] and not (repo / "Results").exists()


def test_bisect_refuses_a_good_merged_in_from_another_branch(repo, capsys):
    good = commit(repo, "main's", {"CODE": "1\n"})
    git(repo, "checkout", "-q", "-b", "side", "HEAD~1")
    side = commit(repo, "on the side", {"OTHER": "side\n"})
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    assert good and run(repo, "bisect", side, "HEAD") == exit_codes.EXIT_BAD_INPUT
    assert "is not on BAD's first-parent history" in capsys.readouterr().err


def test_bisect_help_and_usage_errors(repo, capsys):
    assert run(repo, "bisect", "--help") == 0
    help_text = capsys.readouterr().out
    assert help_text.startswith("usage: bench-commits bisect GOOD BAD") and "docs/comparison-rule.md" in help_text
    assert "  6    No change" in help_text and "--faster" in help_text
    assert run(repo, "bisect", "HEAD") == 2  # argparse: BAD is missing
    assert "the following arguments are required: BAD" in capsys.readouterr().err
    assert run(repo, "bisect", "HEAD~1", "HEAD", "--abba") == 2  # not an option of bisect
    assert run(repo, "bisect", "HEAD~1", "HEAD", "--", "--samples", "3") == 2  # set by the paired runs
    assert "--samples is set by bench-commits" in capsys.readouterr().err


# The report's words where the search ends without one commit (bisect_report; the fakes above give its steps)


def facts(timings=None, **subjects) -> bisect_report.Facts:
    return bisect_report.Facts("v1", "v2", SLOWER, {name: f"subject of {name}" for name in subjects} or {},
                               timings or {}, [], 0, "`--filter ^x` (1 variant(s) in their benchmarks)",
                               ("--filter", "^x"), "paired", 7, "0:01")


def test_a_stopped_bisect_names_the_step_and_the_range_left_and_how_to_go_on():
    names, probe = series(slowed_at(8, 6), undecided={"c04": 2})
    stopped = search(GOOD, names, probe)
    text, code = bisect_report.render(stopped, facts())
    first = text.splitlines()[0]
    assert code == exit_codes.EXIT_INCONCLUSIVE and first.startswith("**Verdict: INCONCLUSIVE** (exit 4); stopped at "
                                                                      "`c04`: its change against GOOD stayed undecided")
    assert "the first slower commit is one of 8, after `c00` (GOOD) up to `c08` (BAD)" in first
    assert "To go on: `scripts/bench-commits bisect c00 c08 -- --filter '^x'`" in text
    assert "| 3 | `c04` |  | timed further | undecided |" in text


def test_a_narrowed_bisect_lists_the_commits_that_could_not_be_built_and_the_first_moved_one():
    names, probe = series(slowed_at(8, 6), broken={"c04", "c05"})
    narrowed = search(GOOD, names, probe)
    text, code = bisect_report.render(narrowed, facts(c04=1, c05=1, c06=1))
    assert code == exit_codes.EXIT_INCONCLUSIVE
    assert "the first slower commit is one of 3, after `c03` up to `c06`: the commits before `c06` could not be built" \
        in text.splitlines()[0]
    assert "- `c04` subject of c04\n- `c05` subject of c05\n- `c06` subject of c06" in text
    assert "| build failed: exit 1: error: cannot find 'oops' in scope | skipped |" in text


def test_each_ending_has_its_own_exit_code():
    assert set(bisect_report.EXIT_CODES) == {FOUND, NARROWED, STOPPED, NO_CHANGE}
    listed = {code for code, _ in exit_codes.BENCH_COMMITS_BISECT_EXIT_CODES}
    assert set(bisect_report.EXIT_CODES.values()) <= listed and set(bisect_report.VERDICT_WORDS) <= listed
    assert exit_codes.EXIT_NO_CHANGE not in {code for code, _ in exit_codes.BENCH_COMMITS_EXIT_CODES}
