"""Schema version 5 (run_complete, pair, pair_order; counts 5 and stress 2 append run_complete): a file says
whether its run completed, and a file without the column is incomplete when it holds fewer rounds than run_rounds."""

from __future__ import annotations

import csv

import pytest

from analyze_lib.files.errors import AnalyzeError
from analyze_lib.files.loader import load_counts, load_results, load_stress
from analyze_lib.files.schema import COLUMNS_BY_VERSION, COUNTS_COLUMNS_BY_VERSION, SAMPLE_NUMERIC_COLUMNS, \
    STRESS_COLUMNS_BY_VERSION
from pathlib import Path

from csvgen import case, clean_stress_rows, once_hit_counts, rounds, write_counts, write_results, write_stress


def test_v5_appends_three_columns_and_counts_and_stress_append_run_complete():
    assert COLUMNS_BY_VERSION[5] == COLUMNS_BY_VERSION[4] + ("run_complete", "pair", "pair_order")
    assert COUNTS_COLUMNS_BY_VERSION[5] == COUNTS_COLUMNS_BY_VERSION[4] + ("run_complete",)
    assert STRESS_COLUMNS_BY_VERSION[2] == STRESS_COLUMNS_BY_VERSION[1] + ("run_complete",)
    # pair is a number per sample; run_complete and pair_order are not numbers.
    assert "pair" in SAMPLE_NUMERIC_COLUMNS
    assert not {"run_complete", "pair_order"} & set(SAMPLE_NUMERIC_COLUMNS)


def _set_column(path, column, values_by_line):
    """Rewrite ``column`` on the given (1-based) lines of a generated CSV (one line per record)."""
    with open(path, newline="") as handle:
        records = list(csv.reader(handle))
    index = records[0].index(column)
    for number, value in values_by_line.items():
        records[number - 1][index] = value
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows(records)
    return path


def test_a_completed_v5_file_is_complete(tmp_path):
    results = load_results(write_results(tmp_path / "v5.csv", {case(): 100.0}, version=5))
    assert (results.schema_version, results.incomplete) == (5, None)


def test_one_false_makes_a_v5_file_incomplete_naming_the_line(tmp_path):
    path = _set_column(write_results(tmp_path / "v5.csv", {case(): 100.0}, version=5), "run_complete", {4: "false"})
    assert load_results(path).incomplete == ("run_complete is false (line 4): the run that wrote it did not "
                                             "complete (interrupted, killed, or still running)")


def test_fewer_rounds_than_run_rounds_is_incomplete_in_any_version(tmp_path):
    for version in (3, 4, 5):
        two_of_three = write_results(tmp_path / f"v{version}.csv", {case(): rounds(100.0, 2, samples=2)},
                                     version=version, run={"run_rounds": "3"})
        assert load_results(two_of_three).incomplete == (
            "it holds 2 of the run's 3 rounds (run_rounds 3; rounds 1, 2): the run did not complete")
        whole = write_results(tmp_path / f"w{version}.csv", {case(): rounds(100.0, 3, samples=2)},
                              version=version, run={"run_rounds": "3"})
        assert load_results(whole).incomplete is None


def test_pair_and_pair_order_load_and_a_wrong_order_is_refused(tmp_path):
    path = write_results(tmp_path / "pairs.csv", {case(): [100.0, 101.0]}, version=5)
    _set_column(path, "pair", {2: "0", 3: "1"})
    _set_column(path, "pair_order", {2: "first", 3: "second"})
    assert list(load_results(path).cases.values())[0].columns["pair"].tolist() == [0.0, 1.0]
    _set_column(path, "pair_order", {3: "third"})
    with pytest.raises(AnalyzeError) as error:
        load_results(path)
    assert str(error.value) == f"{path}:3: pair_order must be empty, 'first' or 'second': 'third'"


def test_counts_and_stress_files_say_when_their_run_did_not_complete(tmp_path):
    counts = write_counts(tmp_path / "counts.csv", once_hit_counts(), version=5)
    assert load_counts(counts).incomplete is None
    assert load_counts(_set_column(counts, "run_complete", {2: "false"})).incomplete.startswith(
        "run_complete is false (line 2)")
    stress = write_stress(tmp_path / "stress.csv", clean_stress_rows(), version=2)
    assert load_stress(stress).incomplete is None
    assert load_stress(_set_column(stress, "run_complete", {5: "false"})).incomplete.startswith(
        "run_complete is false (line 5)")
    # Version 1 has no column: nothing says it is incomplete.
    assert load_stress(write_stress(tmp_path / "v1.csv", clean_stress_rows(), version=1)).incomplete is None


def test_the_stress_file_bench_wrote_has_version_2_and_says_its_run_completed():
    fixture = Path(__file__).resolve().parent / "fixtures" / "bench-stress-v2.csv"
    with open(fixture, newline="") as handle:
        assert tuple(next(csv.reader(handle))) == STRESS_COLUMNS_BY_VERSION[2]
    stress = load_stress(fixture)
    assert (stress.schema_version, stress.warnings, stress.incomplete) == (2, [], None)
