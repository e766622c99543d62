"""control_windows.py: identical sides raise no alarm, and a planted slowdown of one suite is found in every window
where it is beyond the control's line, and in none where it is within it (the negative control)."""

from __future__ import annotations

from control_windows import report
from csvgen import case, write_paired

MEDIANS = {case("once", "hit", f"v{i}"): 100.0 for i in range(20)} | {case("wait", "group", f"v{i}"): 200.0
                                                                    for i in range(20)}


def test_identical_sides_raise_no_alarm_and_a_plant_is_found_only_beyond_the_line(tmp_path):
    base, head = tmp_path / "a.csv", tmp_path / "b.csv"
    write_paired(base, head, MEDIANS, rounds=9, cv=0.002, host_levels=(1.0,))
    lines = report([(base, head)], (1.01, 1.10), (1, 5))
    assert lines[0] == "3 windows of 3 rounds from 1 comparison(s); suites: once, wait"
    assert "**False alarms:** 0 of 6 suite-windows." in lines
    assert "| 1.01× | 0 of 3 | 0 of 3 |" in lines
    assert "| 1.1× | 3 of 3 | 3 of 3 |" in lines
    assert "| 1 | 0.0000 |" in lines and "| 5 | 0.0000 |" in lines, "identical sides: no small group moves either"
    assert any(line.startswith("**Single cases** ") and ": 0, 0, 0 of 40, 40, 40 cases," in line for line in lines)


def test_a_moved_suite_is_an_alarm(tmp_path):
    base, head = tmp_path / "a.csv", tmp_path / "b.csv"
    write_paired(base, head, MEDIANS, changes={key: 1.2 for key in MEDIANS if key[0] == "wait"}, rounds=6,
                 cv=0.002, host_levels=(1.0,))
    lines = report([(base, head)], ())
    assert "**False alarms:** 2 of 4 suite-windows." in lines
    assert any(": 0, 0 of 40, 40 cases," in line for line in lines), "1.2× is within the single cases' line"
    assert sum(1 for line in lines if line.startswith("- window ") and " wait slower " in line) == 2
