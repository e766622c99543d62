"""Fairness has one definition (issue 62): each sample's slowest thread's operations over its busiest's, as a
median of round medians (signals.fairness). The labels, the disqualification rule and the table of every case all
read it, so what the report shows is what decided. The case here tells the definitions apart: one round of five
unfair samples and two rounds of one fair sample; the median of round medians is fair (0.5), the flat median over
samples that the disqualification rule took before was unfair (0.05)."""

from __future__ import annotations

import numpy as np

from analyze_lib.files.loader import load_results
from analyze_lib.judge.evidence import UNMEASURED_FLOOR, Chance, StallFloor
from analyze_lib.judge.decisions import disqualification, role_rows
from analyze_lib.judge.signals import fairness, signals
from analyze_lib.present.tables import cases_table
from csvgen import case, write_results

KEY = case("isolation", "mixed", "mutex", 2, "read_pct=0")
OTHER = case("isolation", "mixed", "nslock", 2, "read_pct=0")


def _loaded(tmp_path, shares_by_round: list[list[float]]):
    """The case at 2 threads on 4 CPUs, its samples' slowest-over-busiest shares as given, round by round."""
    samples = [np.full(len(shares), 40.0) for shares in shares_by_round]
    path = write_results(tmp_path / "run.csv", {KEY: samples, OTHER: 50.0}, version=6)
    results = load_results(path)
    loaded = next(c for k, c in results.cases.items() if k.variant == "mutex")
    most = np.full(loaded.n, 1000.0)
    loaded.columns["thread_ops_max"] = most
    loaded.columns["thread_ops_min"] = most * np.concatenate([np.asarray(s) for s in shares_by_round])
    return results, loaded


def test_the_rule_the_labels_and_the_table_read_one_figure(tmp_path):
    results, loaded = _loaded(tmp_path, [[0.05] * 5, [0.5], [0.5]])
    assert fairness(loaded) == 0.5
    assert signals(loaded, 4).fairness == 0.5
    rows = role_rows(results.cases.values())
    # The flat median (0.05) would say unfair.
    assert disqualification(loaded, rows, 4, cpu_share=None, floor=UNMEASURED_FLOOR) is None
    table = cases_table([loaded], 4)
    assert table.rows[0][-1] == "0.50"


def test_control_unfair_in_most_rounds_is_disqualified_and_shown_so(tmp_path):
    results, loaded = _loaded(tmp_path, [[0.05], [0.05], [0.5] * 5])
    assert fairness(loaded) == 0.05
    # Beside controls that were never unfair (2 of 7 samples is beyond their rate, not beyond the 1 in 20 assumed
    # where no control was timed).
    clean = StallFloor(Chance(0, 200), Chance(0, 200))
    rows = role_rows(results.cases.values())
    reason = disqualification(loaded, rows, 4, cpu_share=None, floor=clean)
    assert reason is not None and reason.startswith("unfair")
    assert disqualification(loaded, rows, 4, cpu_share=None, floor=UNMEASURED_FLOOR) is None
    assert cases_table([loaded], 4).rows[0][-1] == "0.05"
