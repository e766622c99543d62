"""Issue 64: an adaptive bench run (no --rounds) stops each case between run_min_rounds and run_rounds. Such a
file is complete with fewer rounds than run_rounds, and is still called incomplete when it was interrupted (or
holds fewer rounds than its minimum); the report's first screen says how many rounds each case got. Files before
schema 7 read run_min_rounds as run_rounds."""

from __future__ import annotations

import csv

from analyze_lib.cli import main
from analyze_lib.files.loader import load_results
from analyze_lib.judge.comparable import run_warnings
from analyze_lib.judge.conditions import run_conditions
from csvgen import case, rounds, write_results

ADAPTIVE = {"run_rounds": "10", "run_min_rounds": "5", "logical_cpus": "2", "run_threads": "1",
            "run_samples": "1"}
FIXED = {**ADAPTIVE, "run_min_rounds": "10"}


def _cases(counts: dict[str, int]) -> dict:
    """once/hit cases at one thread, each with its number of rounds; costs far apart."""
    return {case("once", "hit", variant, 1): rounds(10.0 * (index + 1), count, samples=1, seed=index)
            for index, (variant, count) in enumerate(counts.items())}


def _write(tmp_path, counts: dict[str, int], run: dict, version: int = 7):
    return write_results(tmp_path / "run.csv", _cases(counts), version=version, run=run)


def _mark_incomplete(path):
    with open(path, newline="") as handle:
        records = list(csv.reader(handle))
    index = records[0].index("run_complete")
    for record in records[1:]:
        record[index] = "false"
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows(records)
    return path


def test_an_adaptive_run_whose_cases_stopped_early_is_complete(tmp_path):
    # Every case stopped by round 6: the file holds 6 of run_rounds' 10, and is complete.
    results = load_results(_write(tmp_path, {"a": 5, "b": 6, "c": 5}, ADAPTIVE))
    assert results.incomplete is None
    assert results.run["run_min_rounds"] == 5 and results.run["run_rounds"] == 10


def test_the_same_file_from_a_run_of_fixed_rounds_is_incomplete(tmp_path):
    # The negative control: the same rows, but the run said every case gets 10.
    results = load_results(_write(tmp_path, {"a": 5, "b": 6, "c": 5}, FIXED))
    assert results.incomplete == ("it holds 6 of the run's 10 rounds (run_rounds 10; rounds 1, 2, 3, 4, 5, 6): "
                                  "the run did not complete")


def test_an_interrupted_adaptive_run_is_incomplete(tmp_path):
    # Stopped during round 7: run_complete is false, whatever the rounds.
    results = load_results(_mark_incomplete(_write(tmp_path, {"a": 7, "b": 6, "c": 5}, ADAPTIVE)))
    assert results.incomplete is not None and results.incomplete.startswith("run_complete is false")


def test_an_adaptive_file_with_fewer_rounds_than_its_minimum_is_incomplete(tmp_path):
    results = load_results(_write(tmp_path, {"a": 4, "b": 4}, ADAPTIVE))
    assert results.incomplete == ("it holds 4 rounds, fewer than the 5 every case of its adaptive run gets "
                                  "(run_min_rounds 5; rounds 1, 2, 3, 4): the run did not complete")


def test_a_file_before_schema_7_reads_its_minimum_as_its_rounds(tmp_path):
    results = load_results(_write(tmp_path, {"a": 3, "b": 3}, {"run_rounds": "3"}, version=6))
    assert results.run["run_min_rounds"] == results.run["run_rounds"] == 3
    conditions = run_conditions(results)
    assert not conditions.adaptive
    assert conditions.rounds_per_case == ((3, 2),)


def test_the_first_screen_says_how_many_rounds_each_case_got(tmp_path):
    path = _write(tmp_path, {"a": 5, "b": 5, "c": 10, "d": 6}, ADAPTIVE)
    assert main(["report", str(path), "--out", str(tmp_path / "report")]) == 0
    markdown = (tmp_path / "report" / "report.md").read_text()
    first = markdown.split("\n## Contents\n", 1)[0]
    assert ("- **Run:** full (not `--quick`): rounds adaptive, 5 to 10 a case, each case stopping once its "
            "decisions were settled (2 cases stopped at 5 rounds, 1 at 6, 1 at 10); 1 sample per case and round, "
            "each at least 20 ms, after 2 warm-up samples.") in first
    assert "Incomplete" not in first


def test_a_fixed_run_s_first_screen_is_unchanged(tmp_path):
    # The negative control: every case got run_rounds; no word of adaptive rounds.
    path = _write(tmp_path, {"a": 10, "b": 10}, FIXED)
    assert main(["report", str(path), "--out", str(tmp_path / "report")]) == 0
    first = (tmp_path / "report" / "report.md").read_text().split("\n## Contents\n", 1)[0]
    assert "- **Run:** full (not `--quick`): 10 rounds of 1 sample per case, each at least 20 ms, " in first
    assert "adaptive" not in first


def test_comparing_an_adaptive_run_with_a_fixed_one_warns(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    adaptive = load_results(write_results(tmp_path / "a" / "run.csv", _cases({"a": 5, "b": 10}), version=7,
                                          run=ADAPTIVE))
    fixed = load_results(write_results(tmp_path / "b" / "run.csv", _cases({"a": 10, "b": 10}), version=7, run=FIXED))
    warnings = run_warnings(fixed, adaptive)
    assert any("run_min_rounds" in warning and "base 10, head 5" in warning for warning in warnings), warnings
    assert not any("run_min_rounds" in warning for warning in run_warnings(fixed, fixed))
