"""Paired files through compare and gate: the host's speed states, shared by a pair's two samples,
cancel; a planted change is called in its case and nowhere else; every case says the smallest
change it could see."""

import math
from types import SimpleNamespace

import numpy as np
import pytest

from analyze_lib.files.loader import load_results
from analyze_lib.judge.compare import FASTER, SLOWER, UNCHANGED, UNDETECTABLE, UNRESOLVED, build_comparison, \
    coarsest_judged
from analyze_lib.present.gate_text import headline
from analyze_lib.judge.gate import decide_gate
from analyze_lib.present.outcome_text import outcome_text

from csvgen import case, write_paired

CASES = {case(variant=f"v{index}", threads=threads): 10.0 + index
         for index in range(12) for threads in (1, 2)}


def compared(tmp_path, changes=None, **options):
    base, head = tmp_path / "base.csv", tmp_path / "head.csv"
    write_paired(base, head, CASES, changes, **options)
    return build_comparison(load_results(base), load_results(head))


def test_same_build_pairs_flag_nothing_though_the_host_flips_2x(tmp_path):
    comparison = compared(tmp_path)
    assert all(row.paired for row in comparison.rows)
    # Nothing called; at the 2% threshold their intervals reach it, so they read "not resolved", not "no change".
    assert not any(row.changed for row in comparison.rows)
    assert {row.outcome for row in comparison.rows} <= {UNCHANGED, UNRESOLVED}
    assert max(row.resolution for row in comparison.rows) < 1.10
    assert decide_gate(comparison).passed


def test_the_unpaired_rule_cannot_see_through_the_same_host_states(tmp_path):
    """The negative control: the same samples without their pairing are judged by rounds, and the
    host's two levels leave the cases bimodal, unstable or undetectable instead of decided."""
    base, head = tmp_path / "base.csv", tmp_path / "head.csv"
    write_paired(base, head, CASES, record_pairs=False)
    comparison = build_comparison(load_results(base), load_results(head))
    assert not any(row.paired for row in comparison.rows)
    assert any(row.outcome != UNCHANGED for row in comparison.rows)


def test_a_planted_ten_percent_slowdown_is_called_in_its_case_alone(tmp_path):
    planted = case(variant="v3", threads=2)
    comparison = compared(tmp_path, {planted: 1.10})
    slower = [row.key for row in comparison.rows if row.outcome == SLOWER]
    assert [(key.variant, key.threads) for key in slower] == [("v3", 2)]
    row = next(row for row in comparison.rows if row.outcome == SLOWER)
    assert 1.07 < row.ratio < 1.13 and row.ci_low > 1.0
    assert not decide_gate(comparison).passed


def test_a_paired_case_short_of_the_minimum_rounds_is_undetectable_not_passed(tmp_path):
    from analyze_lib.judge.compare import UNDETECTABLE
    from analyze_lib.judge.paired import MIN_CALL_ROUNDS
    from analyze_lib.present.limits_text import limit_warnings
    from analyze_lib.present.render import counts_sentence

    planted = case(variant="v3", threads=2)
    short = compared(tmp_path, {planted: 1.5}, rounds=MIN_CALL_ROUNDS - 1)
    assert {row.outcome for row in short.rows} == {UNDETECTABLE}
    assert outcome_text(short.rows[0]) == "undetectable (too few rounds)"
    assert f"have {MIN_CALL_ROUNDS - 1} round(s): a paired case calls a change only from {MIN_CALL_ROUNDS}" in \
        " ".join(limit_warnings(short.limits, short.alpha))
    assert "undetectable (too few rounds)" in counts_sentence(short)
    decision = decide_gate(short)
    assert not decision.passed and "INCONCLUSIVE" in headline(decision) and "too few rounds" in headline(decision)
    from analyze_lib.present.render import checked_lines
    assert f"To do: give the undetectable cases the {MIN_CALL_ROUNDS} rounds" in "\n".join(
        checked_lines(short, decision))
    enough = compared(tmp_path, {planted: 1.5}, rounds=MIN_CALL_ROUNDS)
    assert [(row.key.variant, row.outcome) for row in enough.rows if row.changed] == [("v3", SLOWER)]


def test_a_change_below_the_floor_is_not_called(tmp_path):
    planted = case(variant="v0", threads=1)
    comparison = compared(tmp_path, {planted: 1.01}, cv=0.002)
    row = next(row for row in comparison.rows if (row.key.variant, row.key.threads) == ("v0", 1))
    assert row.p_value < 1e-6, "significant, but below the 2% floor"
    assert {row.outcome for row in comparison.rows} == {UNCHANGED}


def test_a_planted_speedup_is_called_faster(tmp_path):
    comparison = compared(tmp_path, {case(variant="v5", threads=1): 0.8})
    assert [(row.key.variant, row.outcome) for row in comparison.rows if row.changed] == [("v5", FASTER)]


def test_each_case_not_called_says_the_change_it_would_see(tmp_path):
    from dataclasses import replace

    row = compared(tmp_path).rows[0]
    assert row.outcome == UNRESOLVED and row.resolution >= 1.02
    assert outcome_text(row) == f"not resolved: {row.ratio:.2f}× (head/base), not significant; would see " \
                                f"{row.resolution:.2f}×"
    # A case whose interval lies within the threshold reads "no change", with the same resolution.
    assert outcome_text(replace(row, outcome=UNCHANGED)) == f"no change (would see {row.resolution:.2f}×)"


def test_the_headline_and_the_text_say_what_each_case_could_see(tmp_path):
    from analyze_lib.present.render import render_json, render_text
    import json

    comparison = compared(tmp_path)
    gate = decide_gate(comparison)
    assert headline(gate).startswith("Gate: passed, no case slower; it would see a 1.05× change in ")
    assert f"of {len(CASES)} paired cases" in headline(gate)
    text = render_text(comparison, gate=gate)
    assert "Resolution: the comparison would see" in text and "Paired: each case is judged" in text
    rows = json.loads(render_json(comparison, gate=gate))["cases"]
    assert all(row["paired"] and row["pairs"] == 48 and row["resolution"] >= 1.02 for row in rows)


def test_resolutions_are_grouped_by_suite_and_threads_with_a_total(tmp_path):
    from analyze_lib.judge.compare import RESOLUTION_BANDS, resolution_by_group

    rows = compared(tmp_path, {case(variant="v7", threads=2): 1.5}).rows
    groups = resolution_by_group(rows)
    assert [(group.suite, group.threads, group.cases) for group in groups] == \
        [(rows[0].key.suite, 1, 12), (rows[0].key.suite, 2, 12), ("all", 0, 24)]
    two = [row.resolution for row in rows if row.key.threads == 2]
    assert groups[1].median == float(np.median(two))
    assert groups[1].within == tuple(sum(r <= band + 1e-9 for r in two) for band in RESOLUTION_BANDS)
    assert groups[-1].within == tuple(a + b for a, b in zip(groups[0].within, groups[1].within))


def test_the_markdown_and_the_text_show_the_resolution_table_only_when_paired(tmp_path):
    from analyze_lib.present.render import RESOLUTION_TITLE, render_markdown, render_text

    comparison = compared(tmp_path)
    assert RESOLUTION_TITLE in render_markdown(comparison) and RESOLUTION_TITLE in render_text(comparison)
    base, head = tmp_path / "rounds-base.csv", tmp_path / "rounds-head.csv"
    write_paired(base, head, CASES, record_pairs=False)
    unpaired = build_comparison(load_results(base), load_results(head))
    assert RESOLUTION_TITLE not in render_markdown(unpaired) and RESOLUTION_TITLE not in render_text(unpaired)


def test_a_paired_suite_geomean_carries_an_interval_that_sees_a_suite_wide_change(tmp_path):
    same = compared(tmp_path)
    (suite, (low, high)), = same.suite_intervals.items()
    assert low < 1.0 < high and high / low < 1.05
    slower = compared(tmp_path, {key: 1.10 for key in CASES})
    low, high = slower.suite_intervals[suite]
    assert 1.0 < low < 1.10 < high


def test_the_paired_geomean_interval_draws_rounds_once_for_all_cases():
    from analyze_lib.judge.paired import geomean_interval

    rounds = range(1, 9)
    offsets = np.random.default_rng(3).normal(0, 0.1, 8)
    shared = [{r: offsets[r - 1] for r in rounds} for _ in range(20)]
    # The negative control: the same offsets, each case its own order, cancel across cases.
    independent = [{r: offsets[(r + case) % 8] for r in rounds} for case in range(20)]
    shared_low, shared_high = geomean_interval(shared, 0.99)
    low, high = geomean_interval(independent, 0.99)
    assert shared_high / shared_low > 1.10 and high / low < 1.02
    assert math.isnan(geomean_interval([{1: 0.1}], 0.99)[0])


def test_the_paired_geomean_interval_weighs_a_case_by_its_own_rounds():
    from analyze_lib.judge.paired import geomean_interval

    # Case 2 was visited in rounds 1-2 only; its mean stays near its value whichever rounds are drawn.
    low, high = geomean_interval([{r: 0.0 for r in range(1, 11)}, {1: 0.2, 2: 0.2}], 0.99)
    assert low == pytest.approx(math.exp(0.1)) and high == pytest.approx(math.exp(0.1))


def test_a_head_that_starves_where_its_base_did_not_is_called_slower(tmp_path):
    """A starved sample counts as at least its elapsed time: dropping the pairs it starved in judged
    such a head on the pairs left, whose ratio is 1, and passed it."""
    planted = case(variant="v3", threads=2)
    comparison = compared(tmp_path, starving={planted: (0.0, 0.6)})
    called = [row for row in comparison.rows if row.changed]
    assert [(row.key.variant, row.key.threads, row.outcome) for row in called] == [("v3", 2, SLOWER)]
    assert called[0].paired and outcome_text(called[0]) == "slower (starved in head)"


def test_a_case_that_starves_now_and_then_on_both_sides_is_not_called(tmp_path):
    """The negative control: the same build starving at random on either side flags nothing. Its base alone
    starved in some pairs and its head alone in others, so it is starved both ways (test_paired_starved)."""
    from analyze_lib.judge.compare import STARVED_PAIRS

    planted = case(variant="v3", threads=2)
    comparison = compared(tmp_path, starving={planted: (0.3, 0.3)})
    row = next(row for row in comparison.rows if (row.key.variant, row.key.threads) == ("v3", 2))
    assert row.paired and row.base_starved > 0 and row.head_starved > 0
    assert row.outcome == STARVED_PAIRS
    assert not any(row.changed for row in comparison.rows)


def test_a_paired_row_says_starved_or_that_it_could_see_nothing_instead_of_a_huge_factor(tmp_path):
    from dataclasses import replace

    from analyze_lib.judge.paired import MAX_LOG_RESOLUTION

    row = replace(compared(tmp_path).rows[0], outcome=UNCHANGED)
    assert outcome_text(replace(row, base_median=math.inf, head_median=math.inf)) == "no change (starved in both)"
    capped = replace(row, resolution=math.exp(MAX_LOG_RESOLUTION))
    assert outcome_text(capped) == "no change (could see none: too few pairs with a ratio)"
    assert outcome_text(row).startswith("no change (would see ")
    assert outcome_text(replace(capped, outcome=UNRESOLVED)).endswith("not significant"), "no resolution to say"


def test_a_paired_comparison_whose_undetectable_cases_starved_says_to_lengthen_their_samples(tmp_path):
    from dataclasses import replace

    from analyze_lib.judge.compare import UNDETECTABLE
    from analyze_lib.present.render import checked_lines

    comparison = compared(tmp_path)
    row = comparison.rows[0]
    starved = replace(row, outcome=UNDETECTABLE, paired=False, base_median=math.inf, head_median=math.inf)
    comparison.rows[0] = starved
    assert "To do: give the undetectable cases longer samples (bench-commits --sample-time)" in \
        "\n".join(checked_lines(comparison))
    # The negative control: an undetectable case that did not starve gets the advice on rounds.
    comparison.rows[0] = replace(starved, base_median=row.base_median, head_median=row.head_median)
    assert "To do: give the undetectable cases the 10 rounds a paired case calls a change from" in \
        "\n".join(checked_lines(comparison))


def test_a_resolution_group_beyond_a_thousandfold_reads_in_words():
    from analyze_lib.judge.compare import ResolutionGroup
    from analyze_lib.present.render import resolution_table

    _, _, body = resolution_table([ResolutionGroup("wait", 2, 3, math.exp(50), (0, 0)),
                                   ResolutionGroup("all", 0, 3, 1.07, (1, 3))])
    assert body == [["wait", "2", "3", "over 1000×", "0", "0"], ["all", "", "3", "1.07×", "1", "3"]]


def test_nothing_to_do_only_where_the_cases_resolved_what_the_gate_promises(tmp_path):
    from analyze_lib.present.render import checked_lines

    fine = compared(tmp_path)
    assert checked_lines(fine, decide_gate(fine))[-1] == "To do: nothing: every compared case was decided."
    coarse = compared(tmp_path, cv=0.3)  # noisy pairs: each case can see only a coarse change
    assert max(row.resolution for row in coarse.rows) > 1.10 and decide_gate(coarse).passed
    to_do = next(line for line in checked_lines(coarse, decide_gate(coarse)) if line.startswith("To do: "))
    assert to_do.startswith("To do: to see smaller changes, give the comparison more rounds: ")
    assert "could see only a change coarser than 1.10×" in to_do


def test_a_case_starved_on_both_sides_does_not_block_a_pass(tmp_path):
    """A case that completed no operation in most samples of both builds is not judged, and its ratio measures
    nothing: the gate names it starved and passes on the others. The row is the one a quick paired A/A showed on
    the 2-core VM: a writer starved under a reader/writer lock at 4 threads, its pairs' ratio 13.85."""
    from dataclasses import replace

    from analyze_lib.judge.compare import UNDETECTABLE

    comparison = compared(tmp_path)
    starved = replace(comparison.rows[0], base_median=math.inf, head_median=math.inf, ratio=13.85,
                      outcome=UNDETECTABLE, alpha_reachable=False)
    comparison.rows[0] = starved
    assert starved.starved is not None and decide_gate(comparison).passed
    # Control: the same row with medians that measure something blocks the pass.
    comparison.rows[0] = replace(starved, base_median=10.0, head_median=138.5)
    assert decide_gate(comparison).status == "inconclusive"


def test_a_paired_table_says_which_column_is_a_median_and_which_the_paired_ratio(tmp_path):
    from analyze_lib.present.render import PAIRED_COLUMNS_NOTE, render_markdown, render_text

    comparison = compared(tmp_path, {case(variant="v0", threads=1): 1.5})
    markdown, text = render_markdown(comparison), render_text(comparison)
    assert "| Case | Base median ns/op | Head median ns/op | Paired ratio | 99% CI | p | Verdict |" in markdown
    assert PAIRED_COLUMNS_NOTE in markdown
    assert [line.split() for line in text.splitlines() if line.startswith("Case ")][0] == [
        "Case", "Base", "median", "ns/op", "Head", "median", "ns/op", "Paired", "ratio", "99%", "CI", "p", "Verdict"]
    assert " ".join(PAIRED_COLUMNS_NOTE.split()) in " ".join(text.split())
    # A comparison of unpaired rounds keeps the plain names and no note: its ratio is head median / base median.
    base, head = tmp_path / "rounds-base.csv", tmp_path / "rounds-head.csv"
    write_paired(base, head, CASES, record_pairs=False)
    unpaired = build_comparison(load_results(base), load_results(head))
    assert "| Case | Base ns/op | Head ns/op | Ratio | 99% CI | p | Verdict |" in render_markdown(unpaired)
    assert "Paired ratio" not in render_text(unpaired)
    assert "each side's median" not in render_markdown(unpaired)


def test_the_coarsest_bound_is_of_the_judged_cases_and_an_undetectable_one_bounds_nothing():
    row = SimpleNamespace
    judged = [row(paired=True, outcome=UNRESOLVED, resolution=1.12),
              row(paired=True, outcome=UNCHANGED, resolution=1.03)]
    starved = row(paired=True, outcome=UNDETECTABLE, resolution=5e21)
    # Every paired case's resolution, as the verdict line took it before, would say 5e21×.
    assert coarsest_judged(judged + [starved]) == 1.12
    assert math.isnan(coarsest_judged([starved]))
