"""A case bench abandoned as hung (schema 9's ``hung``, docs/running.md#hung-cases) never reads as fast: its row has
no operation, and when it hung after rounds it got through, the loader reads it from its hung rows alone.
bench's own hung row is tested in test_bench_fixture.py (fixtures/bench-hung-v10.csv)."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from analyze_lib.files.errors import AnalyzeError
from analyze_lib.files.loader import load_results
from analyze_lib.judge.summary import case_median
from csvgen import case, write_results

BROKEN = case("wait", "handoff", "lost-wakeup", threads=2)
FINE = case("wait", "handoff", "semaphore", threads=2)


def _mark_hung(path: Path, variant: str, round_: str) -> None:
    """Sets hung=true on ``variant``'s row of ``round_`` (a starved row, as bench writes a hung case's)."""
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
        header = list(rows[0])
    for row in rows:
        if row["variant"] == variant and row["round"] == round_:
            row["hung"] = "true"
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)


def _file(tmp_path: Path) -> Path:
    """Three rounds: the fine handoff in each; the broken one got through rounds 1 and 2, then hung in round 3."""
    return write_results(tmp_path / "hung.csv", {BROKEN: [[100.0], [101.0], [math.inf]],
                                                 FINE: [[200.0], [201.0], [202.0]]}, version=9)


def test_without_the_mark_two_fast_rounds_outvote_one_starved_round(tmp_path):
    # The control: what the analysis would read if hung meant nothing. A broken variant would pass for fast.
    results = load_results(_file(tmp_path))
    assert case_median(next(c for k, c in results.cases.items() if k.variant == "lost-wakeup")) == 101.0
    assert results.warnings == []


def test_a_case_that_hung_in_a_later_round_reads_as_starved_from_its_hung_row_alone(tmp_path):
    path = _file(tmp_path)
    _mark_hung(path, "lost-wakeup", "3")
    results = load_results(path)
    cases = {key.variant: value for key, value in results.cases.items()}
    assert list(cases["lost-wakeup"].round_ids) == [3]
    assert case_median(cases["lost-wakeup"]) == math.inf
    assert list(cases["semaphore"].round_ids) == [1, 2, 3], "the other case keeps every round"
    assert results.warnings == ["wait/handoff/lost-wakeup threads:2 hung in round 3 (no progress for bench's "
                                "--hang-timeout): its 2 samples of other rounds are left out, and it reads as "
                                "starved"]


def test_a_hung_row_with_operations_is_refused(tmp_path):
    path = _file(tmp_path)
    _mark_hung(path, "lost-wakeup", "1")  # a measured row (ops > 0) said to be hung: bench never writes it
    with pytest.raises(AnalyzeError, match="hung is true but ops is 100000"):
        load_results(path)


def test_a_hung_case_is_named_hung_where_a_starved_one_is_named_starved(tmp_path):
    """A case bench abandoned as hung is disqualified, and diagnosed, as hung (a lost wake-up or a deadlock), not as
    starved; the control: two starved rounds without the mark read as starvation (one would not: issue 73)."""
    from analyze_lib.judge.conditions import run_conditions
    from analyze_lib.judge.decisions import HUNG, disqualification, role_rows
    from analyze_lib.judge.diagnosis import diagnose
    from analyze_lib.present.diagnosis_text import cause_text

    starved = write_results(tmp_path / "starved.csv", {BROKEN: [[math.inf], [math.inf]], FINE: [[200.0], [201.0]]},
                            version=9)
    hung = write_results(tmp_path / "hung.csv", {BROKEN: [[math.inf]], FINE: [[200.0]]}, version=9)
    _mark_hung(hung, "lost-wakeup", "1")
    for path, expected in ((hung, True), (starved, False)):
        results = load_results(path)
        cases, floor = results.cases, run_conditions(results).floor
        key = next(k for k in cases if k.variant == "lost-wakeup")
        assert cases[key].hung is expected
        reason = disqualification(cases[key], role_rows(cases.values()), 2, cpu_share=None, floor=floor)
        text = cause_text(diagnose(cases, 2, cpu_share=None, floor=floor)[key])
        if expected:
            assert reason == HUNG and text == HUNG
        else:
            assert reason is not None and reason.startswith("starved") and text.startswith("starvation")
