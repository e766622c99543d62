"""Instruction budgets (analyze budget, judge/budgets.py): a built-in case over its budget fails, one at its
recorded count passes, one counted without a budget fails, a package's own variant is not held to one, one far
under is named and not failed; --record writes the count with its reason; bad budgets are refused by line. And the
repository's own budgets file reads, and budgets every case bench counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyze_lib import cli
from analyze_lib.files.errors import AnalyzeError
from analyze_lib.files.schema import COUNTS_COLUMNS_BY_VERSION
from analyze_lib.judge.budgets import BUDGET_COLUMNS, BUDGET_HEADROOM_PERCENT, BUDGETS_FILE, read_budgets
from csvgen import case, write_counts

REPO = Path(__file__).resolve().parents[2]
LATEST = max(COUNTS_COLUMNS_BY_VERSION)
HIT = case(variant="atomic-flag", params="tokens=1")
LOCK = case(suite="isolation", benchmark="counter", variant="mutex")
HEADER = ",".join(BUDGET_COLUMNS)


def budgets_file(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "instructions.csv"
    path.write_text("\n".join([HEADER, *rows]) + "\n")
    return path


def check(tmp_path: Path, cases: dict, budgets: Path, *argv: str, run: dict | None = None) -> tuple[int, str]:
    counts = write_counts(tmp_path / "counts.csv", cases, run={"variant_origin": "built-in", **(run or {})},
                          version=LATEST)
    code = cli.main(["budget", str(counts), "--budgets", str(budgets), *argv])
    return code, counts.read_text()


RECORDED = ("once,hit,atomic-flag,tokens=1,1000,6.00,the acquire load and a branch",
            "isolation,counter,mutex,,1000,60.00,a futex lock and unlock")


def test_a_case_at_its_recorded_count_passes_and_one_over_its_budget_fails(tmp_path, capsys):
    budgets = budgets_file(tmp_path, *RECORDED)
    assert check(tmp_path, {HIT: (6.0, 0), LOCK: (60.0, 0)}, budgets)[0] == 0
    assert capsys.readouterr().out.startswith("Instruction budgets: passed, 2 cases within 5% ")
    # A witness-table call more per op: a few instructions on a hit of six.
    over = 6.0 * (1 + BUDGET_HEADROOM_PERCENT / 100) + 0.01
    assert check(tmp_path, {HIT: (over, 0), LOCK: (60.0, 0)}, budgets)[0] == 1
    out = capsys.readouterr().out
    assert out.startswith("Instruction budgets: FAILED, 1 case over budget")
    assert "once/hit/atomic-flag threads:1 tokens=1: 6.31 instructions/op, 1.05× the 6.00 recorded" in out


def test_a_built_in_case_without_a_budget_fails_and_a_packages_own_is_not_held_to_one(tmp_path, capsys):
    budgets = budgets_file(tmp_path, RECORDED[0])
    assert check(tmp_path, {HIT: (6.0, 0), LOCK: (60.0, 0)}, budgets)[0] == 1
    assert "1 built-in case counted without a budget" in capsys.readouterr().out
    assert check(tmp_path, {LOCK: (60.0, 0)}, budgets, run={"variant_origin": "MyBench"})[0] == 0
    assert "(" + str(budgets) + "; 0 checked)" in capsys.readouterr().out  # a package's case is not counted checked


def test_a_case_far_under_its_budget_is_named_not_failed(tmp_path, capsys):
    budgets = budgets_file(tmp_path, *RECORDED)
    assert check(tmp_path, {HIT: (3.0, 0), LOCK: (60.0, 0)}, budgets)[0] == 0
    out = capsys.readouterr().out
    assert "Far under budget" in out and "once/hit/atomic-flag threads:1 tokens=1: 3.00 instructions/op" in out


def test_record_writes_the_count_with_its_reason(tmp_path, capsys):
    budgets = budgets_file(tmp_path, RECORDED[1])
    assert check(tmp_path, {HIT: (7.5, 0), LOCK: (60.0, 0)}, budgets, "--record", "a new variant")[0] == 0
    assert budgets.read_text().splitlines() == [
        HEADER, RECORDED[1], "once,hit,atomic-flag,tokens=1,1000,7.50,a new variant"]
    assert check(tmp_path, {HIT: (7.5, 0)}, budgets, "--record", " ")[0] == 2


@pytest.mark.parametrize("rows, words", [
    (("once,hit,atomic-flag,tokens=1,1000,6.00,",), "has no reason"),
    ((RECORDED[0], RECORDED[0]), "has a budget already"),
    (("once,hit,atomic-flag,tokens=1,many,6.00,why",), ":2: not a budget"),
])
def test_bad_budgets_are_refused_by_line(rows, words):
    with pytest.raises(AnalyzeError, match=words):
        read_budgets("\n".join([HEADER, *rows]) + "\n")


def test_counts_with_other_iterations_than_the_budgets_are_refused(tmp_path, capsys):
    budgets = budgets_file(tmp_path, "once,hit,atomic-flag,tokens=1,100,6.00,quick")
    assert check(tmp_path, {HIT: (6.0, 0)}, budgets)[0] == 2
    assert "counted with 1000 iterations, its budget with 100: count as the budgets were (bench count --quick)" \
        in capsys.readouterr().err


def test_the_repositorys_budgets_read_and_each_has_its_reason():
    budgets = read_budgets((REPO / BUDGETS_FILE).read_text())
    assert len(budgets) > 50 and all(budget.iterations == 100 for budget in budgets.values())
