"""Stress files (bench stress) load into StressFile, recognised by their first column, with
the checks every results file gets (version, torn last row, one error naming file and line)
and their own: grades, a (check, threads, outcome) once, one slot's rows agreeing."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from analyze_lib.files.errors import AnalyzeError
from analyze_lib.files.schema import KNOWN_STRESS_VERSIONS
from analyze_lib.files.loader import (
    NOT_STRESS,
    STRESS_NOT_COUNTS,
    STRESS_NOT_TIMING,
    TORN_ROW_WARNING,
    load_any,
    load_counts,
    load_results,
    load_stress,
)
from analyze_lib.files.model import StressFile
from analyze_lib.files.schema import STRESS, STRESS_COLUMNS_BY_VERSION, file_kind
from csvgen import caught_control, clean_stress_rows, outcome, write_results, write_stress

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "bench-stress-v1.csv"
# The outcomes CSV as Sources/BenchResults/StressSchema.swift writes it, in order.
AGREED_COLUMNS = (
    "stress_schema_version", "run_id", "started_at", "commit", "dirty", "host", "os", "kernel", "cpu_model",
    "logical_cpus", "swift_version", "build", "allocator", "bench_version",
    "check", "is_control", "threads", "iterations", "seconds", "outcome", "grade", "count",
    "seconds_to_first_forbidden",
)


def _rows(path):
    return list(csv.reader(io.StringIO(path.read_text(), newline="")))


def _error(path, loader=load_stress) -> str:
    with pytest.raises(AnalyzeError) as error:
        loader(path)
    return str(error.value)


def test_stress_columns_are_the_swift_ones():
    assert STRESS_COLUMNS_BY_VERSION[1] == AGREED_COLUMNS


def test_the_file_bench_stress_wrote_loads():
    """The fixture (fixtures/README.md says how it was made): 21 rows, 16 check runs, every
    variant clean and every control caught, with bench's own numbers."""
    header, *data = [row for row in _rows(FIXTURE) if row]
    assert tuple(header) == AGREED_COLUMNS
    stress = load_any(FIXTURE)
    assert isinstance(stress, StressFile)
    assert (stress.schema_version, stress.warnings, stress.commit_label) == (1, [], "2e502bd")
    assert sum(len(r.outcomes) for r in stress.results.values()) == len(data) == 21
    variants = [r for r in stress.results.values() if not r.is_control]
    controls = [r for r in stress.results.values() if r.is_control]
    assert (len(variants), len(controls)) == (8, 8)
    assert all(not r.forbidden for r in variants)
    assert all(r.caught and r.forbidden for r in controls)
    race = stress.results[("once/array-tracker/race", 2)]
    assert (race.iterations, race.seconds, race.seconds_to_first_forbidden) == (232, 0.501, None)
    assert [(o.outcome, o.grade, o.count) for o in race.outcomes] == [("block-ran-once", "acceptable", 23200)]
    torn = stress.results[("control/isolation/racy-store/torn-reads", 4)]
    assert (torn.family, torn.seconds_to_first_forbidden, torn.forbidden[0].count) == ("isolation", 0.329, 575193)


def test_kind_is_told_by_the_first_header_field():
    assert file_kind(AGREED_COLUMNS) == STRESS
    # The column elsewhere does not make a stress file.
    assert file_kind(("schema_version", "stress_schema_version", "ns_per_op")) != STRESS


def test_unknown_stress_schema_version_is_refused(tmp_path):
    path = write_stress(tmp_path / "v9.csv", clean_stress_rows(), version=9)
    known = ", ".join(map(str, KNOWN_STRESS_VERSIONS))
    message = (f"unknown stress_schema_version 9 (this analyze reads stress files of version {known}); "
               "update scripts/analyze")
    assert _error(path) == f"{path}:2: {message}"
    assert _error(path, load_any) == f"{path}:2: {message}"


def test_torn_last_row_is_dropped_with_a_warning(tmp_path):
    path = write_stress(tmp_path / "cut.csv", clean_stress_rows())
    path.write_bytes(path.read_bytes()[:-3])  # "0.329\r\n" loses "9\r\n": a torn row is never read
    stress = load_stress(path)
    assert ("control/isolation/racy-store/torn-reads", 4) not in stress.results
    assert len(stress.results) == 5
    assert stress.warnings == [f"{path}:9: {TORN_ROW_WARNING}"]


def test_duplicate_outcome_is_refused(tmp_path):
    rows = clean_stress_rows()
    path = write_stress(tmp_path / "twice.csv", rows + [rows[0]])
    assert _error(path) == (f"{path}:10: duplicate outcome: once/lazy-static/race threads:1 block-ran-once "
                            "is also on line 2")


@pytest.mark.parametrize("row, message", [
    (outcome("once/x/race", 1, "block-ran-once", grade="fine"),
     "grade must be one of acceptable, acceptable-interesting, forbidden: 'fine'"),
    (outcome("once/x/race", 1, "block-ran-once", count=-1), "count must not be negative: '-1'"),
    (outcome("once/x/race", 1, "block-ran-once", first=0.5),
     "seconds_to_first_forbidden is only for a control, but this row is a variant's"),
    ({**outcome("once/x/race", 1, "block-ran-once"), "is_control": "true"},
     "is_control is true but check 'once/x/race' does not start with 'control/'"),
    ({**outcome("once/x/race", 1, "block-ran-once"), "count": "many"}, "count is not an integer: 'many'"),
])
def test_impossible_rows_are_refused(tmp_path, row, message):
    path = write_stress(tmp_path / "bad.csv", [outcome("once/y/race", 1, "block-ran-once"), row])
    assert _error(path) == f"{path}:3: {message}"


def test_one_checks_rows_must_agree_on_its_run(tmp_path):
    path = write_stress(tmp_path / "mixed.csv", [outcome("once/x/race", 2, "block-ran-once", iterations=10),
                                                 outcome("once/x/race", 2, "block-ran-more-than-once", "forbidden",
                                                         iterations=11)])
    assert _error(path) == (f"{path}:3: iterations '11' differs from line 2's '10': the rows of once/x/race "
                            "threads:2 come from one run of the check")


def test_each_loader_names_the_kind_it_was_given(tmp_path):
    stress = write_stress(tmp_path / "stress.csv", [caught_control("control/once/x/race")])
    timing = write_results(tmp_path / "timing.csv", {("once", "hit", "lock", 1, ""): 10.0}, version=3)
    assert _error(stress, load_results) == f"{stress}:1: {STRESS_NOT_TIMING}"
    assert _error(stress, load_counts) == f"{stress}:1: {STRESS_NOT_COUNTS}"
    assert _error(timing, load_stress) == f"{timing}:1: {NOT_STRESS}"


def test_dirty_may_be_unknown(tmp_path):
    path = write_stress(tmp_path / "unknown.csv", clean_stress_rows(), run={"dirty": "unknown"})
    assert load_stress(path).commit_label == "0123456+dirty?"


FIXTURE_V4 = Path(__file__).resolve().parent / "fixtures" / "bench-stress-v4.csv"
FIXTURE_V3 = Path(__file__).resolve().parent / "fixtures" / "bench-stress-v3.csv"


def test_the_v4_file_bench_stress_wrote_loads_its_trial_counts():
    """Version 4's slots carry their trials against the minimum, and a control its kind and its trials to the first
    forbidden outcome, with bench's own numbers."""
    stress = load_stress(FIXTURE_V4)
    assert (stress.schema_version, stress.warnings) == (4, [])
    race = stress.results[("once/dispatch-once/race", 2)]
    assert (race.trials, race.minimum_trials, race.control_kind, race.trials_to_first_forbidden) == (
        1100, 1000, None, None)
    assert not race.below_minimum
    racy = stress.results[("control/isolation/copy-outside-lock/lost-writes", 2)]
    assert (racy.control_kind, racy.racy, racy.trials, racy.minimum_trials, racy.trials_to_first_forbidden) == (
        "racy", True, 2400, 4000, 2400)
    assert not racy.caught_beyond_minimum
    assert stress.results[("control/once/unsynced-tracker/race", 4)].control_kind == "deterministic"


def test_the_v5_file_bench_stress_wrote_says_what_a_trial_and_a_thread_count_mean():
    """Version 5 adds to each slot what its check counts as a trial and what a thread count means to it, as
    --list-checks says; version 4 has neither."""
    stress = load_stress(FIXTURE_V4.with_name("bench-stress-v5.csv"))
    assert (stress.schema_version, stress.warnings) == (5, [])
    writes = stress.results[("isolation/mutex/lost-writes", 2)]
    assert writes.trial == "write" and writes.threads_meaning.startswith("N writers, each cycling through 16 keys")
    assert {(r.trial, r.threads_meaning) for r in load_stress(FIXTURE_V4).results.values()} == {(None, None)}


def test_a_file_before_version_4_has_no_trial_counts():
    for result in load_stress(FIXTURE_V3).results.values():
        assert (result.trials, result.minimum_trials, result.control_kind, result.trials_to_first_forbidden) == (
            None, None, None, None)
        assert not result.below_minimum and not result.caught_beyond_minimum


@pytest.mark.parametrize("row, message", [
    (outcome("once/x/race", 1, "block-ran-once", trials=-1), "trials must not be negative: '-1'"),
    (outcome("once/x/race", 1, "block-ran-once", minimum=-2), "minimum_trials must not be negative: '-2'"),
    ({**outcome("once/x/race", 1, "block-ran-once"), "control_kind": "racy"},
     "control_kind is only for a control, but this row is a variant's: 'racy'"),
    ({**caught_control("control/once/x/race"), "control_kind": ""},
     "control_kind of a control must be one of deterministic, racy: ''"),
    ({**caught_control("control/once/x/race"), "trials_to_first_forbidden": ""},
     "trials_to_first_forbidden and seconds_to_first_forbidden must both be given (a control caught) or both be "
     "empty: '', '0.002'"),
    ({**caught_control("control/once/x/race"), "trials_to_first_forbidden": "-5"},
     "trials_to_first_forbidden must not be negative: '-5'"),
])
def test_impossible_trial_counts_are_refused(tmp_path, row, message):
    path = write_stress(tmp_path / "bad.csv", [outcome("once/y/race", 1, "block-ran-once"), row], version=4)
    assert _error(path) == f"{path}:3: {message}"


def test_one_checks_rows_must_agree_on_its_trials(tmp_path):
    path = write_stress(tmp_path / "mixed.csv", [outcome("once/x/race", 2, "block-ran-once", trials=10),
                                                 outcome("once/x/race", 2, "iteration-slower-than-watchdog",
                                                         "acceptable-interesting", trials=11)], version=4)
    assert _error(path) == (f"{path}:3: trials '11' differs from line 2's '10': the rows of once/x/race "
                            "threads:2 come from one run of the check")
