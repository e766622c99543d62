"""CSVs written by bench itself (a timing file and a counts file) load with the real loader: the two sides agree
on the newest schema. Regenerate them with the commands in fixtures/README.md."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest

from analyze_lib.files.loader import load_counts, load_results
from analyze_lib.judge.summary import case_median
from analyze_lib.files.schema import COLUMNS_BY_VERSION, COUNTS_COLUMNS_BY_VERSION
from csvgen import case, write_results

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "bench-v10.csv"
COUNTS_FIXTURE = Path(__file__).resolve().parent / "fixtures" / "bench-counts-v10.csv"
HUNG_FIXTURE = Path(__file__).resolve().parent / "fixtures" / "bench-hung-v10.csv"
SCHEMA_VERSION = 10
# /proc/stat counts steal in ticks of 1/USER_HZ s, 10 ms on Linux: bench's figure is a whole number of them.
STEAL_TICK_NS = 10_000_000


def check_bench_file(path: Path) -> None:
    """The header is exactly schema.py's columns of that version and every row loads as a sample."""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = [row for row in csv.reader(handle) if row]
    header, data = rows[0], rows[1:]
    assert tuple(header) == COLUMNS_BY_VERSION[SCHEMA_VERSION]
    assert data, f"{path} has no rows"
    assert {row[0] for row in data} == {str(SCHEMA_VERSION)}
    results = load_results(path)  # raises, naming the line, on any row it cannot parse
    assert results.schema_version == SCHEMA_VERSION
    assert results.warnings == []  # nothing dropped (no torn last row)
    assert sum(case.n for case in results.cases.values()) == len(data)  # every row is a sample


def test_bench_written_csv_loads():
    check_bench_file(FIXTURE)
    # Written with --rounds 2: two fresh processes, one file of one run.
    results = load_results(FIXTURE)
    assert {round_id for case in results.cases.values() for round_id in case.round_ids} == {1, 2}


def test_bench_writes_the_batch_of_timed_cases_and_the_steal_of_every_sample():
    """Schema 10 as bench writes it: batch_ops on the rows of timed cases (the harness loop, the rwlock's roles),
    empty on the lockstep handoff's; steal_ns a whole number of ticks over 1 to logical_cpus CPUs, on every row of
    a Linux run."""
    with open(FIXTURE, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    timed = [row for row in rows if row["suite"] in ("harness", "isolation")]
    lockstep = [row for row in rows if row["benchmark"] == "handoff"]
    assert timed and lockstep
    assert all(int(row["batch_ops"]) >= 1 for row in timed)
    assert all(row["batch_ops"] == "" for row in lockstep)
    for row in rows:
        assert int(row["steal_ns"]) % STEAL_TICK_NS == 0
        assert 1 <= int(row["steal_cpus"]) <= min(2 * int(row["sched_threads"]), int(row["logical_cpus"]))
    loaded = load_results(FIXTURE).cases
    assert all(np.isnan(case.columns["batch_ops"]).all() == (key.benchmark == "handoff")
               for key, case in loaded.items())


def test_a_case_bench_abandoned_as_hung_loads_as_starved_never_fast():
    """bench's row for a case it abandoned as hung (hung=true: no operation, ns_per_op inf) loads as a starved
    sample of the round it hung in, which no later round measured; the case beside it keeps every round."""
    check_bench_file(HUNG_FIXTURE)
    with open(HUNG_FIXTURE, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert {(row["variant"], row["hung"]) for row in rows} == {("lost-wakeup", "true"), ("loop", "false")}
    # The hung row (a lockstep handoff) has no batch, and the steal of its watched span as a measured row has.
    assert {(row["variant"], row["batch_ops"] == "") for row in rows} == {("lost-wakeup", True), ("loop", False)}
    assert all(row["steal_ns"] != "" and row["steal_cpus"] != "" for row in rows)
    cases = {key.variant: case for key, case in load_results(HUNG_FIXTURE).cases.items()}
    hung, measured = cases["lost-wakeup"], cases["loop"]
    assert list(hung.round_ids) == [1] and np.isinf(hung.ns_per_op).all()
    assert case_median(hung) == math.inf
    assert sorted(measured.round_ids) == [1, 2] and np.isfinite(measured.ns_per_op).all()


def test_bench_count_written_csv_loads():
    """A counts file written by `bench count` has schema.py's counts columns and loads, with the known answers of
    the harness's counting cases: k allocations per operation for k objects, 16 more instructions for 16 nops."""
    with open(COUNTS_FIXTURE, newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle))
    assert tuple(header) == COUNTS_COLUMNS_BY_VERSION[SCHEMA_VERSION]
    counts = load_counts(COUNTS_FIXTURE)
    assert counts.warnings == []
    by_name = {(key.benchmark, dict(key.params).get("objects", dict(key.params).get("nops"))): case
               for key, case in counts.cases.items() if key.suite == "harness"}
    for objects in (0, 1, 3):
        assert by_name[("allocate", objects)].allocations_per_op == objects
    extra = by_name[("nops", 16)].instructions - by_name[("nops", 0)].instructions
    assert abs(extra - 16 * by_name[("nops", 16)].operations) < 16


def test_the_check_itself_passes_on_a_generated_file(tmp_path):
    # Keeps check_bench_file honest: it refuses a file of another version.
    path = write_results(tmp_path / "gen.csv", {case(threads=t): 100.0 for t in (1, 2)}, version=SCHEMA_VERSION)
    check_bench_file(path)
    with pytest.raises(AssertionError):
        check_bench_file(write_results(tmp_path / "v2.csv", {case(): 100.0}, version=2))
