"""Files that are damaged in ways that used to load silently: duplicated and torn rows."""

from __future__ import annotations

import csv
import io

import pytest

from analyze_lib.cli import main
from analyze_lib.loader import load_results
from csvgen import case, write_results

ROLES = "readers=2;role={role};writers=1"


def _rows(path):
    return list(csv.reader(io.StringIO(path.read_text(), newline="")))


def _write_rows(path, rows):
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows(rows)


@pytest.mark.parametrize("version", [2, 3])
def test_rows_appended_twice_are_refused(tmp_path, capsys, version):
    # 4 samples of one case, then the same 4 rows again: n would double and p shrink.
    path = write_results(tmp_path / "twice.csv", {case(): [100.0, 101.0, 102.0, 103.0]}, version=version)
    rows = _rows(path)
    _write_rows(path, rows + rows[1:])
    assert main(["compare", str(path), str(path)]) == 2
    round_text = " round 1" if version == 3 else ""
    assert capsys.readouterr().err == (
        f"analyze: {path}:6: duplicate sample: once/hit/dispatch-once threads:1{round_text} "
        "sample 0 is also on line 2\n")


def test_same_sample_index_in_other_round_or_role_is_not_a_duplicate(tmp_path):
    path = write_results(tmp_path / "ok.csv", {
        case("isolation", "roles", "rw-lock", 2, ROLES.format(role="read")): [100.0, 101.0],
        case("isolation", "roles", "rw-lock", 2, ROLES.format(role="write")): [200.0, 201.0],
    }, version=3)
    rows = _rows(path)
    header = rows[0]
    second_round = []
    for row in rows[1:]:
        row = list(row)
        row[header.index("round")] = "2"
        second_round.append(row)
    _write_rows(path, rows + second_round)
    cases = load_results(path).cases
    assert sorted(c.n for c in cases.values()) == [4, 4]


def test_duplicate_spelled_differently_is_still_a_duplicate(tmp_path, capsys):
    # tokens=10 and tokens=10.0 are the same case (params are compared as numbers).
    path = write_results(tmp_path / "p.csv", {case(params="tokens=10"): [100.0, 101.0]}, version=3)
    rows = _rows(path)
    copy = list(rows[1])
    copy[rows[0].index("params")] = "tokens=10.0"
    _write_rows(path, rows + [copy])
    assert main(["report", str(path), "--out", str(tmp_path / "r")]) == 2
    assert ":4: duplicate sample: once/hit/dispatch-once threads:1 tokens=10 round 1 sample 0 " \
           "is also on line 2" in capsys.readouterr().err
