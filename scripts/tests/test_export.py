"""scripts/analyze export: github-action-benchmark and Bencher JSON shapes."""

from __future__ import annotations

import json

import numpy as np

from analyze_lib.cli import main
from analyze_lib.exit_codes import EXIT_BAD_INPUT
from csvgen import case, once_hit_counts, write_counts, write_results

SAMPLES = [10.0, 11.0, 12.0, 13.0, 14.0]  # median 12, quartiles 11 and 13


def _export(capsys, path, fmt, *options):
    assert main(["export", str(path), "--format", fmt, *options]) == 0
    return json.loads(capsys.readouterr().out)


def test_timing_to_github_custom_smaller_is_better(tmp_path, capsys):
    path = write_results(tmp_path / "t.csv", {case(variant="lock"): SAMPLES})
    assert _export(capsys, path, "github") == [{
        "name": "once/hit/lock threads:1", "unit": "ns/op", "value": 12.0, "range": "± 1",
        "extra": "IQR 11-13 ns/op; 5 samples in 1 round"}]


def test_timing_to_bencher_metric_format(tmp_path, capsys):
    path = write_results(tmp_path / "t.csv", {case(variant="lock"): SAMPLES, case(variant="once"): SAMPLES})
    document = _export(capsys, path, "bencher")
    assert document == {label: {"latency": {"value": 12.0, "lower_value": 11.0, "upper_value": 13.0}}
                        for label in ("once/hit/lock threads:1", "once/hit/once threads:1")}


def test_timing_with_rounds_exports_the_median_of_round_medians(tmp_path, capsys):
    groups = [np.array([10.0, 10.0, 10.0]), np.array([20.0, 20.0, 20.0]), np.array([30.0, 30.0, 30.0])]
    path = write_results(tmp_path / "t.csv", {case(): groups}, version=3)
    [entry] = _export(capsys, path, "github")
    assert entry["value"] == 20.0 and entry["extra"].endswith("9 samples in 3 rounds")


def test_counts_to_both_formats(tmp_path, capsys):
    path = write_counts(tmp_path / "c.csv", {case(variant="lock"): (40.0, 0.5)})
    assert _export(capsys, path, "github") == [
        {"name": "once/hit/lock threads:1 instructions/op", "unit": "instructions/op", "value": 40.0},
        {"name": "once/hit/lock threads:1 allocations/op", "unit": "allocations/op", "value": 0.5}]
    assert _export(capsys, path, "bencher") == {
        "once/hit/lock threads:1": {"instructions": {"value": 40.0}, "allocations": {"value": 0.5}}}


def test_out_filter_and_starved_case_left_out_with_a_warning(tmp_path, capsys):
    path = write_results(tmp_path / "t.csv", {case(variant="lock"): SAMPLES,
                                              case(variant="stuck"): [float("inf")] * 5})
    out = tmp_path / "bmf.json"
    assert main(["export", str(path), "--format", "bencher", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert list(json.loads(out.read_text())) == ["once/hit/lock threads:1"]
    assert "once/hit/stuck threads:1: starved median" in captured.err
    assert main(["export", str(path), "--format", "github", "--filter", "nothing"]) == EXIT_BAD_INPUT
    counts = write_counts(tmp_path / "c.csv", once_hit_counts())
    assert len(_export(capsys, counts, "github", "--filter", "lock")) == 8
