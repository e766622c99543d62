"""The comparison and the gate on fixture CSVs with known distributions."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from analyze_lib.cli import main
from analyze_lib.judge.compare import FASTER, SLOWER, UNCHANGED, UNRESOLVED, compare
from analyze_lib.files.loader import load_results
from analyze_lib.files.model import CaseKey
from analyze_lib.judge.stats import smallest_p
from analyze_lib.present.outcome_text import outcome_text
from csvgen import case, write_results

BASE_SEED = 1
HEAD_SEED = 2
MEDIAN_NS = 100.0

# Head medians relative to base, with the verdict each must get and the verdict's
# words (a regex: the sampled ratio is near, not exactly, the factor). A 3% change is not called at the 5%
# threshold, but its interval reaches 1.05: not resolved, not "no change".
SCENARIOS = {
    "same": (1.0, UNCHANGED, r"no change"),
    "twice-slower": (2.0, SLOWER, r"(1\.9\d|2\.\d\d)× slower"),
    "twice-faster": (0.5, FASTER, r"(1\.9\d|2\.\d\d)× faster"),
    "three-percent": (1.03, UNRESOLVED, r"not resolved: 1\.0\d× \(head/base\), not significant"),
}


def _pair(tmp_path, scenarios=SCENARIOS):
    base = {case(variant=name): MEDIAN_NS for name in scenarios}
    head = {case(variant=name): MEDIAN_NS * factor for name, (factor, _, _) in scenarios.items()}
    base_path = write_results(tmp_path / "base.csv", base, seed=BASE_SEED)
    head_path = write_results(tmp_path / "head.csv", head, seed=HEAD_SEED)
    return base_path, head_path


def test_verdicts_on_known_distributions(tmp_path):
    base_path, head_path = _pair(tmp_path)
    rows = compare(load_results(base_path).cases, load_results(head_path).cases)
    assert {row.key.variant: row.verdict for row in rows} == {
        name: verdict for name, (_, verdict, _) in SCENARIOS.items()}
    for row in rows:
        assert re.fullmatch(SCENARIOS[row.key.variant][2], outcome_text(row)), outcome_text(row)


def test_twice_slower_ratio_and_ci(tmp_path):
    base_path, head_path = _pair(tmp_path)
    rows = compare(load_results(base_path).cases, load_results(head_path).cases)
    row = next(r for r in rows if r.key.variant == "twice-slower")
    assert row.ci_low < row.ratio < row.ci_high
    assert 1.8 < row.ratio < 2.2
    assert row.p_value < 1e-4


def test_equal_but_noisy_is_not_resolved_and_equal_and_steady_is_no_change():
    # Noisy samples leave an interval that reaches the threshold: not called, and not "no change" either.
    rng = np.random.default_rng(3)
    key = CaseKey("wait", "fan-out", "group", 2, (("tasks", 16),))
    base = {key: 1000 * np.exp(rng.normal(0, 0.3, 15))}
    head = {key: 1000 * np.exp(rng.normal(0, 0.3, 15))}
    [row] = compare(base, head)
    assert row.verdict == UNRESOLVED and row.ci_low < 1 < row.ci_high
    assert row.ci_high >= 1.05 or row.ci_low <= 1 / 1.05
    # The control: the same shape, steady enough that the interval lies within 5% either way.
    base = {key: 1000 * np.exp(rng.normal(0, 0.01, 15))}
    head = {key: 1000 * np.exp(rng.normal(0, 0.01, 15))}
    [row] = compare(base, head)
    assert row.verdict == UNCHANGED and 1 / 1.05 < row.ci_low < 1 < row.ci_high < 1.05


def test_compare_is_deterministic(tmp_path):
    base_path, head_path = _pair(tmp_path)
    first = compare(load_results(base_path).cases, load_results(head_path).cases)
    second = compare(load_results(base_path).cases, load_results(head_path).cases)
    assert first == second


def test_smallest_p_with_five_samples_reaches_alpha():
    assert smallest_p(5, 5) == pytest.approx(2 / 252)
    assert smallest_p(4, 5) > 0.01


def test_too_few_samples_warns(tmp_path, capsys):
    key = case()
    write_results(tmp_path / "b.csv", {key: [10, 11, 12, 13]})
    write_results(tmp_path / "h.csv", {key: [30, 31, 32, 33]})
    assert main(["compare", str(tmp_path / "b.csv"), str(tmp_path / "h.csv"), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["cases"][0]["verdict"] == "unchanged"
    assert document["cases"][0]["verdict_text"] == "undetectable (too few samples)"
    assert document["cases"][0]["alpha_reachable"] is False
    assert document["counts"] == {"slower": 0, "faster": 0, "unchanged": 0, "undetectable": 1}
    assert any("can never be called slower or faster" in w for w in document["warnings"])


@pytest.mark.parametrize("head_factor, code", [(1.0, 0), (0.5, 0), (1.03, 0), (2.0, 1)])
def test_gate_exit_codes(tmp_path, capsys, head_factor, code):
    write_results(tmp_path / "b.csv", {case(): MEDIAN_NS}, seed=BASE_SEED)
    write_results(tmp_path / "h.csv", {case(): MEDIAN_NS * head_factor}, seed=HEAD_SEED)
    assert main(["gate", str(tmp_path / "b.csv"), str(tmp_path / "h.csv")]) == code


def test_gate_lists_slower_first(tmp_path, capsys):
    base_path, head_path = _pair(tmp_path)
    assert main(["gate", str(base_path), str(head_path), "--format", "text"]) == 1
    out = capsys.readouterr().out
    table = out.splitlines()[4:9]
    assert table[1].startswith("once/hit/twice-slower")
    assert "× slower; switches and kernel time per op did not move" in table[1]
    assert table[2].startswith("once/hit/twice-faster")
    assert out.rstrip().endswith("Gate: FAILED, 1 case slower")


def test_filter_narrows_cases(tmp_path, capsys):
    base_path, head_path = _pair(tmp_path)
    assert main(["gate", str(base_path), str(head_path), "--filter", "^once/hit/(same|twice-faster)$",
                 "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert sorted(c["variant"] for c in document["cases"]) == ["same", "twice-faster"]
    assert document["gate"] == {"status": "passed", "passed": True, "exit_code": 0, "slower": 0,
                                "missing": 0, "undetectable": 0, "allow_missing": False}


def test_one_sided_cases_and_machine_warnings(tmp_path, capsys):
    write_results(tmp_path / "b.csv", {case(variant="a"): 10, case(variant="gone"): 10})
    write_results(tmp_path / "h.csv", {case(variant="a"): 10, case(variant="new"): 10},
                  run={"host": "other", "build": "debug"}, version=1)
    assert main(["compare", str(tmp_path / "b.csv"), str(tmp_path / "h.csv"), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [c["variant"] for c in document["base_only"]] == ["gone"]
    assert [c["variant"] for c in document["head_only"]] == ["new"]
    warnings = "\n".join(document["warnings"])
    assert "different host: base 'bench-1', head 'other'" in warnings
    assert "different build" in warnings
    assert "different schema version" in warnings
    assert "head is a 'debug' build" in warnings


def test_geometric_mean_per_suite(tmp_path, capsys):
    base_path, head_path = _pair(tmp_path, {"a": (2.0, SLOWER, ""), "b": (0.5, FASTER, "")})
    assert main(["compare", str(base_path), str(head_path), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["suite_geomean_ratio"]["once"]["cases"] == 2
    assert document["suite_geomean_ratio"]["once"]["ratio"] == pytest.approx(1.0, rel=0.1)
    assert document["counts"] == {"slower": 1, "faster": 1, "unchanged": 0, "undetectable": 0}
