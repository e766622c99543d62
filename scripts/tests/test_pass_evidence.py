"""The gate passes only what it saw (docs/comparison-rule.md#when-the-gate-may-pass), on planted copies: head is
base with some cases' samples scaled, the most favourable case a gate of separate runs can meet. Each rule has its
control: the same files without the planted change, which must pass."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from analyze_lib.cli import main
from analyze_lib.exit_codes import EXIT_INCONCLUSIVE, EXIT_PASSED, EXIT_REGRESSION
from analyze_lib.judge.pass_evidence import suites_slower
from analyze_lib.present import gate_text
from csvgen import case, rounds, write_results

ROUNDS = 10
RUN = {"run_rounds": str(ROUNDS)}


def _steady(median: float, seed: int) -> list[np.ndarray]:
    """Rounds the gate can decide: 1% between rounds and within them."""
    return rounds(median, ROUNDS, shift_cv=0.01, cv=0.01, seed=seed)


def _gate(tmp_path, base: dict, head: dict) -> tuple[int, str]:
    b = write_results(tmp_path / "base.csv", base, version=5, run=RUN)
    h = write_results(tmp_path / "head.csv", head, version=5, run=RUN)
    status = main(["gate", str(b), str(h), "--format", "text"])
    return status, b


def _scaled(cases: dict, factor: float, which) -> dict:
    return {key: [r * factor for r in value] if which(key) else value for key, value in cases.items()}


def _headline(capsys) -> str:
    return next(line for line in capsys.readouterr().out.splitlines() if line.startswith("Gate: "))


def _family_run() -> dict:
    """Eight decidable isolation cases and four unstable once/hit cases (not gated)."""
    cases = {case("isolation", "mixed", f"v{i}"): _steady(50.0 + i, seed=i) for i in range(8)}
    cases |= {case("once", "hit", f"w{i}"): _unstable(10.0, seed=20 + i) for i in range(4)}
    return cases


def _unstable(median: float, seed: int) -> list[np.ndarray]:
    """Rounds whose levels spread evenly over 1 to 1.54 times ``median``: no gap between two levels (not
    bimodal), but halves of the rounds that differ by more than the threshold (unstable, not gated)."""
    return rounds(median, ROUNDS, cv=0.01, seed=seed, levels=[1 + 0.06 * ((r * 3) % ROUNDS) for r in range(ROUNDS)])


def _is_once(key) -> bool:
    return key[0] == "once"


def test_a_family_slowed_that_the_gate_could_not_judge_is_not_passed(tmp_path, capsys):
    base = _family_run()
    assert _gate(tmp_path, base, _scaled(base, 1.10, _is_once))[0] == EXIT_INCONCLUSIVE
    assert _headline(capsys).startswith("Gate: INCONCLUSIVE, no decided case slower, but 4 cases it could not "
                                        "judge moved 1.05× or more (up to 1.10×")
    # Control: the same files, nothing planted, pass.
    assert _gate(tmp_path, base, base)[0] == EXIT_PASSED
    assert "no case slower" in _headline(capsys)


def test_a_case_slowed_that_the_gate_could_not_judge_is_not_passed(tmp_path, capsys):
    base = {key: value for key, value in _family_run().items() if key[2] != "w0" and _is_once(key) is False}
    base[case("once", "hit", "w0")] = _unstable(10.0, seed=20)
    assert _gate(tmp_path, base, _scaled(base, 1.10, _is_once))[0] == EXIT_INCONCLUSIVE
    headline = _headline(capsys)
    assert headline.startswith("Gate: INCONCLUSIVE, no decided case slower, but 1 case it could not judge moved "
                               "1.05× or more (up to 1.10×, once/hit/w0 threads:1)")
    assert headline.endswith("to decide it: compare the two builds paired (scripts/bench-commits), gate the counts, "
                             "or --filter to the cases that matter")
    assert _gate(tmp_path, base, base)[0] == EXIT_PASSED


def test_most_cases_not_judged_is_not_a_pass(tmp_path, capsys):
    base = {case("once", "hit", f"w{i}"): _unstable(10.0, seed=20 + i) for i in range(3)}
    base[case("isolation", "mixed", "v")] = _steady(50.0, seed=1)
    assert _gate(tmp_path, base, base)[0] == EXIT_INCONCLUSIVE
    assert _headline(capsys).startswith("Gate: INCONCLUSIVE, 3 of 4 cases could not be judged")


def _two_levels(low: float, seed: int, high_share: float = 0.5) -> list[np.ndarray]:
    """Rounds whose samples fall at two levels, ``low`` and 1.6 times it, ``high_share`` of them high."""
    rng = np.random.default_rng(seed)
    high = int(round(30 * high_share))
    return [np.where(np.arange(30) < high, 1.6 * low, low) * np.exp(rng.normal(0, 0.005, 30)) for _ in range(ROUNDS)]


def test_a_bimodal_case_whose_levels_both_moved_is_called(tmp_path, capsys):
    base = {case("harness", "lazy-static", "static"): _two_levels(5.0, seed=1)}
    base |= {case("harness", benchmark, "loop"): _steady(median, seed=2)
             for benchmark, median in (("empty", 0.4), ("opaque-call", 1.2), ("mutex-pair", 18.0))}
    slowed = _scaled(base, 1.5, lambda key: key[1] == "lazy-static")
    assert _gate(tmp_path, base, slowed)[0] == EXIT_REGRESSION
    assert _headline(capsys) == "Gate: FAILED, 1 case slower"
    # Control: the samples shift between the same two levels, a level's share from half to a fifth: not a change.
    shifted = {**base, case("harness", "lazy-static", "static"): _two_levels(5.0, seed=3, high_share=0.2)}
    assert _gate(tmp_path, base, shifted)[0] == EXIT_PASSED


def test_in_separate_runs_a_moved_canary_makes_the_verdict_inconclusive(tmp_path, capsys):
    base = {case("harness", "empty", "loop"): _steady(0.4, seed=1)}
    base |= {case("once", "hit", f"v{i}"): _steady(5.0 + i, seed=10 + i) for i in range(3)}
    everything_slower = _scaled(base, 2.0, lambda key: True)
    assert _gate(tmp_path, base, everything_slower)[0] == EXIT_INCONCLUSIVE
    headline = _headline(capsys)
    assert headline.startswith("Gate: INCONCLUSIVE, the machine moved between the runs: harness/empty/loop "
                               "threads:1 (an empty loop no pattern's change touches) went 2.00×; it would have "
                               "called 4 cases slower")
    # Control: the same slowdown with the canary still: the code moved, and it is called.
    code_slower = _scaled(base, 2.0, lambda key: key[0] == "once")
    assert _gate(tmp_path, base, code_slower)[0] == EXIT_REGRESSION
    assert _headline(capsys) == "Gate: FAILED, 3 cases slower"


def _comparison(geomean: float, low: float, high: float, cases: int = 6, threshold: float = 5.0):
    return SimpleNamespace(suite_geomeans={"once": (geomean, cases)}, suite_intervals={"once": (low, high)},
                           threshold=threshold, rows=[])


def test_a_whole_suite_that_moved_beyond_the_threshold_is_a_regression():
    [shift] = suites_slower(_comparison(1.08, 1.03, 1.13))
    assert shift.describe() == "once 1.08× [1.03, 1.13] over 6 cases"
    assert suites_slower(_comparison(1.08, 0.99, 1.17)) == ()  # its interval reaches 1
    assert suites_slower(_comparison(1.03, 1.01, 1.05)) == ()  # below the threshold
    assert suites_slower(_comparison(1.08, 1.03, 1.13, cases=1)) == ()  # one case is its own verdict
    assert suites_slower(_comparison(0.90, 0.85, 0.95)) == ()  # faster


def test_a_suite_is_left_to_the_control_when_the_code_is_the_same(tmp_path):
    # Six cases 1.08x slower in 3 rounds a side: none can be called (3 rounds reach p 0.1 at best), and their
    # suite's geometric mean, with its interval above 1, fails the gate. Over two builds of identical code the
    # suites are the control's to judge (judge/control.py), which gives the gate's suite rule no say: a quick
    # control of 2 cases failed so by chance in .ci/run (docs/findings/2026-11-28-a-controls-suites.md).
    from analyze_lib.files.loader import load_results
    from analyze_lib.judge.compare import build_comparison
    from analyze_lib.judge.gate import INCONCLUSIVE, REGRESSION, decide_gate
    run = {"run_rounds": "3"}
    base = {case("once", "hit", f"v{i}"): rounds(100.0, 3, shift_cv=0.01, cv=0.01, seed=i) for i in range(6)}
    head = {case("once", "hit", f"v{i}"): rounds(108.0, 3, shift_cv=0.01, cv=0.01, seed=50 + i) for i in range(6)}
    comparison = build_comparison(*(load_results(write_results(tmp_path / f"{side}.csv", cases, version=5, run=run))
                                    for side, cases in (("base", base), ("head", head))))
    assert comparison.slower == [] and comparison.suite_intervals["once"][0] > 1, "the setup"
    judged = decide_gate(comparison)
    assert judged.status == REGRESSION and [s.suite for s in judged.evidence.suites_slower] == ["once"]
    left = decide_gate(comparison, suites_judged=False)
    assert left.status == INCONCLUSIVE and left.evidence.suites_slower == ()


def test_a_paired_comparison_is_not_told_to_compare_paired():
    # bench-commits' own files are paired: what decides more is more of it, not "compare the two builds paired".
    paired = gate_text._decide_hint(SimpleNamespace(paired_resolutions=(1.05, 1.2)))
    assert "bench-commits --budget" in paired and "compare the two builds paired" not in paired
    # Control: separate runs are told to compare paired.
    assert "compare the two builds paired" in gate_text._decide_hint(SimpleNamespace(paired_resolutions=()))
