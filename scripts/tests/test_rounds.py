"""Rounds (bench --rounds N): cases judged on between-round evidence.

A round is one fresh process; these files have several rounds a side, written by
csvgen.rounds with seeded per-round level shifts. No timing is asserted: the inputs are
synthetic and seeded, so every verdict below is a fixed property of the inputs."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analyze_lib.cli import main
from analyze_lib.judge.compare import SLOWER, UNCHANGED, build_comparison, compare_samples
from analyze_lib.exit_codes import EXIT_INCONCLUSIVE, EXIT_PASSED, EXIT_REGRESSION
from analyze_lib.judge.gate import MODEST_NOISE_FLOOR, decide_gate, threshold_would_help
from analyze_lib.present.gate_text import STEADY_HINT
from analyze_lib.files.loader import load_results
from analyze_lib.files.model import Case, CaseKey
from analyze_lib.judge.stats import (find_modes, hierarchical_ratio, noise_floor, rounds_to_reach, smallest_p,
                                split_by_round)
from analyze_lib.present.limits_text import limit_notes
from analyze_lib.present.outcome_text import outcome_text
from csvgen import case, rounds, write_results

ROUNDS = 6
SHIFT_CV = 0.04  # round-to-round level shifts of a noisy runner
# These cases are drawn for a 10% minimum effect (the 4% shifts stay well under its noise floor).
THRESHOLD = 10.0
V3 = {"version": 3}


def _files(tmp_path, base, head, run=None):
    settings = {"run_rounds": str(ROUNDS), "run_seed": "42", **(run or {})}
    b = write_results(tmp_path / "base.csv", base, run=settings, seed=1, **V3)
    h = write_results(tmp_path / "head.csv", head, run=settings, seed=2, **V3)
    return b, h


def _pooled(groups):
    return np.concatenate(groups)


def test_loader_keeps_each_samples_round(tmp_path):
    path = write_results(tmp_path / "r.csv", {case(): rounds(100.0, 3, samples=4)}, version=3)
    [loaded] = load_results(path).cases.values()
    assert loaded.round_ids.tolist() == [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    assert loaded.round_count == 3


def test_split_by_round_and_hierarchical_ratio_on_known_input():
    groups = split_by_round(np.array([1.0, 2.0, 3.0, 10.0, 20.0]), np.array([2, 1, 2, 1, 1]))
    assert [g.tolist() for g in groups] == [[2.0, 10.0, 20.0], [1.0, 3.0]]
    same = [np.full(5, 10.0), np.full(5, 12.0), np.full(5, 11.0)]
    estimate = hierarchical_ratio([g * 2 for g in same], same)
    assert (estimate.ratio, estimate.low, estimate.high) == (2.0, 2.0 * 10 / 12, 2.0 * 12 / 10)


def test_planted_25_percent_slowdown_across_rounds_is_flagged(tmp_path, capsys):
    base = {case(variant="lock"): rounds(100.0, ROUNDS, SHIFT_CV, seed=3)}
    head = {case(variant="lock"): rounds(125.0, ROUNDS, SHIFT_CV, seed=4)}
    b, h = _files(tmp_path, base, head)
    comparison = build_comparison(load_results(b), load_results(h), threshold=THRESHOLD)
    [row] = comparison.rows
    assert row.by_rounds and (row.base_rounds, row.head_rounds) == (ROUNDS, ROUNDS)
    assert row.verdict == SLOWER and row.ci_low > 1
    assert decide_gate(comparison).exit_code == EXIT_REGRESSION
    assert main(["gate", str(b), str(h), "--threshold", "10", "--format", "text"]) == EXIT_REGRESSION
    out = capsys.readouterr().out
    assert "99% CI" in out and "hierarchical bootstrap over rounds" in out
    assert "note: samples from one process" not in out


def test_same_distribution_with_round_level_shifts_is_not_flagged(tmp_path, capsys):
    # Same commit twice on a noisy runner: each process sits at its own level. Pooled as
    # if independent, the samples differ "significantly"; by rounds they do not.
    base_rounds = rounds(100.0, ROUNDS, SHIFT_CV, seed=7)
    head_rounds = rounds(100.0, ROUNDS, SHIFT_CV, seed=8)
    key = CaseKey("once", "hit", "lock", 1)
    pooled = compare_samples(key, _pooled(base_rounds), _pooled(head_rounds))
    assert pooled.p_value < 0.01  # what the one-process rule would see
    b, h = _files(tmp_path, {case(variant="lock"): base_rounds}, {case(variant="lock"): head_rounds})
    comparison = build_comparison(load_results(b), load_results(h), threshold=THRESHOLD)
    [row] = comparison.rows
    assert row.by_rounds and row.verdict == UNCHANGED and row.alpha_reachable and not row.unstable
    assert row.ci_low < 1 < row.ci_high
    assert main(["gate", str(b), str(h), "--threshold", "10", "--format", "json"]) == EXIT_PASSED
    document = json.loads(capsys.readouterr().out)
    assert document["cases"][0]["by_rounds"] is True
    assert document["cases"][0]["base_rounds"] == ROUNDS
    assert document["notes"] == []


def test_too_few_rounds_are_undetectable(tmp_path, capsys):
    base = {case(): rounds(100.0, 2, seed=3)}
    head = {case(): rounds(200.0, 2, seed=4)}
    b, h = _files(tmp_path, base, head)
    [row] = build_comparison(load_results(b), load_results(h), threshold=THRESHOLD).rows
    assert row.by_rounds and not row.alpha_reachable and row.verdict == UNCHANGED
    assert outcome_text(row) == "undetectable (too few rounds)"
    main(["compare", str(b), str(h), "--threshold", "10"])
    assert ("warning: 1 case(s) have 2 base and 2 head rounds: the U test on round medians can reach "
            "p = 0.333 at best, not alpha 0.01") in capsys.readouterr().out


def test_one_round_a_side_says_one_process_cannot_show_process_variance(tmp_path, capsys):
    b = write_results(tmp_path / "base.csv", {case(): 100.0}, seed=1)
    h = write_results(tmp_path / "head.csv", {case(): 100.0}, seed=2)
    assert main(["compare", str(b), str(h), "--threshold", "10"]) == 0
    out = capsys.readouterr().out
    assert ("note: samples from one process cannot show between-process variance: 1 case compared on "
            "one round a side") in out
    # Every interval is at 1 - alpha, with rounds or without, and the output says so.
    assert "99% CI" in out and "95% CI" not in out
    assert "99% bootstrap CI (1 - alpha, 2000 resamples)" in out


def test_plain_arrays_compare_as_before():
    key = CaseKey("once", "hit", "lock", 1)
    row = compare_samples(key, np.arange(10.0, 25.0), np.arange(20.0, 35.0))
    assert not row.by_rounds and (row.base_rounds, row.head_rounds) == (1, 1)
    as_case = compare_samples(key, Case(key, {"ns_per_op": np.arange(10.0, 25.0)}),
                              Case(key, {"ns_per_op": np.arange(20.0, 35.0)}))
    assert as_case == row


def test_noise_floor_on_known_rounds():
    assert np.isnan(noise_floor([np.array([1.0, 2.0])]))
    assert noise_floor([np.full(3, 1.7), np.full(3, 2.7)]) == 2.7 / 1.7
    # Four rounds: every split into halves of two; 95th percentile of the factors.
    four = [np.full(3, v) for v in (1.0, 1.0, 1.0, 1.0)]
    assert noise_floor(four) == 1.0


def test_case_whose_rounds_sit_at_two_levels_is_unstable_and_named(tmp_path, capsys):
    # A case whose processes each settle at their own level, 0.9 to 1.4 times the
    # typical one: its own rounds' halves differ by more than the 10% the gate resolves,
    # so it is labelled, not gated or dropped. (Two distinct levels, such as 1.7 or 2.7 ns
    # a process, would be bimodal in the pooled samples: see below.)
    levels = [0.9, 1.0, 1.1, 1.2, 1.3, 1.4]
    base = {case(variant="lock"): rounds(1.7, ROUNDS, levels=levels, cv=0.03, seed=3),
            case(variant="once"): rounds(100.0, ROUNDS, SHIFT_CV, seed=3)}
    head = {case(variant="lock"): rounds(1.7, ROUNDS, levels=levels[::-1], cv=0.03, seed=4),
            case(variant="once"): rounds(100.0, ROUNDS, SHIFT_CV, seed=4)}
    b, h = _files(tmp_path, base, head)
    comparison = build_comparison(load_results(b), load_results(h), threshold=THRESHOLD)
    [unstable] = comparison.unstable
    assert unstable.key.variant == "lock" and unstable.noise_floor > 1.1
    assert unstable.outcome == "unstable" and unstable.verdict == UNCHANGED
    assert comparison.counts["unstable"] == 1
    decision = decide_gate(comparison)
    assert decision.passed and decision.not_gated == 1
    assert main(["gate", str(b), str(h), "--threshold", "10", "--format", "text"]) == EXIT_PASSED
    out = capsys.readouterr().out
    assert "Unstable, not gated (1, marked in the table): once 1" in out
    lock = next(line for line in out.splitlines() if line.startswith("once/hit/lock"))
    assert lock.endswith(f"unstable (not gated): noise floor {unstable.noise_floor:.2f}×")
    assert out.splitlines()[-1] == (
        "Gate: passed, no case slower among 1 decidable case; 1 of 2 cases unstable, not gated: their "
        "rounds' noise floor is at least the 1.10× change the gate resolves")
    assert main(["gate", str(b), str(h), "--threshold", "10", "--format", "json", "--filter", "lock"]) == 4
    document = json.loads(capsys.readouterr().out)
    assert document["gate"]["unstable"] == 1 and document["gate"]["status"] == "inconclusive"
    assert document["cases"][0]["unstable"] is True



@pytest.mark.parametrize("levels, raise_threshold", [
    ([0.9, 1.0, 1.1, 1.2, 1.3, 1.4], True),       # a noise floor of about 1.4x: a coarser gate is still a gate
    ([0.5, 1.0, 2.0, 4.0, 8.0, 16.0], False),     # a floor far above 2x: a threshold above it gates nothing
], ids=["modest-floor", "absurd-floor"])
def test_an_unstable_gate_advises_raising_the_threshold_only_when_the_floor_is_modest(
        tmp_path, capsys, levels, raise_threshold):
    base = {case(variant="lock"): rounds(1.7, ROUNDS, levels=levels, cv=0.03, seed=3)}
    head = {case(variant="lock"): rounds(1.7, ROUNDS, levels=levels[::-1], cv=0.03, seed=4)}
    b, h = _files(tmp_path, base, head)
    [unstable] = build_comparison(load_results(b), load_results(h), threshold=THRESHOLD).unstable
    assert (unstable.noise_floor <= MODEST_NOISE_FLOOR) == raise_threshold
    assert main(["gate", str(b), str(h), "--threshold", "10", "--format", "text"]) == EXIT_INCONCLUSIVE
    text = " ".join(capsys.readouterr().out.split())
    headline = text[text.rindex("Gate: INCONCLUSIVE"):]
    if raise_threshold:
        assert headline.endswith("(run more rounds or raise --threshold)")
        assert "if they stay unstable, raise --threshold above their noise floor" in text
    else:
        assert headline.endswith(f"({STEADY_HINT})")
        assert f"if they stay unstable, {STEADY_HINT}" in text
        assert "raise --threshold" not in text


def test_threshold_would_help_only_below_the_modest_floor():
    assert threshold_would_help([1.3, MODEST_NOISE_FLOOR])
    assert not threshold_would_help([1.3, 12.2])
    assert not threshold_would_help([float("nan")]) and not threshold_would_help([])


FAN_OUT_LOW, FAN_OUT_HIGH = 500.0, 1600.0


def _two_levels(high_count, total=15, seed=11):
    rng = np.random.default_rng(seed)
    levels = np.where(np.arange(total) < high_count, FAN_OUT_HIGH, FAN_OUT_LOW)
    return levels * np.exp(rng.normal(0, 0.02, total))


def test_find_modes_rule():
    modes = find_modes(_two_levels(6))
    assert modes is not None and (modes.low_share, modes.high_share) == (9 / 15, 6 / 15)
    assert 480 < modes.low_median < 520 and 1540 < modes.high_median < 1660
    assert find_modes(_two_levels(2)) is None  # 2 of 15 is under 20%: outliers, not a level
    assert find_modes(rounds(100.0, 1, cv=0.05, samples=30)[0]) is None  # one level
    assert find_modes(np.array([10.0] * 5 + [30.0] * 4)) is None  # too few samples


def test_bimodal_case_is_labelled_with_its_levels_not_averaged(tmp_path, capsys):
    base = {case("wait", "fan-out", "group", 4): _two_levels(6, seed=1),
            case(variant="lock"): 100.0}
    head = {case("wait", "fan-out", "group", 4): _two_levels(9, seed=2),
            case(variant="lock"): 100.0}
    b = write_results(tmp_path / "base.csv", base, seed=1)
    h = write_results(tmp_path / "head.csv", head, seed=2)
    comparison = build_comparison(load_results(b), load_results(h), threshold=THRESHOLD)
    [bimodal] = comparison.bimodal
    assert bimodal.outcome == "bimodal" and bimodal.verdict == UNCHANGED
    assert outcome_text(bimodal).startswith("bimodal (not gated): base ")
    assert "levels head/base" in outcome_text(bimodal)
    assert comparison.counts["bimodal"] == 1
    assert main(["compare", str(b), str(h), "--threshold", "10"]) == 0
    assert "Bimodal, not gated (1, marked in the table): wait 1" in capsys.readouterr().out.splitlines()
    assert main(["gate", str(b), str(h), "--threshold", "10", "--format", "json"]) == EXIT_PASSED
    document = json.loads(capsys.readouterr().out)
    assert document["gate"]["bimodal"] == 1
    [row] = [c for c in document["cases"] if c["suite"] == "wait"]
    assert [level["share"] for level in row["base_modes"]] == [9 / 15, 6 / 15]
    assert [level["share"] for level in row["head_modes"]] == [6 / 15, 9 / 15]


def test_benjamini_hochberg_rejects_the_step_up_set():
    from analyze_lib.judge.stats import benjamini_hochberg
    # m = 4 at 0.05: thresholds 0.0125, 0.025, 0.0375, 0.05. Step-up: the second smallest (0.02) is under
    # its 0.025, so the two smallest are rejected, 0.014 included though above its own 0.0125.
    assert benjamini_hochberg([0.9, 0.014, 0.02, 0.9], 0.05) == [False, True, True, False]
    assert benjamini_hochberg([0.06, 0.001, 0.03, 0.02], 0.05) == [False, True, True, True]
    assert benjamini_hochberg([0.2, 0.3], 0.05) == [False, False]
    assert benjamini_hochberg([], 0.05) == []


def test_holm_rejects_the_step_down_set():
    from analyze_lib.judge.stats import benjamini_hochberg, holm
    # m = 4 at 0.05: thresholds 0.0125, 0.0167, 0.025, 0.05, stopping at the first p above its own.
    assert holm([0.9, 0.014, 0.02, 0.9], 0.05) == [False, False, False, False]  # BH rejects two (above)
    assert holm([0.06, 0.001, 0.03, 0.02], 0.05) == [False, True, False, False]  # 0.02 > 0.0167: stop
    assert holm([0.04, 0.001, 0.02, 0.01], 0.05) == [True, True, True, True]
    assert holm([0.0125, 0.9], 0.05) == [True, False] and holm([], 0.05) == []
    # Its first step is Bonferroni's, as BH's is: a lone change is called by both or by neither.
    for lone in (0.05 / 4, 0.05 / 4 * 1.01):
        p_values = [lone, 0.5, 0.6, 0.7]
        assert holm(p_values, 0.05) == benjamini_hochberg(p_values, 0.05)


def test_many_same_commit_cases_are_not_flagged_one_by_one(tmp_path):
    # 200 unchanged cases, 10 rounds a side: each alone would reach p < 0.01 now and then (about 2 of 200);
    # decided together at a 1% false discovery rate, none may be called.
    base = {case(variant=f"v{i}"): rounds(100.0, 10, SHIFT_CV, seed=100 + i) for i in range(200)}
    head = {case(variant=f"v{i}"): rounds(100.0, 10, SHIFT_CV, seed=500 + i) for i in range(200)}
    b, h = _files(tmp_path, base, head, run={"run_rounds": "10"})
    comparison = build_comparison(load_results(b), load_results(h), threshold=0.0)
    assert all(row.alpha_reachable for row in comparison.rows)
    alone = sum(row.p_value <= 0.01 for row in comparison.rows)
    assert alone > 0
    called = [row for row in comparison.rows if row.verdict != UNCHANGED]
    assert called == [], f"{len(called)} called ({alone} reach p <= 0.01 alone)"


def test_rounds_to_reach_a_level():
    assert rounds_to_reach(0.01) == 5          # 2/C(10, 5) = 0.0079
    assert rounds_to_reach(0.01 / 200) == 9    # 2/C(18, 9) = 4.1e-5 <= 5e-5 < 2/C(16, 8)
    assert rounds_to_reach(0.01 / 508) == 10   # 2/C(20, 10) = 1.1e-5 <= 2.0e-5


def _one_slower_among(cases, count, tmp_path):
    # One sample a round, as bench takes: the round medians are what the gate judges.
    base = {case(variant=f"v{i}"): rounds(100.0, count, SHIFT_CV, samples=1, seed=100 + i) for i in range(cases)}
    head = {case(variant=f"v{i}"): rounds(150.0 if i == 0 else 100.0, count, SHIFT_CV, samples=1, seed=500 + i)
            for i in range(cases)}
    b, h = _files(tmp_path, base, head, run={"run_rounds": str(count)})
    return build_comparison(load_results(b), load_results(h), threshold=THRESHOLD)


def test_a_lone_change_among_many_cases_needs_enough_rounds_and_the_gate_says_so(tmp_path):
    # One case 1.5x slower among 200, every head round above every base round. With 8 rounds a side the
    # U test reaches 1.6e-4 at best, above the 0.01/200 a lone change needs: the gate must not pass it
    # as checked, but call every case undetectable and say how many rounds would do.
    short = _one_slower_among(200, 8, tmp_path)
    [changed] = [row for row in short.rows if row.key.variant == "v0"]
    assert changed.p_value == smallest_p(8, 8)
    assert all(not row.alpha_reachable and row.verdict == UNCHANGED for row in short.rows)
    lone = short.limits.lone_change
    assert (lone.count, lone.cases, lone.base_rounds, lone.rounds_needed) == (200, 200, 8, 9)
    assert any("200 of 200 cases undetectable (too few rounds)" in note and "at least 9 rounds" in note
               for note in limit_notes(short.limits)), limit_notes(short.limits)
    assert decide_gate(short).exit_code == EXIT_INCONCLUSIVE
    enough = _one_slower_among(200, 9, tmp_path)
    assert [row.key.variant for row in enough.rows if row.verdict == SLOWER] == ["v0"]
    assert decide_gate(enough).exit_code == EXIT_REGRESSION
    assert enough.limits.lone_change is None
    assert not any("too few rounds" in note for note in limit_notes(enough.limits))


def test_a_change_in_several_cases_survives_the_false_discovery_control(tmp_path):
    # One sample a round, as bench takes.
    base = {case(variant=f"v{i}"): rounds(100.0, 10, SHIFT_CV, samples=1, seed=100 + i) for i in range(200)}
    head = {case(variant=f"v{i}"): rounds(125.0 if i < 4 else 100.0, 10, SHIFT_CV, samples=1, seed=500 + i)
            for i in range(200)}
    b, h = _files(tmp_path, base, head, run={"run_rounds": "10"})
    comparison = build_comparison(load_results(b), load_results(h), threshold=THRESHOLD)
    assert sorted(row.key.variant for row in comparison.rows if row.verdict == SLOWER) == ["v0", "v1", "v2", "v3"]
