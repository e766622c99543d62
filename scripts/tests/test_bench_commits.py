"""scripts/bench-commits on a temporary git repository, with fake_build.py for the swift build and
fake_bench.py for bench (no Swift needed): revisions, the dirty-tree refusal, ABBA order and each
round's arguments, file names, exit codes mirroring the gate, counts, cleanup, and the gate check (--check-gate)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from analyze_lib import exit_codes
from bench_commits import abba_plan, cli, gate_check, paired_plan, sides, verdict
from bench_commits.errors import ComparisonError
from bench_commits.git import resolve
from bench_commits.gate_check import Observed, SpinRow
from bench_commits.run import Builder
from gitrepo import commit, git

TESTS_DIR = Path(__file__).resolve().parent
WRAPPER = TESTS_DIR.parent / "bench-commits"
FAKE_BUILD = Builder((sys.executable, "-S", str(TESTS_DIR / "fake_build.py")), ".build/release/bench")
STAMPED = re.compile(r"^\d{8}-\d{6}-")


def invocations(repo: Path, selection: bool = False) -> list[dict]:
    """bench's invocations that time or count; with ``selection``, also those that learn which cases to time
    (``count --functions``, ``--list``)."""
    log = repo.parent / "bench.log"
    calls = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return [call for call in calls if selection or not ({"--functions", "--list"} & set(call.get("argv", ())))]


def run(repo: Path, *argv: str) -> int:
    return cli.main(list(argv), builder=FAKE_BUILD, cwd=repo)


def run_wrapper(repo: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(WRAPPER), *argv], cwd=repo, capture_output=True, text=True, env=os.environ)


def results(repo: Path) -> list[str]:
    directory = repo / "Results"
    return sorted(path.name for path in directory.iterdir()) if directory.exists() else []


# Revisions


def test_a_bad_revision_exits_2_with_one_line(repo):
    done = run_wrapper(repo, "no-such-branch", "HEAD")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["bench-commits: not a commit: 'no-such-branch'"]
    assert done.stdout == ""


@pytest.mark.parametrize("revision", ["$(touch pwned)", "HEAD;touch pwned", "`touch pwned`", "HEAD && touch pwned",
                                      "--output=pwned"])
def test_a_revision_never_goes_through_a_shell(repo, revision):
    done = run_wrapper(repo, "HEAD", "--", "--filter", "x") if revision.startswith("--") else \
        run_wrapper(repo, revision, "HEAD")
    if revision.startswith("--"):
        # Not a revision at all here: a bench option, refused elsewhere; the point is nothing ran.
        assert done.returncode == 2
    else:
        assert done.returncode == 2
        assert done.stderr.strip().splitlines() == [f"bench-commits: not a commit: {revision!r}"]
    assert not (repo / "pwned").exists() and not (Path.cwd() / "pwned").exists()
    assert invocations(repo) == []


def test_an_option_like_revision_is_not_taken_for_a_git_option(repo):
    assert run(repo, "main", "--end-of-options") == 2  # argparse: unknown option, exit 2
    with pytest.raises(ComparisonError, match="not a commit: '--output=pwned'"):
        resolve(repo, "--output=pwned")
    assert not (repo / "pwned").exists()


def test_head_with_uncommitted_changes_is_refused(repo, capsys):
    (repo / "Package.swift").write_text("// edited, not committed\n")
    assert run(repo, "main", "HEAD") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "commit or stash" in err[0]
    # The checked-out commit by another name is the working tree too.
    assert run(repo, "main", git(repo, "rev-parse", "HEAD")) == 2
    assert invocations(repo) == []


def test_untracked_files_do_not_make_the_tree_dirty(repo):
    (repo / "Results").mkdir()
    (repo / "Results" / "old.csv").write_text("x\n")
    (repo / "notes.txt").write_text("untracked\n")
    assert run(repo, "main", "HEAD", "--no-count") == 0


def test_two_revisions_are_needed(repo, capsys):
    assert run(repo, "HEAD") == 2
    assert "give two revisions" in capsys.readouterr().err


# The rounds


def test_abba_order():
    assert abba_plan.abba_order(2) == [(1, "A"), (1, "B"), (2, "B"), (2, "A")]
    assert [side for _, side in abba_plan.abba_order(3)] == list("ABBAAB")


def _option(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1]


def test_each_round_is_one_invocation_in_abba_order_with_one_seed(repo):
    base = git(repo, "rev-parse", "HEAD")
    head = commit(repo, "head", {"SPEED": "1.0\n"})
    assert run(repo, base, "HEAD", "--abba", "--pairs", "2", "--no-count", "--seed", "4242",
               "--", "--filter", "^harness", "--threads", "1") == 4  # 2 rounds: inconclusive
    calls = invocations(repo)
    assert len(calls) == 4
    sides = ["A" if _option(call["argv"], "--output").endswith(f"-{base[:7]}.csv") else "B" for call in calls]
    assert sides == ["A", "B", "B", "A"]
    assert [_option(call["argv"], "--round") for call in calls] == ["1", "1", "2", "2"]
    assert {_option(call["argv"], "--rounds") for call in calls} == {"2"}
    assert {_option(call["argv"], "--seed") for call in calls} == {"4242"}
    for side, expected_commit in (("A", base), ("B", head)):
        mine = [call for call, s in zip(calls, sides) if s == side]
        assert len({_option(call["argv"], "--run-environment") for call in mine}) == 1
        assert len({_option(call["argv"], "--output") for call in mine}) == 1
        # bench runs in its side's worktree, never in the user's tree.
        assert {call["commit"] for call in mine} == {expected_commit}
        assert all(Path(call["cwd"]) != repo for call in mine)
        assert all(call["argv"][:4] == ["--filter", "^harness", "--threads", "1"] for call in mine)
    environments = {_option(call["argv"], "--run-environment") for call in calls}
    assert len(environments) == 2
    outputs = {Path(_option(call["argv"], "--output")) for call in calls}
    assert {path.parent for path in outputs} == {repo / "Results"}
    assert all(path.is_absolute() for path in outputs)


def test_file_names_name_the_commits(repo):
    base = git(repo, "rev-parse", "HEAD")
    head = commit(repo, "head", {"SPEED": "1.0\n"})
    assert run(repo, "HEAD~1", "HEAD") == 0
    names = results(repo)
    assert len(names) == 4 and all(STAMPED.match(name) or name.startswith("counts-") for name in names)
    assert sum(name.endswith(f"-{base[:7]}.csv") for name in names) == 2
    assert sum(name.endswith(f"-{head[:7]}.csv") for name in names) == 2
    assert sum(name.startswith("counts-") for name in names) == 2


def test_one_commit_on_both_sides_is_built_once_and_named_a_and_b(repo):
    short = git(repo, "rev-parse", "--short=7", "HEAD")
    assert run(repo, "HEAD", "main", "--abba", "--no-count") == 0
    assert {call["cwd"] for call in invocations(repo)} == {invocations(repo)[0]["cwd"]}
    names = results(repo)
    assert len(names) == 2
    assert names[0].endswith(f"-{short}-a.csv") and names[1].endswith(f"-{short}-b.csv")


def test_result_paths_never_reuse_a_name(tmp_path):
    taken = {tmp_path / "20261122-080000-abc1234.csv", tmp_path / "counts-20261122-080000-def5678-2.csv"}
    paths = sides.result_paths(tmp_path, "20261122-080000", "abc1234", "def5678", exists=lambda p: p in taken)
    assert paths.timing_a.name == "20261122-080000-abc1234-3.csv"
    assert paths.timing_b.name == "20261122-080000-def5678-3.csv"
    assert paths.counts_a.name == "counts-20261122-080000-abc1234-3.csv"


def test_worktrees_are_removed_unless_kept(repo, capsys, monkeypatch, tmp_path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    commit(repo, "head", {"SPEED": "1.0\n"})
    assert run(repo, "main~0", "HEAD~0", "--no-count") == 0
    assert len(git(repo, "worktree", "list").splitlines()) == 1
    assert list(temporary.iterdir()) == [], "the workspace and the build's lock files are gone"
    assert run(repo, "HEAD~1", "HEAD", "--no-count", "--keep") == 0
    assert len(git(repo, "worktree", "list").splitlines()) == 3
    kept = re.search(r"kept the worktrees, builds and logs in (\S+)", capsys.readouterr().err).group(1)
    assert Path(kept).is_dir()
    shutil.rmtree(kept)


# Exit codes mirror the gate


def test_a_slower_head_exits_1_and_prints_the_comparison(repo, capsys):
    commit(repo, "slower", {"SPEED": "2.0\n"})
    assert run(repo, "HEAD~1", "HEAD", "--no-count") == 1
    out = capsys.readouterr().out
    assert out.splitlines()[2].startswith("# bench-commits: HEAD~1")
    assert "**Timings: FAILED" in out and "slower" in out and "Gate:" not in out
    assert "Counts: not run (--no-count)." in out
    # The first and the last line are the verdict, its word the exit code's.
    assert out.splitlines()[0] == out.rstrip().splitlines()[-1]
    assert out.rstrip().splitlines()[-1].startswith(
        "**Verdict: FAILED** (exit 1); code: 4 cases may run changed code, timed")
    assert "; timings: FAILED, " in out.rstrip().splitlines()[-1]
    assert out.rstrip().splitlines()[-1].endswith("; counts: not run")


def test_a_faster_head_passes(repo, capsys):
    commit(repo, "faster", {"SPEED": "0.5\n"})
    assert run(repo, "HEAD~1", "HEAD", "--no-count") == 0
    out = capsys.readouterr().out
    assert "faster" in out
    assert out.rstrip().splitlines()[-1].startswith("**Verdict: PASSED** (exit 0); code: ")
    assert "; timings: passed" in out.rstrip().splitlines()[-1]


def test_too_few_pairs_is_inconclusive(repo, capsys):
    assert run(repo, "HEAD", "HEAD", "--abba", "--pairs", "4", "--no-count") == 4
    out, err = capsys.readouterr()
    assert "warning: with 4 pair(s) the gate has fewer than 5 rounds a side" in err
    assert out.rstrip().splitlines()[-1].startswith("**Verdict: INCONCLUSIVE** (exit 4); code: ")
    assert "; timings: INCONCLUSIVE, " in out.rstrip().splitlines()[-1]


def test_counts_are_gated_exactly(repo, capsys):
    commit(repo, "more instructions", {"INSTRUCTIONS": "1.5\n"})
    assert run(repo, "HEAD~1", "HEAD", "--abba", "--quick", "--", "--filter", "^harness") == 1
    out = capsys.readouterr().out
    assert "## DispatchBench counts comparison" in out and "worse" in out
    assert out.rstrip().splitlines()[-1].startswith("**Verdict: FAILED** (exit 1); code: ")
    assert "; counts: FAILED, " in out.rstrip().splitlines()[-1]
    counts = [call["argv"] for call in invocations(repo) if call["argv"][0] == "count"]
    assert len(counts) == 2
    assert all(argv[1:4] == ["--quick", "--filter", "^harness"] for argv in counts)
    timed = [call["argv"] for call in invocations(repo) if call["argv"][0] != "count"]
    assert all("--quick" in argv for argv in timed)
    # Before timing, each build's footprints were had once, with the filter, and the rule timed every case: the
    # fake build's one object is no module of variants.
    footprints = [call["argv"] for call in invocations(repo, selection=True) if "--functions" in call["argv"]]
    assert len(footprints) == 2 and all(argv[1:4] == ["--quick", "--filter", "^harness"] for argv in footprints)
    assert "**Cases: every case timed**" in out and "outside the modules of variants and suites" in out


def test_counts_are_skipped_without_valgrind(repo, capsys, monkeypatch):
    monkeypatch.setenv("FAKE_BENCH_COUNT_EXIT", "69")
    # --all: HEAD against itself is the same code, which runs no bench count at all.
    assert run(repo, "HEAD", "HEAD", "--all", "--max-rounds", "10") in (0, 4)
    captured = capsys.readouterr()
    assert "Counts: skipped" in captured.out
    assert "counts skipped: bench count cannot run here" in captured.err


def test_combined_exit_codes():
    assert verdict.combine_exit_codes([0, 0]) == 0
    assert verdict.combine_exit_codes([0, 1]) == 1
    assert verdict.combine_exit_codes([4, 5]) == 5
    assert verdict.combine_exit_codes([4, 1]) == 1
    assert verdict.combine_exit_codes([4, 0]) == 4


# Failures


def test_a_build_failure_names_the_side_and_commit(repo, capsys):
    head = commit(repo, "broken", {"BROKEN": "yes\n"})
    assert run(repo, "HEAD~1", "HEAD") == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith(f"bench-commits: build of head ({head[:12]}) failed (exit 1)")
    assert "cannot find 'oops' in scope" in err
    assert len(git(repo, "worktree", "list").splitlines()) == 1
    assert invocations(repo) == []


def test_a_bench_failure_exits_2(repo, capsys, monkeypatch):
    monkeypatch.setenv("FAKE_BENCH_EXIT", "64")
    assert run(repo, "HEAD", "HEAD", "--abba") == 2
    assert "bench round 1 failed on A" in capsys.readouterr().err


def test_an_interrupted_round_exits_130_and_keeps_the_files(repo, monkeypatch):
    assert run(repo, "HEAD", "HEAD", "--abba", "--pairs", "1", "--no-count") == 0
    before = results(repo)
    monkeypatch.setenv("FAKE_BENCH_EXIT", "130")
    assert run(repo, "HEAD", "HEAD", "--abba", "--no-count") == 130
    assert results(repo) == before
    assert len(git(repo, "worktree", "list").splitlines()) == 1


def process_alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def test_an_interrupted_child_is_stopped_with_what_it_started(tmp_path):
    # As swift build starts compilers: the child starts a grandchild in the background, which ignores SIGINT
    # (a shell's background job does) and would go on writing in a removed worktree. The parent makes SIGINT a
    # KeyboardInterrupt whatever it inherited: a process started in the background of a script (as CI starts
    # this test) begins with SIGINT ignored.
    started = tmp_path / "grandchild.pid"
    child = f"sleep 120 & echo $! > {started}.tmp && mv {started}.tmp {started}; wait"
    parent = subprocess.Popen([sys.executable, "-c", (
        f"import signal, sys; sys.path.insert(0, {str(TESTS_DIR.parent)!r})\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from pathlib import Path\n"
        "from bench_commits.run import run_child\n"
        f"run_child(['sh', '-c', {child!r}], Path({str(tmp_path)!r}), Path({str(tmp_path / 'log')!r}))\n")],
        stderr=subprocess.DEVNULL)
    grandchild = None
    try:
        for _ in range(600):
            if started.exists() or parent.poll() is not None:
                break
            subprocess.run(["sleep", "0.05"])
        grandchild = int(started.read_text())
        assert process_alive(grandchild)
        parent.send_signal(signal.SIGINT)
        assert parent.wait(timeout=60) != 0
        for _ in range(600):  # SIGKILL was sent before the parent exited; the reaper may take a moment
            if not process_alive(grandchild):
                break
            subprocess.run(["sleep", "0.05"])
        assert not process_alive(grandchild)
    finally:  # nothing outlives the test, whatever it found
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if grandchild is not None and process_alive(grandchild):
            os.kill(grandchild, signal.SIGKILL)


@pytest.mark.parametrize("option", ["--output", "--rounds", "--round", "--seed", "--run-environment",
                                    "--overwrite", "--output=x.csv"])
def test_options_bench_commits_sets_are_refused(repo, option, capsys):
    assert run(repo, "HEAD", "HEAD", "--", option, "3") == 2
    assert "is set by bench-commits" in capsys.readouterr().err
    assert invocations(repo) == []


def test_a_bench_subcommand_after_the_separator_is_refused(repo, capsys):
    assert run(repo, "HEAD", "HEAD", "--", "count") == 2
    assert "must be options" in capsys.readouterr().err


# The gate check (--check-gate)


def _observed(flagged=(), spin=(("harness/spin/loop threads:1", "slower"),), gate_exit=0, unstable=0):
    rows = tuple(SpinRow(label, outcome, 1.03) for label, outcome in spin)
    return Observed(compared=4, flagged=tuple(flagged), spin=rows, unstable=unstable, gate_exit=gate_exit)


A_A, SPIN_125, SPIN_110 = gate_check.GATE_CHECKS


def test_the_gate_check_a_a_must_flag_nothing():
    assert gate_check.judge_check_gate(A_A, _observed(spin=(("harness/spin/loop threads:1", "unchanged"),)))[0]
    ok, why = gate_check.judge_check_gate(A_A, _observed(flagged=[("once/hit/lock threads:1", "faster")]))
    assert not ok and "flagged 1" in why
    ok, why = gate_check.judge_check_gate(A_A, _observed(spin=(), gate_exit=4))
    assert (ok, why) == (False, "gate exit 4: nothing could be decided")
    # A regression with no case flagged is a whole suite called slower, not "nothing could be decided".
    ok, why = gate_check.judge_check_gate(A_A, _observed(spin=(), gate_exit=1))
    assert (ok, why) == (False, "gate exit 1: a whole suite called slower on identical code, no case flagged")


def test_the_gate_check_planted_must_flag_spin_and_nothing_else():
    spin = "harness/spin/loop threads:1"
    assert gate_check.judge_check_gate(SPIN_125, _observed(flagged=[(spin, "slower")], gate_exit=1)) == \
        (True, "1 of 1 harness/spin rows slower, nothing else")
    two = ((spin, "slower"), ("harness/spin/loop threads:2", "unstable"))
    assert gate_check.judge_check_gate(SPIN_125, _observed(flagged=[(spin, "slower")], spin=two, gate_exit=1)) == \
        (True, "1 of 2 harness/spin rows slower (not resolved: harness/spin/loop threads:2 "
               "(unstable, floor 1.03×)), nothing else")
    flagged = [(spin, "slower"), ("once/hit/lock threads:1", "slower")]
    ok, why = gate_check.judge_check_gate(SPIN_110, _observed(flagged=flagged, gate_exit=1))
    assert not ok and why == "flagged 1 other case(s): once/hit/lock threads:1"
    ok, why = gate_check.judge_check_gate(SPIN_110, _observed(flagged=[(spin, "faster")], spin=((spin, "faster"),)))
    assert not ok and "faster" in why
    ok, why = gate_check.judge_check_gate(SPIN_125, _observed(spin=()))
    assert not ok and "no harness/spin case" in why


def test_a_planted_change_not_resolved_fails_only_where_it_must_be_resolved():
    spin = "harness/spin/loop threads:1"
    rows = ((spin, "unstable"), ("harness/spin/loop threads:2", "unchanged"))
    ok, why = gate_check.judge_check_gate(SPIN_125, _observed(spin=rows, unstable=1))
    assert not ok and why == (f"resolved in no row: {spin} (unstable, floor 1.03×), "
                              "harness/spin/loop threads:2 (unchanged, floor 1.03×)")
    ok, why = gate_check.judge_check_gate(SPIN_110, _observed(spin=rows, unstable=1))
    assert ok and why == (f"0 of 2 harness/spin rows slower (not resolved: {spin} (unstable, floor 1.03×), "
                          "harness/spin/loop threads:2 (unchanged, floor 1.03×)), nothing else")


def test_the_gate_check_plants_1_25_and_1_10():
    assert [(spec.b_options, spec.planted, spec.must_resolve) for spec in gate_check.GATE_CHECKS] == [
        ((), False, False), (("--spin-scale", "1.25"), True, True), (("--spin-scale", "1.10"), True, False)]


def test_a_planted_comparison_differs_in_the_factor_alone():
    """Side A gets the option too, at 1 and written to the same width; an A/A gets it on neither side."""
    for spec in (*gate_check.GATE_CHECKS, *gate_check.QUICK_PAIRED_GATE_CHECKS, gate_check.planted_check(1.05)):
        if spec.planted:
            assert spec.a_options == ("--spin-scale", "1.00")
            assert [len(option) for option in spec.a_options] == [len(option) for option in spec.b_options]
            assert spec.a_options != spec.b_options
        else:
            assert spec.a_options == spec.b_options == ()


def test_the_gate_check_runs_three_comparisons_of_head(repo, capsys, monkeypatch):
    # ×1.5 instead of ×1.10 keeps this test about the plumbing, whatever the fake's noise.
    monkeypatch.setattr(gate_check, "GATE_CHECKS", gate_check.GATE_CHECKS[:2] + (
        gate_check.GateCheckSpec("spin ×1.5", 1.5),))
    assert run(repo, "--check-gate", "--abba", "--quick", "--seed", "7") == 0
    out = capsys.readouterr().out
    assert "| A/A | 4 | none | 0 |" in out
    assert out.count("harness/spin rows slower, nothing else") == 2
    assert "Gate check: PASS (3 of 3 comparisons as expected)" in out
    assert "Three comparisons, each 10 ABBA pairs, quick; seed 7." in out
    calls = [call["argv"] for call in invocations(repo)]
    assert len(calls) == 3 * 2 * abba_plan.DEFAULT_PAIRS and all("--quick" in argv for argv in calls)
    spin = [argv for argv in calls if "--spin-scale" in argv]
    assert sorted({_option(argv, "--spin-scale") for argv in spin}) == ["1.00", "1.25", "1.50"]
    assert all(Path(_option(argv, "--output")).name.split("-check-gate")[1][0] in "23" for argv in spin)
    assert all((_option(argv, "--spin-scale") == "1.00") == _option(argv, "--output").endswith("-a.csv")
               for argv in spin), "side A runs at 1, side B at the planted factor"
    assert len(results(repo)) == 6


def test_the_gate_check_refuses_a_dirty_tree(repo, capsys):
    (repo / "Package.swift").write_text("// edited\n")
    assert run(repo, "--check-gate") == 2
    assert "commit or stash" in capsys.readouterr().err


def test_the_gate_check_shows_the_a_a_resolutions_when_paired():
    from analyze_lib.judge.compare import ResolutionGroup
    from bench_commits.cli import render_check_gate

    groups = (ResolutionGroup("once", 1, 3, 1.04, (2, 3)), ResolutionGroup("all", 0, 3, 1.04, (2, 3)))
    paired = [(spec, _observed(), True, "", 1.0) for spec in gate_check.GATE_CHECKS]
    paired[0] = (A_A, Observed(compared=3, flagged=(), spin=(), unstable=0, gate_exit=0, resolutions=groups),
                 True, "", 1.0)
    text = render_check_gate(paired)
    assert "in the A/A comparison" in text and "| once | 1 | 3 | 1.04× | 2 | 3 |" in text
    assert "per suite and thread count" not in render_check_gate(
        [(spec, _observed(), True, "", 1.0) for spec in gate_check.GATE_CHECKS])


# Builds kept between runs


def test_a_second_run_reuses_the_builds_and_rebuild_builds_afresh(repo, capsys):
    commit(repo, "head", {"SPEED": "1.0\n"})
    assert run(repo, "HEAD~1", "HEAD", "--abba", "--pairs", "1", "--no-count") == 0
    err = capsys.readouterr().err
    assert err.count("bench-commits: built ") == 2 and "reused" not in err
    assert run(repo, "HEAD~1", "HEAD", "--abba", "--pairs", "1", "--no-count") == 0
    err = capsys.readouterr().err
    assert err.count("bench-commits: reused the build of ") == 2 and "bench-commits: built " not in err
    assert run(repo, "HEAD~1", "HEAD", "--abba", "--pairs", "1", "--no-count", "--rebuild") == 0
    err = capsys.readouterr().err
    assert err.count("bench-commits: built ") == 2 and "reused" not in err


def footprinted(repo: Path) -> list[str]:
    """The working directories of the footprint runs (``bench count --functions``) so far, one per build run."""
    return [Path(call["cwd"]).name for call in invocations(repo, selection=True) if "--functions" in call["argv"]]


def test_footprints_are_kept_by_code_not_by_commit(repo, capsys):
    # Issue 74: a base whose code is the same as an earlier comparison's head reuses that head's footprints.
    commit(repo, "code", {"CODE": "a new body\n"})
    assert run(repo, "HEAD~1", "HEAD", "--abba", "--pairs", "1", "--no-count") in (0, 4)
    assert len(footprinted(repo)) == 2
    commit(repo, "docs only: the same code at another commit", {"README.md": "words\n"})
    commit(repo, "code again", {"CODE": "another body\n"})
    assert run(repo, "HEAD~1", "HEAD", "--abba", "--pairs", "1", "--no-count") in (0, 4)
    assert footprinted(repo)[2:] == ["worktree-" + git(repo, "rev-parse", "HEAD")[:12]], \
        "only the head, whose code is new, is footprinted"
    # Its control: code no build had is footprinted, whichever commit it is at.
    commit(repo, "a third body", {"CODE": "a third body\n"})
    assert run(repo, "HEAD~2", "HEAD", "--abba", "--pairs", "1", "--no-count") in (0, 4)
    assert footprinted(repo)[3:] == ["worktree-" + git(repo, "rev-parse", "HEAD")[:12]]
    capsys.readouterr()


def test_a_code_key_is_what_the_same_code_rule_compares():
    from bench_commits.code_identity import CodeIdentity
    one = CodeIdentity({"toolchain": "6.3.1"}, {"a.o:.text": "1"}, {"a.o:.text": ("f",)})
    assert one.code_key() == CodeIdentity(dict(one.inputs), dict(one.pieces), {"a.o:.text": ("g",)}).code_key()
    assert one.code_key() != CodeIdentity(one.inputs, {"a.o:.text": "2"}, one.symbols).code_key()
    assert one.code_key() != CodeIdentity({"toolchain": "6.4"}, one.pieces, one.symbols).code_key()


def test_a_kept_build_is_keyed_by_its_product_and_commit(tmp_path):
    from bench_commits.build_cache import BuildCache
    binary = tmp_path / "worktree" / ".build" / "release" / "bench"
    binary.parent.mkdir(parents=True)
    binary.write_text("built at c1")
    cache = BuildCache(tmp_path / "builds", "Swift version 6.3.1", ("swift", "build", "--product", "bench"))
    cache.store("c1", binary)
    restored = tmp_path / "other" / "bench"
    assert cache.restore("c1", restored) and restored.read_text() == "built at c1"
    assert not cache.restore("c2", tmp_path / "c2" / "bench")
    other_product = BuildCache(tmp_path / "builds", "Swift version 6.3.1", ("swift", "build", "--product", "Mine"))
    other_toolchain = BuildCache(tmp_path / "builds", "Swift version 6.4", cache.recipe)
    assert not other_product.restore("c1", tmp_path / "p" / "bench")
    assert not other_toolchain.restore("c1", tmp_path / "t" / "bench")


def test_the_toolchain_is_asked_once_for_each_swift_on_path(tmp_path, monkeypatch):
    from bench_commits.build_cache import toolchain_version
    asked = tmp_path / "asked.log"
    drivers = []
    for version in ("6.3.1", "6.4"):
        directory = tmp_path / version
        directory.mkdir()
        swift = directory / "swift"
        swift.write_text(f'#!/bin/sh\necho "$0" >> "{asked}"\necho "Swift version {version}"\n')
        swift.chmod(0o755)
        drivers.append(directory)
    monkeypatch.setenv("PATH", str(drivers[0]))
    assert toolchain_version() == toolchain_version() == "Swift version 6.3.1"
    monkeypatch.setenv("PATH", str(drivers[1]))
    assert toolchain_version() == "Swift version 6.4"
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert toolchain_version() is None
    assert asked.read_text().splitlines() == [str(drivers[0] / "swift"), str(drivers[1] / "swift")]


# A package of yours: --product, a package below the top of its repository, scripts/ci-gate


def test_the_product_names_what_is_built_and_run(monkeypatch):
    monkeypatch.delenv("BENCH_COMMITS_BUILD", raising=False)
    monkeypatch.delenv("BENCH_COMMITS_BINARY", raising=False)
    built = Builder.from_environment("MyBench")
    assert built.command == ("swift", "build", "-c", "release", "--product", "MyBench")
    assert built.binary == ".build/release/MyBench"
    assert Builder.from_environment().command[-1] == "bench"


def _package_below(repo: Path) -> Path:
    (repo / "Mine").mkdir()
    commit(repo, "a package below the top", {"Mine/Package.swift": "// mine\n"})
    return repo / "Mine"


def test_a_package_below_the_top_is_built_and_run_in_its_directory(repo):
    package = _package_below(repo)
    commit(repo, "slower", {"Mine/SPEED": "2.0\n"})
    assert run(repo, "HEAD~1", "HEAD", "--no-count") == 0  # from the top: the top's package, which did not change
    at_top = len(invocations(repo))
    assert {Path(call["cwd"]).name for call in invocations(repo) if "cwd" in call} == {
        "worktree-" + git(repo, "rev-parse", "HEAD")[:12], "worktree-" + git(repo, "rev-parse", "HEAD~1")[:12]}
    assert run(package, "HEAD~1", "HEAD", "--no-count") == 1
    assert {Path(call["cwd"]).name for call in invocations(repo)[at_top:] if "cwd" in call} == {"Mine"}
    assert len(results(package)) == 2 and all(name.endswith(".csv") for name in results(package))


def test_a_commit_without_the_package_is_refused_with_one_line(repo, capsys):
    package = _package_below(repo)
    assert run(package, "HEAD~1", "HEAD", "--no-count") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("bench-commits: commit ") and "has no Package.swift in Mine" in err[-1]
    assert len(git(repo, "worktree", "list").splitlines()) == 1


CI_GATE = TESTS_DIR.parent / "ci-gate"


@pytest.mark.parametrize("speed, status, verdict", [("2.0", 1, "**Timings: FAILED"), ("1.0", 0, "**Timings: passed")])
def test_ci_gate_keeps_the_comparison_writes_the_summary_and_exits_with_the_gate(repo, tmp_path, speed, status,
                                                                                 verdict):
    commit(repo, "head", {"SPEED": f"{speed}\n"})
    summary = tmp_path / "summary.md"
    done = subprocess.run([str(CI_GATE), "HEAD~1", "HEAD", "--no-count"], cwd=repo, capture_output=True, text=True,
                          env={**os.environ, "GITHUB_STEP_SUMMARY": str(summary)})
    assert done.returncode == status
    kept = [repo / "Results" / name for name in results(repo) if name.endswith(".md")]
    assert len(kept) == 1
    assert verdict in done.stdout and kept[0].read_text() == done.stdout == summary.read_text()
    assert done.stderr.strip().splitlines()[-1] == \
        f"ci-gate: exit {status}, the gate's; the comparison is kept in Results/{kept[0].name}"


def test_ci_gate_compares_with_the_merge_base(repo, tmp_path):
    git(repo, "checkout", "-q", "-b", "topic")
    commit(repo, "topic: slower", {"SPEED": "2.0\n"})
    git(repo, "checkout", "-q", "main")
    commit(repo, "main moves on, faster still", {"SPEED": "0.25\n"})
    git(repo, "checkout", "-q", "topic")
    done = subprocess.run([str(CI_GATE), "main", "HEAD", "--no-count"], cwd=repo, capture_output=True, text=True)
    assert done.returncode == 1  # against the merge base (speed 1), not main's tip (0.25 would make it 8x)
    title = next(line for line in done.stdout.splitlines() if line.startswith("# bench-commits: "))
    assert f"({git(repo, 'rev-parse', '--short=7', 'main~1')})" in title


@pytest.mark.parametrize("argv, words", [((), "give BASE and HEAD first"), (("--paired", "HEAD"), "give BASE"),
                                         (("nosuch", "HEAD"), "ci-gate: Not a valid object name nosuch"),
                                         (("unrelated", "HEAD"), "have no merge base")])
def test_ci_gate_bad_input_exits_2_and_keeps_nothing(repo, argv, words):
    # A branch with a history of its own: git finds no merge base, and says nothing of why.
    git(repo, "checkout", "-q", "--orphan", "unrelated")
    commit(repo, "a history of its own", {"Package.swift": "// other\n"})
    git(repo, "checkout", "-q", "main")
    done = subprocess.run([str(CI_GATE), *argv], cwd=repo, capture_output=True, text=True)
    assert done.returncode == 2 and words in done.stderr and results(repo) == []
    assert len(done.stderr.strip().splitlines()) <= 2, "one line (and the usage line)"


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_ci_gate_help_prints_its_usage_and_exits_0(tmp_path, flag):
    # Issue 60: anywhere, even outside a package and a repository, without BASE and HEAD.
    done = subprocess.run([str(CI_GATE), flag], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == ""
    assert "scripts/ci-gate BASE HEAD [bench-commits options] [-- bench options]" in done.stdout
    assert "merge base" in done.stdout and "Results/bench-commits-" in done.stdout
    # The exit codes it names are bench-commits', every one of them, and no other.
    codes = re.search(r"Exit codes, bench-commits'[^:]*:(.*?)\.", done.stdout, re.S).group(1)
    assert [int(code) for code in re.findall(r"\b(\d+) [a-z]", codes)] == \
        [code for code, _ in exit_codes.BENCH_COMMITS_EXIT_CODES]
    assert not any(line.startswith(("#", "set -")) for line in done.stdout.splitlines()), "the header only"


def test_ci_gate_runs_only_in_a_package_directory(repo, tmp_path):
    (repo / "docs").mkdir()
    done = subprocess.run([str(CI_GATE), "HEAD", "HEAD"], cwd=repo / "docs", capture_output=True, text=True)
    assert done.returncode == 2 and "no Package.swift" in done.stderr


def test_help_names_the_exit_codes_and_the_check_gate():
    done = subprocess.run([str(WRAPPER), "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    for words in ("ABBA", "exit codes:", "--check-gate", "130", "docs/comparison-rule.md", "docs/bench-commits.md"):
        assert words in done.stdout


def test_the_workflow_passes_revisions_as_arguments():
    workflow = (TESTS_DIR.parents[1] / ".github" / "workflows" / "bench.yml").read_text()
    assert 'run: scripts/ci-gate "origin/$BASE_REF" HEAD\n' in workflow
    # github.base_ref reaches the script through the environment only, never spliced into its text.
    expressions = [line.strip() for line in workflow.splitlines() if "${{" in line]
    assert all(line.startswith(("group:", "BASE_REF:")) for line in expressions)
    assert workflow.count("if: always()") == 1 and "fetch-depth: 0" in workflow


def _action_gate_script() -> str:
    """The gate step's script of .github/actions/gate, as the runner runs it."""
    action = (TESTS_DIR.parents[1] / ".github" / "actions" / "gate" / "action.yml").read_text()
    body = action[action.index("      run: |\n        base=") + len("      run: |\n"):]
    lines = []
    for line in body.splitlines():
        if not line.startswith("        "):
            break
        lines.append(line[8:])
    return "\n".join(lines) + "\n"


def test_the_action_passes_its_inputs_through_the_environment():
    action = (TESTS_DIR.parents[1] / ".github" / "actions" / "gate" / "action.yml").read_text()
    script = _action_gate_script()
    # Inputs reach the script through the environment only, never spliced into its text.
    assert "${{" not in script and '"$CI_GATE" "$base" HEAD' in script
    assert action.count("if: always()") == 1


@pytest.mark.parametrize("product, expected", [("", []), ("My Bench", ["--product", "My Bench"])])
def test_the_action_gives_product_only_when_asked(tmp_path, product, expected):
    # Without the input, ci-gate gets no --product and bench-commits takes the package's one benchmark executable.
    fake = tmp_path / "ci-gate"
    fake.write_text(f"#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n")
    fake.chmod(0o755)
    env = {**os.environ, "CI_GATE": str(fake), "PRODUCT": product, "BASE": "", "BASE_REF": "main",
           "OPTIONS": "--quick --no-count", "FILTER": "/my-lock$"}
    done = subprocess.run(["bash", "-c", _action_gate_script()], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["origin/main", "HEAD", *expected, "--quick", "--no-count", "--",
                                       "--filter", "/my-lock$"]


def test_a_quick_paired_gate_check_must_resolve_three_times_and_reports_1_25():
    assert gate_check.gate_checks(quick=False, paired=True) == gate_check.GATE_CHECKS
    assert gate_check.gate_checks(quick=True, paired=False) == gate_check.GATE_CHECKS
    assert [(spec.b_options, spec.planted, spec.must_resolve) for spec in gate_check.gate_checks(True, True)] == [
        ((), False, False), (("--spin-scale", "3.00"), True, True), (("--spin-scale", "1.25"), True, False)]


@pytest.mark.parametrize("bench_options, budget", [
    (("--filter", "^harness/spin"), paired_plan.selected_budget(False, 1, 4)),  # 1 of the fake's 4 cases
    # --list adds the two harness controls, which the paired workers do not measure: 1 case still.
    (("--filter", "^isolation/"), paired_plan.selected_budget(False, 1, 4)),
    ((), None),  # the control: the whole suite gets the whole budget
])
def test_a_filtered_comparison_gets_the_budget_of_its_cases(repo, monkeypatch, bench_options, budget):
    asked = []
    settings = paired_plan.settings
    monkeypatch.setattr(paired_plan, "settings", lambda *args: asked.append(args[5]) or settings(*args))
    commit(repo, "code", {"CODE": "a new body\n"})
    assert run(repo, "HEAD~1", "HEAD", "--no-count", "--max-rounds", "10", "--", *bench_options) in (0, 4)
    assert asked and set(asked) == {budget}
