"""Issue 20 (6): the loader refuses values no bench writes, naming file and line: numbers too large for the
analysis (1e308 overflowed a median and read as "starved"), integers beyond 64 bits, and a timing row whose
ns_per_op disagrees with its elapsed_ns / ops beyond the writer's rounding (4 decimals)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from analyze_lib.files.errors import AnalyzeError
from analyze_lib.files.loader import load_results
from csvgen import case, write_results

SCRIPTS_DIR = Path(__file__).resolve().parents[1]


def _edit(path: Path, line: int, **cells: str) -> Path:
    """Set ``cells`` (column -> text) on ``line`` (1-based) of a generated CSV."""
    with open(path, newline="") as handle:
        records = list(csv.reader(handle))
    for column, text in cells.items():
        records[line - 1][records[0].index(column)] = text
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows(records)
    return path


def _error(path: Path) -> str:
    with pytest.raises(AnalyzeError) as error:
        load_results(path)
    return str(error.value)


@pytest.fixture
def good(tmp_path):
    return write_results(tmp_path / "run.csv", {case(): [10.0, 11.0, 12.0]}, version=5)


def test_a_huge_ns_per_op_is_refused_with_file_and_line(good):
    _edit(good, 3, ns_per_op="1e308")
    assert _error(good) == (f"{good}:3: ns_per_op is out of range: 1e308 is above 1e+30, more than any value "
                            "bench writes")


def test_the_report_says_it_in_one_line_and_no_numpy_warning(good):
    _edit(good, 3, ns_per_op="1e308")
    done = subprocess.run([sys.executable, "-m", "analyze_lib", "report", str(good), "--out", str(good.parent / "r")],
                          cwd=SCRIPTS_DIR, capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"analyze: {good}:3: ns_per_op is out of range: 1e308 is above 1e+30, "
                                        "more than any value bench writes"]
    assert "RuntimeWarning" not in done.stderr and "nan" not in done.stdout


def test_an_integer_beyond_64_bits_is_refused(good):
    _edit(good, 2, elapsed_ns=str(2 ** 64))
    assert _error(good) == (f"{good}:2: elapsed_ns is out of range: {2 ** 64} does not fit in 64 bits, as every "
                            "count bench writes does")


def test_ns_per_op_must_match_elapsed_over_ops(good):
    _edit(good, 4, ops="100000", elapsed_ns="1000000", ns_per_op="20.0000")
    assert _error(good) == f"{good}:4: ns_per_op 20.0000 does not match elapsed_ns / ops = 1000000 / 100000 = 10.0000"


def test_the_tolerance_is_the_writers_fourth_decimal(good):
    # 1000003 / 3 = 333334.33333...: bench writes 333334.3333; one unit of the 4th decimal off is refused.
    _edit(good, 2, ops="3", elapsed_ns="1000003", ns_per_op="333334.3333", thread_ops_min="3", thread_ops_max="3")
    assert load_results(good).incomplete is None
    _edit(good, 2, ns_per_op="333334.3334")
    assert _error(good) == (f"{good}:2: ns_per_op 333334.3334 does not match elapsed_ns / ops = 1000003 / 3 = "
                            "333334.3333")
