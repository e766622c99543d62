"""Comparison output a user can act on: what was checked, folded lists, special values in words,
the interval's level, suite intervals."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from analyze_lib.cli import main
from analyze_lib.files.loader import load_results
from analyze_lib.fmt import fmt_ci, fmt_head_base_ratio, fmt_ratio
from analyze_lib.judge.compare import build_comparison
from analyze_lib.present.outcome_text import bimodal_text, noise_floor_text
from analyze_lib.judge.stats import Modes, geomean_interval
from analyze_lib.present.render import TEXT_WIDTH, checked_lines
from csvgen import case, rounds, write_results


def test_special_values_read_as_words():
    assert (fmt_head_base_ratio(math.inf), fmt_head_base_ratio(0.0), fmt_head_base_ratio(1.234)) == (
        "∞ (head starved)", "0 (base starved)", "1.23")
    assert fmt_ci(0.0, 508.55) == "[0 (base starved), 508.55]"
    assert fmt_ci(math.nan, 1.0) == "undefined"
    # A small ratio is never 0.00.
    assert (fmt_ratio(0.0042), fmt_ratio(0.01), fmt_ratio(0.0)) == ("0.0042", "0.01", "0.00")
    assert noise_floor_text(1.234) == "noise floor 1.23×"
    assert noise_floor_text(math.inf).startswith("noise floor unbounded (a round starved")


def test_bimodal_text_gives_the_one_level_sides_median():
    two = Modes(500.0, 0.6, 1600.0, 0.4)
    assert bimodal_text(None, two, 512.0, 900.0) == (
        "bimodal (not gated): base one level 512; head 500 (60%) / 1.6e+03 (40%)")
    # The negative control: without the medians it would say nan, which the row never does now.
    assert "nan" in bimodal_text(None, two)
    assert bimodal_text(two, None, 900.0, math.inf).endswith(
        "; head starved (no operation completed in half its samples)")


def _same_suite(tmp_path, base_levels, head_levels, name):
    """Four once/hit cases whose every round sits at ``base_levels[r]`` / ``head_levels[r]`` times 100."""
    b = {case(variant=f"v{i}"): rounds(100.0, len(base_levels), levels=base_levels, cv=0.001, samples=3, seed=i)
         for i in range(4)}
    h = {case(variant=f"v{i}"): rounds(100.0, len(head_levels), levels=head_levels, cv=0.001, samples=3, seed=9 + i)
         for i in range(4)}
    return (write_results(tmp_path / f"{name}-base.csv", b, version=3),
            write_results(tmp_path / f"{name}-head.csv", h, version=3))


def test_geomean_interval_resamples_rounds_once_for_all_cases():
    # Two cases, three rounds a side. Every case's rounds are 1, 1, 2 in base and 2 in head:
    # a shared draw moves both cases together, so the suite's ratio ranges over 2/1 and 2/2 only.
    base = [[np.array([1.0]), np.array([1.0]), np.array([2.0])]] * 2
    head = [[np.array([2.0])] * 3] * 2
    low, high = geomean_interval(base, head, confidence=0.99)
    assert (low, high) == (1.0, 2.0)
    flat = [[np.array([1.0])] * 3] * 2
    assert geomean_interval(flat, head) == (2.0, 2.0)
    # One round a side (or unequal round counts): no interval.
    assert all(math.isnan(v) for v in geomean_interval([[np.array([1.0])]], [[np.array([2.0])]]))
    assert all(math.isnan(v) for v in geomean_interval([flat[0], flat[0][:2]], head))


def test_suite_geomean_carries_an_interval_that_widens_with_the_rounds_spread(tmp_path, capsys):
    steady = build_comparison(*map(load_results, _same_suite(tmp_path, [1.0] * 6, [1.0] * 6, "steady")))
    wobbly = build_comparison(*map(load_results, _same_suite(
        tmp_path, [0.9, 1.0, 1.1, 1.2, 0.95, 1.05], [1.1, 1.0, 0.9, 1.15, 1.0, 0.95], "wobbly")))
    (s_low, s_high), (w_low, w_high) = steady.suite_intervals["once"], wobbly.suite_intervals["once"]
    assert s_low <= steady.suite_geomeans["once"][0] <= s_high and s_high - s_low < 0.01
    assert w_low < 1.0 < w_high and w_high - w_low > 0.1
    assert main(["compare", *map(str, _same_suite(tmp_path, [1.0] * 6, [1.0] * 6, "steady")), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert "| Suite | Cases | Geomean ratio | 99% CI |" in out
    assert f"| once | 4 | {fmt_ratio(steady.suite_geomeans['once'][0])} | {fmt_ci(s_low, s_high)} |" in out


def test_long_lists_are_folded_tables_or_wrapped_by_suite(tmp_path, capsys):
    # 300 cases in base, none of them in head but one: the missing list is long.
    base = {case(suite=suite, variant=f"variant-with-a-long-name-{i}"): 100.0
            for suite in ("once", "wait", "isolation") for i in range(100)}
    keep = case(suite="once", variant="variant-with-a-long-name-0")
    b = write_results(tmp_path / "base.csv", base)
    h = write_results(tmp_path / "head.csv", {keep: 100.0})
    assert main(["gate", str(b), str(h), "--format", "text"]) == 5
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("Missing from head (299):")
    end = next(i for i in range(at + 1, len(lines)) if not lines[i].startswith("  "))
    listed = lines[at + 1:end]
    assert len(listed) > 3
    assert max(len(line) for line in listed) <= TEXT_WIDTH
    suites = [line for line in listed if not line.startswith("    ")][:3]
    assert [line.split(":")[0] for line in suites] == ["  isolation (100)", "  once (99)", "  wait (100)"]
    assert main(["gate", str(b), str(h), "--format", "md"]) == 5
    out = capsys.readouterr().out
    assert "<details><summary>Missing from head: 299 cases (isolation 100, once 99, wait 100)</summary>" in out
    assert "| `wait/hit/variant-with-a-long-name-99 threads:1` |" in out
    # One table row per missing case, no line that strings them together.
    rows = [line for line in out.splitlines()
            if re.fullmatch(r"\| `\w+/hit/variant-with-a-long-name-\d+ threads:1` \|", line)]
    assert len(rows) == 299
    assert not any(line.count("variant-with") > 1 for line in out.splitlines())


def test_the_role_rows_note_appears_only_with_role_rows(tmp_path):
    roles = {case("isolation", "roles", "rw-lock", 2, f"readers=1;role={role};writers=1"): 100.0
             for role in ("read", "write")}
    b, h = write_results(tmp_path / "b.csv", roles), write_results(tmp_path / "h.csv", roles, seed=7)
    lines = checked_lines(build_comparison(load_results(b), load_results(h)))
    assert lines[-1].startswith("Cases are counted by row: a case measured once per role")
    plain = {case(variant="lock"): 100.0}
    b, h = write_results(tmp_path / "pb.csv", plain), write_results(tmp_path / "ph.csv", plain, seed=7)
    assert not any("counted by row" in line for line in checked_lines(build_comparison(load_results(b),
                                                                                        load_results(h))))


@pytest.mark.parametrize("rounds_a_side, expected", [
    (3, "run both sides with at least 5 rounds (bench --rounds 5)"),
])
def test_the_one_thing_to_do_names_the_rounds_needed(tmp_path, rounds_a_side, expected):
    b = write_results(tmp_path / "b.csv", {case(): rounds(100.0, rounds_a_side, seed=1)}, version=3)
    h = write_results(tmp_path / "h.csv", {case(): rounds(100.0, rounds_a_side, seed=2)}, version=3)
    lines = checked_lines(build_comparison(load_results(b), load_results(h)))
    assert lines[0] == "Checked: 0 of 1 compared case decided (0 slower, 0 faster, 0 unchanged)."
    assert lines[1] == "Not checked: 1 undetectable (too few rounds or samples to reach the p needed)."
    assert lines[2].startswith(f"To do: {expected}")


def test_help_states_the_interval_level_that_is_computed(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "95%" not in help_text
    assert "CI at confidence 1 - alpha (99% at the default --alpha)" in help_text
