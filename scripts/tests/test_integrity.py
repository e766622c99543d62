"""Files that are damaged in ways that used to load silently: duplicated and torn rows."""

from __future__ import annotations

import csv
import io
import json

import pytest

from analyze_lib.cli import main
from analyze_lib.files.loader import load_results
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


def _with_p99(path, values):
    """Fill p99_ns of the data rows with ``values`` (one per row, in order)."""
    rows = _rows(path)
    column = rows[0].index("p99_ns")
    for row, value in zip(rows[1:], values):
        row[column] = str(value)
    _write_rows(path, rows)
    return path


TORN_WARNING = "ignored the last row: it has no line end (a torn row: was the write interrupted?)"


def test_file_cut_short_drops_the_torn_last_row_with_a_warning(tmp_path, capsys):
    # p99_ns is the last v2 column: cut 3 bytes ("1\r\n") and 31 would read as 3.
    path = _with_p99(write_results(tmp_path / "cut.csv", {case(): [100.0, 101.0, 102.0, 103.0, 104.0, 105.0]}),
                     [30, 30, 30, 30, 30, 31])
    data = path.read_bytes()
    assert data.endswith(b",31\r\n")
    path.write_bytes(data[:-3])
    results = load_results(path)
    [loaded] = results.cases.values()
    assert loaded.n == 5 and list(loaded.columns["p99_ns"]) == [30.0] * 5
    assert results.warnings == [f"{path}:7: {TORN_WARNING}"]

    assert main(["compare", str(path), str(path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    # On stderr once per file read, and in the comparison's warnings (once: same file).
    assert captured.err == f"analyze: warning: {path}:7: {TORN_WARNING}\n" * 2
    warnings = json.loads(captured.out)["warnings"]
    assert [w for w in warnings if TORN_WARNING in w] == [f"{path}:7: {TORN_WARNING}"]


def test_torn_row_with_too_few_fields_is_dropped_too(tmp_path, capsys):
    path = write_results(tmp_path / "cut.csv", {case(): [100.0, 101.0, 102.0, 103.0, 104.0, 105.0]}, version=3)
    text = path.read_text()
    path.write_text(text[:text.rindex("\n", 0, -2) + 40], newline="")  # 39 characters of the last row
    [loaded] = load_results(path).cases.values()
    assert loaded.n == 5
    assert main(["report", str(path), "--out", str(tmp_path / "r")]) == 0
    assert capsys.readouterr().err == f"analyze: warning: {path}:7: {TORN_WARNING}\n"


def test_last_row_missing_only_its_line_feed_is_whole(tmp_path):
    path = write_results(tmp_path / "cr.csv", {case(): [100.0, 101.0, 102.0]})
    path.write_bytes(path.read_bytes()[:-1])  # ends in "\r": every field is there
    results = load_results(path)
    assert [c.n for c in results.cases.values()] == [3] and results.warnings == []


def test_short_row_in_the_middle_stays_an_error(tmp_path, capsys):
    path = write_results(tmp_path / "mid.csv", {case(): [100.0, 101.0, 102.0]})
    lines = path.read_text().splitlines(keepends=True)
    lines[2] = lines[2][:40] + "\n"
    path.write_text("".join(lines), newline="")
    assert main(["report", str(path), "--out", str(tmp_path / "r")]) == 2
    assert f"analyze: {path}:3: expected 33 fields, found " in capsys.readouterr().err


def test_header_and_one_torn_row_has_no_samples(tmp_path, capsys):
    path = write_results(tmp_path / "one.csv", {case(): [100.0]})
    path.write_bytes(path.read_bytes()[:-5])
    assert main(["report", str(path), "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err == (
        f"analyze: {path}:2: no samples: the only row is torn (it has no line end: "
        "was the write interrupted?)\n")


def test_file_cut_inside_its_header(tmp_path, capsys):
    path = write_results(tmp_path / "head.csv", {case(): [100.0]})
    path.write_text(path.read_text()[:50], newline="")
    assert main(["report", str(path), "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err == (
        f"analyze: {path}:1: no samples: the file ends inside its header (was the write interrupted?)\n")
