"""One per-case summary (the median of round medians), used by report, decisions, compare and export."""

from __future__ import annotations

import json

import numpy as np

from analyze_lib.cli import main
from analyze_lib.files.loader import load_results
from analyze_lib.judge.compare import build_comparison
from analyze_lib.judge.summary import case_median, factor
from analyze_lib.judge.decisions import decide
from analyze_lib.judge.evidence import UNMEASURED_FLOOR
from analyze_lib.present.tables import which_one_tables
from csvgen import case, write_results

# Three rounds of three samples. "rare-slow" has two fast rounds with one slow sample each and a
# slow third round: its round medians are 10, 10, 99 (median 10) while the pooled median of its
# nine samples is 99. "steady" is 20 everywhere. By round medians rare-slow is the faster; by the
# pooled median, steady would be.
RARE_SLOW = [np.array([10.0, 10.0, 99.0]), np.array([10.0, 10.0, 99.0]), np.array([99.0, 99.0, 99.0])]
STEADY = [np.array([20.0, 20.0, 20.0])] * 3


def _run(tmp_path, name="run.csv"):
    return write_results(tmp_path / name, {case(variant="rare-slow"): RARE_SLOW, case(variant="steady"): STEADY},
                         version=3)


def test_case_median_is_the_median_of_round_medians(tmp_path):
    cases = load_results(_run(tmp_path)).cases
    by_variant = {key.variant: c for key, c in cases.items()}
    assert case_median(by_variant["rare-slow"]) == 10.0
    assert float(np.median(by_variant["rare-slow"].ns_per_op)) == 99.0  # the pooled median it is not
    assert case_median(by_variant["steady"]) == 20.0
    estimate = factor(by_variant["steady"], by_variant["rare-slow"])
    assert estimate.ratio == 2.0 and estimate.low <= 2.0 <= estimate.high


def test_report_decisions_and_tables_rank_by_the_summary(tmp_path):
    cases = load_results(_run(tmp_path)).cases
    [decision] = decide(cases, logical_cpus=4, cpu_share=None, floor=UNMEASURED_FLOOR)
    assert (decision.use.variant, decision.use.median) == ("rare-slow", 10.0)
    assert (decision.runner_up.variant, decision.runner_up.factor.ratio) == ("steady", 2.0)
    [(_, table)] = which_one_tables(cases, logical_cpus=4, cpu_share=None, floor=UNMEASURED_FLOOR)
    [row] = table.rows
    assert row[1:3] == ("**rare-slow**", "10.0")


def test_compare_and_export_show_the_same_number(tmp_path, capsys):
    path = _run(tmp_path)
    loaded = load_results(path)
    rows = {row.key.variant: row for row in build_comparison(loaded, loaded).rows}
    assert (rows["rare-slow"].base_median, rows["steady"].base_median) == (10.0, 20.0)
    assert main(["export", str(path), "--format", "github"]) == 0
    values = {entry["name"]: entry["value"] for entry in json.loads(capsys.readouterr().out)}
    assert values == {"once/hit/rare-slow threads:1": 10.0, "once/hit/steady threads:1": 20.0}
