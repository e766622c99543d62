"""Schema version 3 (run settings, round, OS threads, dirty may be unknown) loads beside 1 and 2."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

from analyze_lib.cli import main
from analyze_lib.files.loader import load_results
from analyze_lib.files.schema import (
    COLUMN_TYPES,
    COLUMNS_BY_VERSION,
    RUN_COLUMNS,
    SAMPLE_NUMERIC_COLUMNS,
    column_type,
    run_columns,
)
from csvgen import case, write_results

# The columns version 3 appends to version 2, in order (SCHEMA_V3, agreed with the Swift side).
V3_APPENDED = (
    "round", "os_threads_start", "os_threads_end", "run_samples", "run_warmup", "run_sample_ns",
    "run_quick", "run_filter", "run_threads", "run_rounds", "run_seed", "load_avg_1m",
    "bench_version",
)
V3_TYPES = {
    "round": "int", "os_threads_start": "opt_int", "os_threads_end": "opt_int",
    "run_samples": "int", "run_warmup": "int", "run_sample_ns": "int", "run_quick": "bool",
    "run_filter": "str", "run_threads": "str", "run_rounds": "int", "run_seed": "str",
    "load_avg_1m": "opt_float", "bench_version": "str",
}


def test_v3_columns_are_v2_then_the_appended_ones():
    assert COLUMNS_BY_VERSION[3] == COLUMNS_BY_VERSION[2] + V3_APPENDED
    assert {c: column_type(c, 3) for c in V3_APPENDED} == V3_TYPES
    assert set(COLUMN_TYPES) == set(COLUMNS_BY_VERSION[3]) | {"run_spin_scale", "run_complete", "pair", "pair_order",
                                                              "variant_origin", "run_min_rounds",
                                                              "sched_threads", "sched_running_ns",
                                                              "sched_runqueue_ns", "sched_switches_in", "hung",
                                                              "batch_ops", "steal_ns", "steal_cpus"}
    assert column_type("dirty", 3) == "bool_or_unknown"
    assert column_type("dirty", 2) == column_type("dirty", 1) == "bool"
    run_level = {c for c in V3_APPENDED if c.startswith("run_")} | {"load_avg_1m", "bench_version"}
    assert run_level <= set(RUN_COLUMNS)
    assert set(run_columns(2)).isdisjoint(run_level)
    assert {"os_threads_start", "os_threads_end"} <= set(SAMPLE_NUMERIC_COLUMNS)


def test_v3_file_loads_with_its_run_settings(tmp_path):
    path = write_results(tmp_path / "v3.csv", {case(threads=2): 100.0}, version=3,
                         run={"run_filter": "^once/", "run_quick": "true"})
    results = load_results(path)
    assert results.schema_version == 3
    run = results.run
    assert (run["run_samples"], run["run_warmup"], run["run_sample_ns"]) == (15, 2, 20000000)
    assert (run["run_quick"], run["run_filter"], run["run_threads"]) == (True, "^once/", "1,2,4,8")
    assert (run["run_rounds"], run["run_seed"], run["bench_version"]) == (1, "", "0.3.0")
    assert run["load_avg_1m"] == 0.42 and run["dirty"] is False
    [loaded] = results.cases.values()
    assert loaded.n == 15
    assert list(loaded.columns["os_threads_start"]) == [5.0] * 15


def test_v3_quoted_threads_list_round_trips(tmp_path):
    path = write_results(tmp_path / "v3.csv", {case(): 100.0}, version=3)
    assert '"1,2,4,8"' in path.read_text()  # a comma inside a field is quoted
    assert load_results(path).run["run_threads"] == "1,2,4,8"


def test_v3_dirty_may_be_unknown(tmp_path):
    path = write_results(tmp_path / "v3.csv", {case(): 100.0}, version=3, run={"dirty": "unknown"})
    results = load_results(path)
    assert results.run["dirty"] is None
    assert results.commit_label == "0123456+dirty?"


def test_v2_dirty_must_be_true_or_false(tmp_path, capsys):
    path = write_results(tmp_path / "v2.csv", {case(): 100.0}, version=2, run={"dirty": "unknown"})
    assert main(["report", str(path), "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err == f"analyze: {path}:2: dirty must be 'true' or 'false': 'unknown'\n"


def _set_on_every_row(path, **cells):
    rows = list(csv.reader(io.StringIO(path.read_text(), newline="")))
    header = rows[0]
    for row in rows[1:]:
        for column, value in cells.items():
            row[header.index(column)] = value
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows(rows)


@pytest.mark.parametrize("cells, message", [
    ({"round": "0"}, "round must be at least 1: '0'"),
    ({"round": ""}, "round is not an integer: ''"),
    ({"run_quick": "yes"}, "run_quick must be 'true' or 'false': 'yes'"),
    ({"dirty": "maybe"}, "dirty must be 'true', 'false' or 'unknown': 'maybe'"),
])
def test_v3_bad_values_exit_2(tmp_path, capsys, cells, message):
    path = write_results(tmp_path / "v3.csv", {case(): [100.0] * 3}, version=3)
    _set_on_every_row(path, **cells)  # run-level columns must be the same on every row
    assert main(["report", str(path), "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err == f"analyze: {path}:2: {message}\n"


def test_v3_run_settings_must_be_the_same_on_every_row(tmp_path, capsys):
    path = write_results(tmp_path / "v3.csv", {case(): [100.0] * 3}, version=3)
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    lines[3] = lines[3].replace(",15,2,", ",5,2,")
    path.write_text("".join(lines), newline="")
    assert main(["report", str(path), "--out", str(tmp_path / "r")]) == 2
    assert "v3.csv:4: run_samples '5' differs from the first row's '15'" in capsys.readouterr().err


def test_v3_compare_json_is_strict_with_empty_load_average(tmp_path, capsys):
    base = write_results(tmp_path / "b.csv", {case(): 100.0}, version=3, run={"load_avg_1m": ""})
    head = write_results(tmp_path / "h.csv", {case(): 100.0}, version=3, run={"dirty": "unknown"})
    assert main(["compare", str(base), str(head), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["base"]["load_avg_1m"] is None
    assert document["base"]["run_quick"] is False and document["base"]["run_samples"] == 15
    assert document["head"]["dirty"] is None


def test_v1_v2_v3_compare_together(tmp_path, capsys):
    paths = [write_results(tmp_path / f"v{v}.csv", {case(): 100.0}, version=v) for v in (1, 2, 3)]
    for base in paths:
        for head in paths:
            assert main(["gate", str(base), str(head)]) == 0
    [v1_case] = load_results(paths[0]).cases.values()
    assert math.isnan(v1_case.columns["os_threads_end"][0])  # absent before v3: NaN


def test_v4_appends_the_spin_scale_which_v3_files_read_as_1(tmp_path):
    assert COLUMNS_BY_VERSION[4] == COLUMNS_BY_VERSION[3] + ("run_spin_scale",)
    assert column_type("run_spin_scale", 4) == "float"
    v3 = load_results(write_results(tmp_path / "v3.csv", {case(): 100.0}, version=3))
    v4 = load_results(write_results(tmp_path / "v4.csv", {case(): 100.0}, version=4,
                                    run={"run_spin_scale": "1.25"}))
    assert v3.run["run_spin_scale"] == 1.0
    assert v4.run["run_spin_scale"] == 1.25


def test_counts_files_of_version_4_load_like_version_3(tmp_path):
    # bench writes its counts file with the family's version (ResultsSchema.version); v4 changed only timing columns.
    from analyze_lib.files.loader import load_counts
    from csvgen import once_hit_counts, write_counts
    v4 = load_counts(write_counts(tmp_path / "counts-v4.csv", once_hit_counts(), version=4))
    v3 = load_counts(write_counts(tmp_path / "counts-v3.csv", once_hit_counts(), version=3))
    assert v4.schema_version == 4 and v4.cases == v3.cases
