"""The verdict first (issue 74): bench-commits' Markdown opens and ends with the verdict line, whose word is its exit
code's, for each kind of comparison (whole, selected, same code) and each verdict it can give, and a passing one
prints no other verdict word above it (a same-code comparison's per-case INCONCLUSIVE was once its ninth line)."""

from __future__ import annotations

import pytest

from analyze_lib import exit_codes
from bench_commits.verdict import VERDICT_WORDS
from gitrepo import commit
from test_bench_commits import run
from test_same_code import ONE_CASE, always_coarse, small_groups_judged, spin_selected  # noqa: F401 (fixtures)

OTHER_WORDS = ("INCONCLUSIVE", "FAILED", "INCOMPLETE")


def check_verdict_first(out: str, code: int) -> None:
    lines = out.rstrip().splitlines()
    assert lines[0].startswith(f"**Verdict: {VERDICT_WORDS[code]}** (exit {code}); code: ")
    assert lines[-1] == lines[0]
    if code == exit_codes.EXIT_PASSED:
        assert not [line for line in lines if any(word in line for word in OTHER_WORDS)]


# Whole: the fake build's one object is no module of variants, so every case is timed.
@pytest.mark.parametrize("speed, argv, code", [
    ("1.0", ("--no-count",), exit_codes.EXIT_PASSED),
    ("2.0", ("--no-count",), exit_codes.EXIT_REGRESSION),
    ("1.0", ("--abba", "--pairs", "4", "--no-count"), exit_codes.EXIT_INCONCLUSIVE),
])
def test_a_whole_comparison_states_its_verdict_first(repo, capsys, speed, argv, code):
    commit(repo, "head", {"SPEED": f"{speed}\n", "CODE": "a new body\n"})
    assert run(repo, "HEAD~1", "HEAD", *argv) == code
    out = capsys.readouterr().out
    check_verdict_first(out, code)


@pytest.mark.parametrize("speed, rounds, code", [
    ("1.0", "10", exit_codes.EXIT_PASSED),
    ("2.0", "10", exit_codes.EXIT_REGRESSION),
    ("1.0", "2", exit_codes.EXIT_INCONCLUSIVE),
])
def test_a_selected_comparison_states_its_verdict_first(repo, capsys, spin_selected, small_groups_judged,  # noqa: F811
                                                        speed, rounds, code):
    commit(repo, "head", {"SPEED": f"{speed}\n", "CODE": "a new body\n"})
    got = run(repo, "HEAD~1", "HEAD", "--rounds", rounds, "--max-rounds", rounds, *ONE_CASE[:3], "--", "--threads",
              "1,2")
    out = capsys.readouterr().out
    assert "timed in a control of" in out.splitlines()[0]
    check_verdict_first(out, got)
    assert got == code


@pytest.mark.parametrize("unseen, code", [("1.0", exit_codes.EXIT_PASSED), ("2.0", exit_codes.EXIT_REGRESSION)])
def test_a_same_code_comparison_states_its_verdict_first(repo, capsys, small_groups_judged, unseen,  # noqa: F811
                                                         code):
    # Same code cannot be inconclusive: a control that decides little passes, identical code being the evidence
    # (same_code.control_exit). A control that moves anyway fails.
    commit(repo, "docs and what identity cannot see", {"README.md": "words\n", "UNSEEN_SPEED": f"{unseen}\n"})
    assert run(repo, "HEAD~1", "HEAD", *ONE_CASE) == code
    out = capsys.readouterr().out
    assert "1 run identical code" in out.splitlines()[0]
    check_verdict_first(out, code)
