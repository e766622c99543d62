"""The gate's verdicts beyond "slower": missing cases, undetectable cases, and their exit codes."""

from __future__ import annotations

import json

import pytest

from analyze_lib.cli import main
from analyze_lib.judge.compare import UNCHANGED, compare_samples
from analyze_lib.exit_codes import (ANALYZE_EXIT_CODES, EXIT_INCOMPLETE, EXIT_INCONCLUSIVE, EXIT_PASSED,
                                    EXIT_REGRESSION, plain)
from analyze_lib.files.model import CaseKey
from analyze_lib.present.outcome_text import outcome_text
from csvgen import case, write_results

MEDIAN_NS = 100.0
VARIANTS = [f"v{i}" for i in range(10)]
FOUR_BASE = [10.0, 11.0, 12.0, 13.0]
FOUR_HEAD_SLOWER = [30.0, 31.0, 32.0, 33.0]  # 2.7x slower, yet p can never reach 0.01


def _gate(tmp_path, base, head, *options, fmt="text"):
    b = write_results(tmp_path / "base.csv", base, seed=1)
    h = write_results(tmp_path / "head.csv", head, seed=2)
    return main(["gate", str(b), str(h), "--format", fmt, *options])


# 1. Cases missing from head fail the gate unless --allow-missing.

def test_head_missing_base_cases_fails_the_gate(tmp_path, capsys):
    base = {case(variant=v): MEDIAN_NS for v in VARIANTS}
    head = {case(variant=v): MEDIAN_NS for v in VARIANTS[:3]}  # interrupted after 3 cases
    assert _gate(tmp_path, base, head) == EXIT_INCOMPLETE
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == ("Gate: INCOMPLETE, 7 of 10 base cases are missing from head "
                         "(interrupted or filtered run? --allow-missing if filtered on purpose)")
    # Grouped by suite, one line per suite (wrapped when long), never one line for every case.
    at = lines.index("Missing from head (7):")
    assert lines[at + 1:at + 3] == [
        "  once (7): hit/v3 threads:1, hit/v4 threads:1, hit/v5 threads:1, hit/v6 threads:1,",
        "    hit/v7 threads:1, hit/v8 threads:1, hit/v9 threads:1"]
    assert "Not checked: 7 missing from head." in lines
    assert lines[-3:-1] == ["To do: rerun head with the same cases as base (was it interrupted or filtered?), or pass",
                            "  --allow-missing if head was filtered on purpose."]


def test_markdown_and_json_name_the_missing_cases(tmp_path, capsys):
    base = {case(variant=v): MEDIAN_NS for v in VARIANTS[:4]}
    head = {case(variant="v0"): MEDIAN_NS}
    assert _gate(tmp_path, base, head, fmt="md") == EXIT_INCOMPLETE
    out = capsys.readouterr().out
    assert ("**Gate: INCOMPLETE, 3 of 4 base cases are missing from head (interrupted or filtered run? "
            "--allow-missing if filtered on purpose)**") in out
    assert ("<details><summary>Missing from head: 3 cases (once 3)</summary>\n\n| Case |\n| --- |\n"
            "| `once/hit/v1 threads:1` |\n| `once/hit/v2 threads:1` |\n| `once/hit/v3 threads:1` |\n\n"
            "</details>") in out
    assert _gate(tmp_path, base, head, fmt="json") == EXIT_INCOMPLETE
    gate = json.loads(capsys.readouterr().out)["gate"]
    assert gate == {"status": "incomplete", "passed": False, "exit_code": EXIT_INCOMPLETE, "slower": 0,
                    "missing": 3, "undetectable": 0, "allow_missing": False}


def test_allow_missing_opts_out_and_still_says_so(tmp_path, capsys):
    base = {case(variant=v): MEDIAN_NS for v in VARIANTS}
    head = {case(variant=v): MEDIAN_NS for v in VARIANTS[:3]}
    assert _gate(tmp_path, base, head, "--allow-missing") == EXIT_PASSED
    out = capsys.readouterr().out
    assert "7 of 10 base cases are missing from head: not gated (--allow-missing)" in out
    assert out.splitlines()[-1].startswith("Gate: passed, no case slower")


def test_cases_only_in_head_are_reported_not_failing(tmp_path, capsys):
    base = {case(variant="a"): MEDIAN_NS}
    head = {case(variant="a"): MEDIAN_NS, case(variant="new"): MEDIAN_NS}
    assert _gate(tmp_path, base, head) == EXIT_PASSED
    out = capsys.readouterr().out
    assert "Only in head (1):\n  once (1): hit/new threads:1\n" in out
    assert out.splitlines()[-1] == "Gate: passed, no case slower"


def test_analyze_filter_does_not_count_as_missing(tmp_path, capsys):
    base = {case(variant="a"): MEDIAN_NS, case(variant="b"): MEDIAN_NS}
    head = {case(variant="a"): MEDIAN_NS}
    assert _gate(tmp_path, base, head, "--filter", "/a$") == EXIT_PASSED


def test_a_regression_outranks_missing_cases(tmp_path, capsys):
    base = {case(variant="a"): MEDIAN_NS, case(variant="gone"): MEDIAN_NS}
    head = {case(variant="a"): 2 * MEDIAN_NS}
    assert _gate(tmp_path, base, head) == EXIT_REGRESSION
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "Gate: FAILED, 1 case slower"
    assert "Also: 1 of 2 base cases are missing from head (interrupted or filtered run?" in out


# 2. A gate that cannot detect anything says so instead of "passed".

@pytest.mark.parametrize("base, head", [([10.0], [30.0]), (FOUR_BASE, FOUR_HEAD_SLOWER)])
def test_too_few_samples_everywhere_is_inconclusive(tmp_path, capsys, base, head):
    assert _gate(tmp_path, {case(): base}, {case(): head}) == EXIT_INCONCLUSIVE
    lines = capsys.readouterr().out.splitlines()
    n = len(base)
    assert lines[-1] == (f"Gate: INCONCLUSIVE, none of the 1 cases can be decided: with {n} base and "
                         f"{n} head samples p can never be below alpha 0.01 (run more samples)")
    assert "Undetectable, not judged (1, marked in the table): once 1" in lines
    assert "Not checked: 1 undetectable (too few rounds or samples to reach the p needed)." in lines
    assert ("To do: run both sides with at least 5 rounds (bench --rounds 5), so that a change in one case"
            in "\n".join(lines))


def test_some_undetectable_cases_are_listed_and_the_rest_decided(tmp_path, capsys):
    base = {case(variant="full"): MEDIAN_NS, case(variant="few"): FOUR_BASE}
    assert _gate(tmp_path, base, {case(variant="full"): MEDIAN_NS, case(variant="few"): FOUR_BASE}) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == ("Gate: passed, no case slower among 1 decidable case; "
                         "1 of 2 cases undetectable (too few samples)")
    # The undetectable case 3x slower: not judged, but a pass would pass what the gate could not see.
    assert _gate(tmp_path, base, {case(variant="full"): MEDIAN_NS, case(variant="few"): FOUR_HEAD_SLOWER}) == 4
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith("Gate: INCONCLUSIVE, no decided case slower, but 1 case it could not judge moved "
                                "1.05× or more (up to 2.7")
    assert "once/hit/few threads:1); to decide it: compare the two builds paired" in lines[-1]
    assert "Undetectable, not judged (1, marked in the table): once 1" in lines
    few = next(line for line in lines if line.startswith("once/hit/few"))
    assert few.endswith("undetectable (too few samples)")

    head = {case(variant="full"): 2 * MEDIAN_NS, case(variant="few"): FOUR_HEAD_SLOWER}
    assert _gate(tmp_path, base, head, fmt="md") == EXIT_REGRESSION
    out = capsys.readouterr().out
    assert "**Gate: FAILED, 1 case slower**" in out
    assert "> Also: 1 of 2 cases undetectable (too few samples: p can never be below alpha 0.01), " \
           "not judged" in out
    assert ("<details><summary>Undetectable, not judged: 1 case (once 1)</summary>\n\n"
            "| Case | Rounds (samples) base / head |\n| --- | --- |\n"
            "| `once/hit/few threads:1` | 1 (4) / 1 (4) |") in out
    assert "- To do: look at the slower case first: it is the table's first row." in out


def test_missing_outranks_inconclusive(tmp_path, capsys):
    base = {case(variant="a"): FOUR_BASE, case(variant="gone"): FOUR_BASE}
    assert _gate(tmp_path, base, {case(variant="a"): FOUR_BASE}) == EXIT_INCOMPLETE


def test_an_undetectable_case_is_never_called_slower():
    # With ties scipy's asymptotic p (0.047) undercuts the exact minimum 2/C(6,3) = 0.1.
    row = compare_samples(CaseKey("once", "hit", "lock", 1), [10.0] * 3, [20.0] * 3, alpha=0.05)
    assert not row.alpha_reachable
    assert row.verdict == UNCHANGED and outcome_text(row) == "undetectable (too few samples)"


def test_help_documents_the_exit_codes_and_flag(capsys):
    with pytest.raises(SystemExit):
        main(["gate", "--help"])
    out = capsys.readouterr().out
    assert "--allow-missing" in out
    for code, meaning in ANALYZE_EXIT_CODES:
        assert f"  {code:<5}{plain(meaning)[:40]}" in out


# 3. Every outcome's headline begins with the word of its exit code, in every format that prints one.

HEADLINE_WORDS = {EXIT_PASSED: "passed", EXIT_REGRESSION: "FAILED", EXIT_INCONCLUSIVE: "INCONCLUSIVE",
                  EXIT_INCOMPLETE: "INCOMPLETE"}


@pytest.mark.parametrize("base, head, code", [
    ({case(): MEDIAN_NS}, {case(): MEDIAN_NS}, EXIT_PASSED),
    ({case(): MEDIAN_NS}, {case(): 2 * MEDIAN_NS}, EXIT_REGRESSION),
    ({case(): FOUR_BASE}, {case(): FOUR_HEAD_SLOWER}, EXIT_INCONCLUSIVE),  # nothing decidable
    ({case(variant="full"): MEDIAN_NS, case(variant="few"): FOUR_BASE},    # a case not judged moved
     {case(variant="full"): MEDIAN_NS, case(variant="few"): FOUR_HEAD_SLOWER}, EXIT_INCONCLUSIVE),
    ({case(variant="a"): MEDIAN_NS, case(variant="b"): MEDIAN_NS}, {case(variant="a"): MEDIAN_NS}, EXIT_INCOMPLETE),
], ids=["passed", "regression", "inconclusive-undecidable", "inconclusive-unseen-moved", "incomplete"])
def test_the_headline_word_is_the_exit_codes(tmp_path, capsys, base, head, code):
    assert _gate(tmp_path, base, head) == code
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"Gate: {HEADLINE_WORDS[code]}, ")
    assert _gate(tmp_path, base, head, fmt="md") == code
    assert f"**Gate: {HEADLINE_WORDS[code]}, " in capsys.readouterr().out
    assert _gate(tmp_path, base, head, fmt="json") == code
    assert json.loads(capsys.readouterr().out)["gate"]["exit_code"] == code


def test_bench_commits_verdict_words_are_the_gates():
    # bench-commits ends with **Verdict: WORD** (exit N): the same word as the gate's headline, for every outcome.
    from bench_commits import verdict
    assert set(verdict.VERDICT_WORDS) == set(HEADLINE_WORDS)
    assert {code: word.upper() for code, word in HEADLINE_WORDS.items()} == verdict.VERDICT_WORDS
