"""The empirical null (tools/research/empirical_null.py): round values pooled from paired files, and unchanged
comparisons drawn from them, judged by the paired rule with and without its minimum of rounds."""

import numpy as np

from analyze_lib.judge import paired as paired_rule
import empirical_null

from csvgen import case, write_paired

CASES = {case(variant=f"v{index}", threads=2): 10.0 + index for index in range(4)}


def test_round_values_are_pooled_over_the_comparisons_and_excluded_cases_left_out(tmp_path):
    files = []
    for number in range(2):
        base, head = tmp_path / f"{number}-a.csv", tmp_path / f"{number}-b.csv"
        write_paired(base, head, CASES, rounds=6, seed=number)
        files.append((base, head))
    pooled = empirical_null.pooled_round_values(files)
    assert len(pooled) == 4 and all(values.size == 12 for values in pooled.values())
    assert len(empirical_null.pooled_round_values(files, exclude="/v0 ")) == 3


def on_two_levels(quiet_cases=20):
    """A case whose rounds sit on two levels, +-2.4 (a 2-thread handoff's placement states), among quiet ones."""
    rng = np.random.default_rng(2)
    values = {f"quiet {index}": rng.normal(0, 0.01, 40) for index in range(quiet_cases)}
    values["handoff"] = np.tile([2.4, -2.4], 20) + rng.normal(0, 0.01, 40)
    return values


def test_t_alone_calls_five_rounds_on_one_level_and_the_rule_does_not():
    values = on_two_levels()
    rng_t, rng_rule = np.random.default_rng(3), np.random.default_rng(3)
    # Five rounds share a sign in 1 of 16 comparisons: in 150, some do (all but surely: 1 - (15/16)^150).
    by_t = [empirical_null.false_calls(values, 5, rng_t, seed=n, t_alone=True) for n in range(150)]
    by_rule = [empirical_null.false_calls(values, 5, rng_rule, seed=n) for n in range(150)]
    assert any(calls == ["handoff"] for calls in by_t), "five rounds on one level: t calls them"
    assert not any(by_rule), f"the rule calls nothing from fewer than {paired_rule.MIN_CALL_ROUNDS} rounds"


def test_the_command_prints_a_count_per_round_count(tmp_path, capsys):
    base, head = tmp_path / "a.csv", tmp_path / "b.csv"
    write_paired(base, head, CASES, rounds=12)
    assert empirical_null.main([str(base), str(head), "--rounds", "3,10", "--comparisons", "5"]) == 0
    out = capsys.readouterr().out
    assert "4 cases from 1 comparison(s); at least 12 pooled rounds a case" in out and "alpha 0.01" in out
    assert "3 rounds: a false call in 0 of 5 comparisons" in out and "10 rounds: a false call in" in out
