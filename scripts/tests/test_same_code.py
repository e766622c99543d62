"""The same-code rule (bench_commits.same_code) and its place in bench-commits, with fake_build.py (whose object
holds a commit's SPEED, INSTRUCTIONS and CODE) and fake_bench.py: identical code times only the control and says
so with its evidence, a control that moves anyway still fails, changed code is timed whole and named, a build
without an identity is timed whole and says why, --all times every case, --what-changed times nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyze_lib import exit_codes
from analyze_lib.judge import control
from analyze_lib.judge import paired as paired_rule
from analyze_lib.judge.control import SuiteControl
from analyze_lib.present.gate_text import code_headline
from bench_commits import case_selection, same_code
from bench_commits.code_identity import CodeIdentity
from gitrepo import commit
from test_bench_commits import invocations, run

ONE_CASE = ("--no-count", "--seed", "7", "--", "--filter", "^harness/spin", "--threads", "1")
SAME = "**Verdict: PASSED** (exit 0); code: 0 cases run changed code; 1 run identical code (same code: "


def worker_rounds(repo: Path) -> int:
    """How many rounds ran: the fake's worker processes, two a round."""
    return sum(1 for call in invocations(repo) if "argv" in call and call["argv"][-1:] == ["worker"]) // 2


@pytest.fixture
def always_coarse(monkeypatch):
    """Every case wants a further round, so that the rounds run are the ones a comparison allows."""
    monkeypatch.setattr(paired_rule, "refinement", lambda rounds, **_: paired_rule.Refinement(1.10, 1))


# The rule


def identity(pieces: dict, **inputs) -> CodeIdentity:
    return CodeIdentity({"toolchain": "6.3.1", **inputs}, pieces, {key: (f"sym_{key}",) for key in pieces})


def test_equal_identities_are_same_code_with_their_evidence():
    compared = same_code.compare_identities(identity({"a": "1", "b": "2"}), identity({"b": "2", "a": "1"}))
    assert compared.same and compared.identical_pieces == 2 and compared.identical_symbols == 2
    assert same_code.evidence(compared) == "2 sections identical (2 symbols); same toolchain"


@pytest.mark.parametrize("head, changed_inputs, changed_pieces", [
    (identity({"a": "1", "b": "3"}), (), ("b",)),                       # a piece differs
    (identity({"a": "1"}), (), ("b",)),                                 # a piece is gone
    (identity({"a": "1", "b": "2", "c": "4"}), (), ("c",)),             # a piece is new
    (identity({"a": "1", "b": "2"}, toolchain="6.3.2"), ("toolchain",), ()),  # an input differs
], ids=["differs", "gone", "new", "input"])
def test_any_difference_is_changed_code_and_names_it(head, changed_inputs, changed_pieces):
    compared = same_code.compare_identities(identity({"a": "1", "b": "2"}), head)
    assert compared.status == same_code.CHANGED and not compared.same
    assert compared.changed_inputs == changed_inputs
    assert tuple(key for key, _ in compared.changed_pieces) == changed_pieces
    assert all(symbols == (f"sym_{key}",) for key, symbols in compared.changed_pieces)


def test_a_missing_identity_is_unknown():
    compared = same_code.compare_identities(identity({"a": "1"}), None, "head: no link kit")
    assert compared.status == same_code.UNKNOWN and compared.why == "head: no link kit"


def test_a_control_that_decides_little_passes_and_any_other_verdict_stands():
    assert same_code.control_exit(exit_codes.EXIT_INCONCLUSIVE) == exit_codes.EXIT_PASSED
    for code in (exit_codes.EXIT_PASSED, exit_codes.EXIT_REGRESSION, exit_codes.EXIT_INCOMPLETE):
        assert same_code.control_exit(code) == code


def test_a_suite_the_control_finds_slower_fails_and_one_faster_passes():
    slower, faster = SuiteControl("once", 99, (1.2, 1.1, 1.3)), SuiteControl("wait", 99, (0.8, 0.9, 0.85))
    still = SuiteControl("harness", 99, (1.2, 1.0, 1.3))
    assert same_code.control_exit(exit_codes.EXIT_INCONCLUSIVE, [still, slower]) == exit_codes.EXIT_REGRESSION
    assert same_code.control_exit(exit_codes.EXIT_INCONCLUSIVE, [still, faster]) == exit_codes.EXIT_PASSED


def test_the_code_headline():
    assert code_headline(604, same_code="8235 sections identical") == \
        "0 cases run changed code; 604 run identical code (same code: 8235 sections identical)"
    assert code_headline(604, changed="3 of 8235 sections differ") == \
        "604 cases may run changed code, timed; 0 run identical code, not timed (3 of 8235 sections differ)"
    assert code_headline(12, changed="3 of 8235 sections differ", identical=592, coarsest=1.034) == \
        ("12 cases may run changed code, timed, the largest change that could hide in one 1.03×; 592 run identical "
         "code, not timed (3 of 8235 sections differ)")
    assert code_headline(1, unknown="no kit") == "not compared (no kit); 1 case timed"
    # Issue 74: a bound of a million times is said as bounding nothing, not printed as a bound.
    assert code_headline(455, changed="7 of 8235 sections differ", identical=149, coarsest=1151240.81) == \
        ("455 cases may run changed code, timed, but a case of them resolves no change under 10×: it bounds nothing; "
         "149 run identical code, not timed (7 of 8235 sections differ)")
    # The controls a filtered run times beside the selected cases are not counted as cases that run changed code.
    assert code_headline(23, changed="2 of 8903 sections differ", identical=581, harness=3) == \
        ("23 cases may run changed code, timed with 3 harness controls; 581 run identical code, not timed "
         "(2 of 8903 sections differ)")


# In bench-commits


def test_identical_code_times_only_the_control_and_names_its_evidence(repo, capsys, always_coarse):
    commit(repo, "docs only", {"README.md": "words\n"})
    assert run(repo, "HEAD~1", "HEAD", "--max-rounds", "12", *ONE_CASE) == 0
    out, err = capsys.readouterr()
    assert worker_rounds(repo) == same_code.CONTROL_ROUNDS
    assert "**Code: same code.**" in out and "**unchanged: same code**" in out
    last = out.rstrip().splitlines()[-1]
    assert last.startswith(SAME) and "same toolchain" in last and "manifest" in last
    assert "; timings (control): " in last
    assert "same code: every case is unchanged: same code" in err


def test_all_times_identical_code_as_a_changed_one(repo, capsys, always_coarse):
    # The negative control of the one above: the same commits with --all get every round asked for.
    commit(repo, "docs only", {"README.md": "words\n"})
    assert run(repo, "HEAD~1", "HEAD", "--all", "--max-rounds", "12", *ONE_CASE) in (0, 4)
    assert worker_rounds(repo) == 12
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert "run identical code" in last and "every case timed as asked" in last and "(control)" not in last


def counted(repo: Path) -> int:
    """How many `bench count` processes the fake saw."""
    return sum(1 for call in invocations(repo) if "count" in call.get("argv", []))


def test_identical_code_counts_nothing_and_says_why(repo, capsys, always_coarse):
    commit(repo, "docs only", {"README.md": "words\n"})
    assert run(repo, "HEAD~1", "HEAD", *ONE_CASE[1:]) == 0
    out = capsys.readouterr().out
    assert counted(repo) == 0
    assert f"Counts: not run: {same_code.COUNTS_NOT_RUN}." in out
    assert out.rstrip().splitlines()[-1].endswith("; counts: same code")


def test_all_counts_identical_code(repo, capsys, always_coarse):
    # The negative control of the one above: --all times and counts every case as changed code.
    commit(repo, "docs only", {"README.md": "words\n"})
    assert run(repo, "HEAD~1", "HEAD", "--all", "--max-rounds", "10", *ONE_CASE[1:]) in (0, 4)
    out = capsys.readouterr().out
    assert counted(repo) == 2, "bench count once a side"
    assert "Counts: not run" not in out and "counts: same code" not in out


@pytest.fixture
def small_groups_judged(monkeypatch):
    """The control judges a group of any size: the fake's four cases are far fewer than its floor."""
    monkeypatch.setattr(control, "MIN_CONTROL_CASES", 1)


def test_a_control_of_too_few_cases_judges_nothing_and_says_so(repo, capsys):
    # The floor (judge/control.py): one case of identical code moved 2×, and the control cannot tell it from noise.
    commit(repo, "unseen", {"UNSEEN_SPEED": "2.0\n"})
    assert run(repo, "HEAD~1", "HEAD", *ONE_CASE) == exit_codes.EXIT_PASSED
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert f"; timings (control): not judged: 1 case, fewer than the {control.MIN_CONTROL_CASES} it needs;" in last


def test_a_control_that_moves_anyway_fails(repo, capsys, small_groups_judged):
    # UNSEEN_SPEED slows the head down without being in its objects: what code identity cannot see.
    commit(repo, "unseen", {"UNSEEN_SPEED": "2.0\n"})
    assert run(repo, "HEAD~1", "HEAD", *ONE_CASE) == exit_codes.EXIT_REGRESSION
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last.startswith("**Verdict: FAILED** (exit 1); code: 0 cases run changed code; 1 run identical code")
    # The fake's noise (±0.3%) leaves the least move of the three rounds at 1.99× to 2.01×.
    assert re.search(r"; timings \(control\): FAILED, moved although the code is identical, a finding: harness "
                     r"\(1 case\) (1\.99|2\.00|2\.01)× or more slower in every round;", last)
    assert worker_rounds(repo) == same_code.CONTROL_ROUNDS


def test_ten_control_rounds_judge_each_case_too(repo, capsys, small_groups_judged):
    # --rounds 10 gives the control the rounds the paired rule calls a single case from.
    commit(repo, "unseen", {"UNSEEN_SPEED": "2.0\n"})
    assert run(repo, "HEAD~1", "HEAD", "--rounds", str(paired_rule.MIN_CALL_ROUNDS), *ONE_CASE) == \
        exit_codes.EXIT_REGRESSION
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert "slower in every round; cases: FAILED, 1 case slower" in last


def test_changed_code_is_timed_whole_and_named(repo, capsys, always_coarse):
    commit(repo, "code", {"CODE": "a new body\n"})
    assert run(repo, "HEAD~1", "HEAD", "--max-rounds", "12", *ONE_CASE) in (0, 4)
    out, err = capsys.readouterr()
    assert worker_rounds(repo) == 12
    assert "**Code: changed**: 1 of 2 sections differ." in out
    assert "| `.build/release/Bench.build/main.o:(file)` | none |" in out
    verdict = out.rstrip().splitlines()[-1]
    assert "code: 1 case may run changed code, timed, the largest change that could hide in one " in verdict
    assert "; 0 run identical code, not timed (1 of 2 sections differ)" in verdict
    assert "changed code: 1 section(s) differ" in err


def test_a_manifest_change_alone_is_changed_code(repo, capsys):
    commit(repo, "manifest", {"Package.swift": "// base\n// swiftSettings: [.define(\"PLANTED\")]\n"})
    assert run(repo, "HEAD~1", "HEAD", "--what-changed") == 0
    out = capsys.readouterr().out
    assert "**Code: changed**: manifest differs." in out


def test_a_build_without_an_identity_is_timed_whole_and_says_why(repo, capsys, monkeypatch, always_coarse):
    monkeypatch.setenv("FAKE_BUILD_NO_LINK_LINE", "1")
    commit(repo, "docs only", {"README.md": "words\n"})
    assert run(repo, "HEAD~1", "HEAD", "--max-rounds", "12", *ONE_CASE) in (0, 4)
    out = capsys.readouterr().out
    assert worker_rounds(repo) == 12
    assert "**Code: code identity unknown** (base: a build without a link kit" in out
    assert "code: not compared (base: a build without a link kit" in out.rstrip().splitlines()[-1]


def test_what_changed_times_nothing_and_a_kept_build_keeps_its_identity(repo, capsys):
    commit(repo, "docs only", {"README.md": "words\n"})
    assert run(repo, "HEAD~1", "HEAD", "--what-changed") == 0
    out, err = capsys.readouterr()
    assert worker_rounds(repo) == 0 and not any(call.get("argv", [None])[0] == "count" for call in invocations(repo))
    assert out.rstrip().splitlines()[-1].startswith("**Code: same code** (2 sections identical")
    assert err.count("code identity of") == 2
    assert run(repo, "HEAD~1", "HEAD", "--what-changed") == 0
    again, err = capsys.readouterr()
    assert again == out and "code identity of" not in err and err.count("reused the build") == 2


# The control in a selected comparison: the cases that run identical code get the control's rounds


@pytest.fixture
def spin_selected(monkeypatch):
    """The selection times harness/spin/loop alone: the other cases run identical code."""
    def select(cases, *_):
        return case_selection.Selection("", {group: (case_selection.TIMED if group == "harness/spin/loop"
                                                     else case_selection.SAME, "planted") for group in cases})
    monkeypatch.setattr(case_selection, "select", select)


def control_filters(repo: Path) -> list[str]:
    """The --filter of each control worker: the workers whose filter leaves out the timed harness/spin/loop."""
    workers = [call["argv"] for call in invocations(repo) if call.get("argv", [])[-1:] == ["worker"]]
    filters = [argv[argv.index("--filter") + 1] for argv in workers]
    return [pattern for pattern in filters if "spin" not in pattern]


def test_a_selected_comparison_times_the_identical_code_in_a_control(repo, capsys, spin_selected, always_coarse,
                                                                     small_groups_judged):
    commit(repo, "code", {"CODE": "a new body\n"})
    assert run(repo, "HEAD~1", "HEAD", "--max-rounds", "10", *ONE_CASE[:3], "--", "--threads", "1,2") in (0, 4)
    out = capsys.readouterr().out
    assert len(control_filters(repo)) == 2 * same_code.CONTROL_ROUNDS
    assert set(control_filters(repo)) == {case_selection.filter_pattern(
        ["harness/empty/loop", "isolation/roles/rwlock", "wait/handoff/semaphore"])}
    assert "the control of 3, at least 50 of each suite, drawn by the seed (`" in out and "| wait | 1 | " in out
    last = out.rstrip().splitlines()[-1]
    assert "; 3 run identical code, timed in a control of 3 rounds (1 of 2 sections differ)" in last
    assert "; the control of the identical code: no suite moved beyond 1.03× in all 3 rounds (3 suites)" in last


def test_a_selected_comparisons_control_that_moves_fails(repo, capsys, spin_selected, always_coarse,
                                                         small_groups_judged):
    # The negative control of the one above: what code identity cannot see slows every case but harness/empty.
    commit(repo, "code", {"CODE": "a new body\n", "UNSEEN_SPEED": "2.0\n"})
    assert run(repo, "HEAD~1", "HEAD", "--max-rounds", "10", *ONE_CASE[:3], "--", "--threads", "1,2") == \
        exit_codes.EXIT_REGRESSION
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert re.search(r"; the control of the identical code: FAILED, moved although the code is identical, a finding: "
                     r"isolation \(1 case\) (1\.99|2\.00|2\.01)× or more slower in every round; wait \(1 case\) "
                     r"(1\.99|2\.00|2\.01)× or more slower in every round;", last)


def test_the_control_draws_at_least_its_share_of_each_suite_by_the_seed():
    # Suite "big": 40 variants of 5 cases each; suite "small": 3 variants of 4 cases, fewer than the share.
    cases = {f"big/b/v{i:02d}": 5 for i in range(40)} | {f"small/b/v{i}": 4 for i in range(3)}
    chosen = same_code.control_groups(list(cases), cases, seed=7, least=50)
    big = [group for group in chosen if group.startswith("big/")]
    assert sum(cases[group] for group in big) == 50  # 10 whole variants, and no more once 50 are held
    assert [group for group in chosen if group.startswith("small/")] == ["small/b/v0", "small/b/v1", "small/b/v2"]
    assert chosen == same_code.control_groups(list(cases), cases, seed=7, least=50), "the seed decides"
    # Controls: another seed draws other variants; a share above a suite's size takes all of it.
    assert same_code.control_groups(list(cases), cases, seed=8, least=50) != chosen
    assert same_code.control_groups(list(cases), cases, seed=7, least=1000) == sorted(cases)


def test_the_verdict_line_says_how_many_of_the_identical_cases_the_control_timed():
    words = dict(changed="1 of 2 sections differ", identical=697, control_rounds=3)
    assert "; 697 run identical code, 190 of them timed in a control of 3 rounds (" in \
        code_headline(31, controlled=190, **words)
    # Control: a control of all of them says so without a count.
    assert "; 697 run identical code, timed in a control of 3 rounds (" in code_headline(31, controlled=697, **words)
