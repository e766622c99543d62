"""change_point_aa.py: a file's rounds (or a run's samples) become one series a case, joined files follow each other;
unchanged series give no false change point on these seeds and a planted shift is found where planted (its negative
control); the model's series are what their kind says."""

from __future__ import annotations

import numpy as np

from change_point_aa import file_series, judge, model_series
from csvgen import case, rounds, write_results

KEYS = [case(variant=f"v{i}") for i in range(3)]


def _run(path, count: int, seed: int = 0):
    cases = {key: rounds(100.0, count, 0.01, samples=3, seed=seed + i) for i, key in enumerate(KEYS)}
    return write_results(path, cases, version=6, run={"run_rounds": str(count)})


def test_rounds_become_points_and_joined_files_follow_each_other(tmp_path):
    one = file_series([_run(tmp_path / "a.csv", 12)], 12)
    assert len(one) == len(KEYS) and all(series.size == 12 for series in one)
    joined = file_series([_run(tmp_path / "b.csv", 8), _run(tmp_path / "c.csv", 8, seed=10)], 12)
    assert len(joined) == len(KEYS) and all(series.size == 12 for series in joined)
    # Too few pseudo-runs: the case is left out.
    assert file_series([_run(tmp_path / "d.csv", 8)], 12) == []


def test_a_run_without_rounds_gives_a_point_a_sample(tmp_path):
    path = write_results(tmp_path / "s.csv", {KEYS[0]: 100.0})  # 15 samples, one process
    [series] = file_series([path], 12)
    assert series.size == 12


def test_unchanged_series_give_no_false_alarm_and_a_plant_is_found(tmp_path):
    series = file_series([_run(tmp_path / "a.csv", 12)], 12)
    assert judge(series, 5.0, 1.0, 6).false == 0
    planted = judge(series, 5.0, 1.5, 6)
    assert (planted.series, planted.false, planted.planted_found) == (len(KEYS), 0, len(KEYS))


def test_model_series_have_their_kind():
    rng = np.random.default_rng(1)
    flat = model_series("lognormal-2%", 200, 12, rng)
    assert len(flat) == 200 and all(s.size == 12 for s in flat)
    assert 0.015 < np.std(np.log(np.concatenate(flat))) < 0.025
    levels = np.concatenate(model_series("two-levels-1.3x", 200, 12, rng))
    assert 0.1 < np.mean(levels > 100 * 1.15) < 0.3


def test_false_change_points_are_counted_by_their_label():
    flat = np.full(12, 100.0) * np.exp(np.random.default_rng(2).normal(0, 0.01, 12))
    stepped = flat.copy()
    stepped[4:] *= 1.5  # a shift that is not planted: a false alarm to the tool
    tally = judge([flat, stepped], 5.0, 1.0, 6, ["once/hit threads:1", "wait/fan-out threads:8"])
    assert (tally.series, tally.false, dict(tally.where)) == (2, 1, {"once/hit threads:1": 0,
                                                                    "wait/fan-out threads:8": 1})
