"""Counts files (bench count) load into CountsFile, told apart from timing files by their
header, with the same validation as timing files: one error naming file and line."""

from __future__ import annotations

import csv
import io

import pytest

from analyze_lib.files.errors import AnalyzeError
from analyze_lib.files.loader import (
    COUNTS_NOT_TIMING,
    TIMING_NOT_COUNTS,
    TORN_ROW_WARNING,
    load_any,
    load_counts,
    load_results,
)
from analyze_lib.files.model import CaseCounts, CaseKey, CountsFile, ResultsFile
from analyze_lib.files.schema import COUNTS, COUNTS_COLUMNS_BY_VERSION, TIMING, file_kind
from csvgen import COUNT_ITERATIONS, COUNT_OPS_PER_ITERATION, case, write_counts, write_results

OPERATIONS = COUNT_ITERATIONS * COUNT_OPS_PER_ITERATION
# The counts file format as agreed with the Swift side (COUNTS_CSV.md), in order.
AGREED_COLUMNS = (
    "schema_version", "run_id", "started_at", "commit", "dirty", "host", "os", "kernel", "cpu_model",
    "logical_cpus", "swift_version", "build", "allocator", "bench_version",
    "suite", "benchmark", "variant", "threads", "params",
    "iterations", "operations", "instructions", "instructions_per_op", "allocations", "allocations_per_op",
)
TWO_CASES = {case(variant="dispatch-once", params="tokens=10"): (12.5, 0.0),
             case(variant="array-tracker", params="tokens=10"): (150.25, 1.0)}

# The counts versions this analyze reads, as its refusal lists them.
_KNOWN_COUNTS = ", ".join(map(str, sorted(COUNTS_COLUMNS_BY_VERSION)))


def _rows(path):
    return list(csv.reader(io.StringIO(path.read_text(), newline="")))


def _write_rows(path, rows):
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows(rows)


def _set(path, line, **cells):
    """Set cells of data row ``line`` (the file's line number, 2 = first data row)."""
    rows = _rows(path)
    for column, value in cells.items():
        rows[line - 1][rows[0].index(column)] = value
    _write_rows(path, rows)
    return path


def test_counts_columns_are_the_agreed_ones():
    assert COUNTS_COLUMNS_BY_VERSION[3] == AGREED_COLUMNS


def test_counts_file_loads_into_typed_cases(tmp_path):
    path = write_counts(tmp_path / "counts.csv", TWO_CASES, run={"dirty": "unknown"})
    counts = load_counts(path)
    assert isinstance(counts, CountsFile)
    assert (counts.schema_version, counts.warnings) == (3, [])
    assert counts.run["allocator"] == "jemalloc" and counts.run["bench_version"] == "0.3.0"
    assert counts.commit_label == "0123456+dirty?"
    key = CaseKey("once", "hit", "array-tracker", 1, (("tokens", 10),))
    assert counts.cases[key] == CaseCounts(key, COUNT_ITERATIONS, OPERATIONS, 1502500, 10000)
    assert counts.cases[key].instructions_per_op == 150.25
    assert counts.cases[key].allocations_per_op == 1.0


def test_the_header_tells_the_kinds_apart(tmp_path):
    counts_path = write_counts(tmp_path / "counts.csv", TWO_CASES)
    timing_path = write_results(tmp_path / "timing.csv", {case(): 100.0}, version=3)
    assert file_kind(_rows(counts_path)[0]) == COUNTS and file_kind(_rows(timing_path)[0]) == TIMING
    assert isinstance(load_any(counts_path), CountsFile)
    assert isinstance(load_any(timing_path), ResultsFile)
    with pytest.raises(AnalyzeError) as error:
        load_results(counts_path)
    assert str(error.value) == f"{counts_path}:1: {COUNTS_NOT_TIMING}"
    with pytest.raises(AnalyzeError) as error:
        load_counts(timing_path)
    assert str(error.value) == f"{timing_path}:1: {TIMING_NOT_COUNTS}"


def test_per_op_columns_written_to_fewer_digits_load(tmp_path):
    # 150.25 written as "150.2" (one decimal) is within its rounding; the value kept is
    # the exact instructions / operations.
    path = write_counts(tmp_path / "c.csv", TWO_CASES, per_op_format="{:.1f}")
    values = sorted(c.instructions_per_op for c in load_counts(path).cases.values())
    assert values == [12.5, 150.25]
    path = write_counts(tmp_path / "r.csv", TWO_CASES, per_op_format="{!r}")
    assert len(load_counts(path).cases) == 2


def _bad_cell(column, value):
    def make(path):
        return _set(path, 2, **{column: value})
    return make


def _truncate_row(path):
    rows = _rows(path)
    rows[2] = rows[2][:-1]
    _write_rows(path, rows)
    return path


def _second_run(path):
    return _set(path, 3, host="other-host")


def _duplicate(path):
    rows = _rows(path)
    _write_rows(path, rows + [rows[1]])
    return path


def _duplicate_spelled_differently(path):
    rows = _rows(path)
    copy = list(rows[1])
    copy[rows[0].index("params")] = "tokens=10.0"
    _write_rows(path, rows + [copy])
    return path


def _missing_column(path):
    path.write_text(path.read_text().replace(",allocations_per_op", ",allocs_per_op", 1))
    return path


def _unknown_version(path):
    rows = _rows(path)
    _write_rows(path, [rows[0]] + [["99"] + row[1:] for row in rows[1:]])
    return path


def _header_only(path):
    path.write_text(path.read_text().splitlines(keepends=True)[0])
    return path


BAD_COUNTS = {
    "not-a-number": (_bad_cell("instructions", "12x"), 2, "instructions is not an integer: '12x'"),
    "per-op-not-a-number": (_bad_cell("allocations_per_op", "nan"), 2,
                            "allocations_per_op is not a finite number: 'nan'"),
    "negative-allocations": (_bad_cell("allocations", "-1"), 2, "allocations must not be negative: '-1'"),
    "no-operations": (_bad_cell("operations", "0"), 2, "operations must be at least 1: '0'"),
    "no-iterations": (_bad_cell("iterations", "0"), 2, "iterations must be at least 1: '0'"),
    "operations-not-a-multiple": (_bad_cell("operations", "10001"), 2,
                                  "operations 10001 is not a multiple of iterations 1000"),
    "no-instructions": (_bad_cell("instructions", "0"), 2, "instructions is 0: callgrind counted nothing"),
    "per-op-disagrees": (_bad_cell("instructions_per_op", "13.5000"), 2,
                         "instructions_per_op 13.5000 does not match instructions / operations = "
                         "125000 / 10000 = 12.5"),
    "threads-zero": (_bad_cell("threads", "0"), 2, "threads must be at least 1: '0'"),
    "short-row": (_truncate_row, 3, "expected 25 fields, found 24"),
    "two-runs": (_second_run, 3, "host 'other-host' differs from the first row's 'bench-1': one file must "
                                 "hold one run"),
    "duplicate-case": (_duplicate, 4, "duplicate case: once/hit/dispatch-once threads:1 tokens=10 is also on "
                                      "line 2"),
    "duplicate-spelled-differently": (_duplicate_spelled_differently, 4,
                                      "duplicate case: once/hit/dispatch-once threads:1 tokens=10 is also on line 2"),
    "missing-column": (_missing_column, 1, "missing column(s) for schema_version 3: allocations_per_op"),
    "unknown-version": (_unknown_version, 2, "unknown schema_version 99 (this analyze reads counts files of "
                                             f"version {_KNOWN_COUNTS}); update scripts/analyze"),
    "header-only": (_header_only, None, "no cases: the file has a header but no rows"),
}


@pytest.mark.parametrize("kind", sorted(BAD_COUNTS))
def test_bad_counts_file_is_one_error_naming_file_and_line(tmp_path, kind):
    damage, line, message = BAD_COUNTS[kind]
    path = damage(write_counts(tmp_path / "bad.csv", TWO_CASES))
    with pytest.raises(AnalyzeError) as error:
        load_counts(path)
    where = f"{path}:{line}:" if line is not None else f"{path}:"
    assert str(error.value).startswith(f"{where} {message}"), str(error.value)


def test_torn_last_row_is_dropped_with_a_warning(tmp_path):
    path = write_counts(tmp_path / "cut.csv", TWO_CASES)
    data = path.read_bytes()
    path.write_bytes(data[:-4])  # "1.0000\r\n" loses "00\r\n": a torn row is never read
    counts = load_counts(path)
    assert [key.variant for key in counts.cases] == ["dispatch-once"]
    assert counts.warnings == [f"{path}:3: {TORN_ROW_WARNING}"]


def test_only_row_torn_has_no_cases(tmp_path):
    path = write_counts(tmp_path / "one.csv", {case(): (12.0, 0.0)})
    path.write_bytes(path.read_bytes()[:-2 - 5])
    with pytest.raises(AnalyzeError) as error:
        load_counts(path)
    assert str(error.value) == (f"{path}:2: no cases: the only row is torn (it has no line end: "
                                "was the write interrupted?)")
