""""Unchanged" means the interval lies within the threshold: a case not called whose interval reaches the threshold
is "not resolved", in words and in its JSON verdict, and one whose whole interval lies beyond the threshold slower
stands against a pass (docs/comparison-rule.md#unchanged-or-not-resolved)."""

from __future__ import annotations

import json

import numpy as np

from analyze_lib.cli import main
from analyze_lib.exit_codes import EXIT_INCONCLUSIVE, EXIT_PASSED, EXIT_REGRESSION
from analyze_lib.judge.compare import NEAR_CALL_FACTOR
from csvgen import case, write_results

STEADY = [1.0, 1.004, 0.996, 1.002, 0.998, 1.001, 0.999, 1.003, 0.997, 1.0]
BASE_PLANTED = [0.991, 0.993, 0.995, 0.997, 0.999, 1.001, 1.003, 1.005, 1.007, 1.009]
# ×1.25 in nine rounds; one round at the base's level, above five of its rounds: the exact U test on the round
# medians gives p = 1.3e-4, under alpha 0.01 but over Benjamini-Hochberg's 0.01/95 for a lone change among 95
# cases, while the interval of the ratio lies wholly above 1.05 (the planted ×1.25 of a separate-run gate).
HEAD_PLANTED = [0.9995] + [1.25, 1.252, 1.248, 1.254, 1.246, 1.256, 1.244, 1.251, 1.249]
PLANTED = case(variant="planted")


def _rounds(rng, medians):
    return [100.0 * m * np.exp(rng.normal(0, 0.002, 5)) for m in medians]


def _gate(tmp_path, capsys, head_planted, *options):
    rng = np.random.default_rng(7)
    base = {case(variant=f"v{i}"): _rounds(rng, STEADY) for i in range(94)}
    head = {case(variant=f"v{i}"): _rounds(rng, STEADY[::-1]) for i in range(94)}
    base[PLANTED], head[PLANTED] = _rounds(rng, BASE_PLANTED), _rounds(rng, head_planted)
    paths = [write_results(tmp_path / f"{side}.csv", cases, version=6) for side, cases in (("base", base),
                                                                                           ("head", head))]
    code = main(["gate", *map(str, paths), "--format", "json", *options])
    document = json.loads(capsys.readouterr().out)
    [row] = [row for row in document["cases"] if row["variant"] == "planted"]
    return code, document, row


def test_the_planted_1_25_row_not_significant_after_correction_is_not_resolved_and_blocks_the_pass(tmp_path, capsys):
    code, document, row = _gate(tmp_path, capsys, HEAD_PLANTED)
    # Not called (Benjamini-Hochberg's bar for a lone change among 95 is 0.01/95), but nearly: called at
    # NEAR_CALL_FACTOR x alpha.
    assert 0.01 / 95 < row["p_value"] < NEAR_CALL_FACTOR * 0.01 / 95, "the setup"
    assert 1.05 < row["ci_low"] < 1.25 < row["ci_high"], "the setup"
    assert row["verdict"] == "unresolved"
    assert row["verdict_text"] == "not resolved: 1.25× (head/base), not significant"
    assert code == EXIT_INCONCLUSIVE and document["gate"]["status"] == "inconclusive"
    assert document["gate"]["unresolved"] == 1
    assert {r["verdict"] for r in document["cases"] if r["variant"] != "planted"} == {"unchanged"}


def test_the_same_change_fully_separated_is_called_slower(tmp_path, capsys):
    # The control: every head round above every base round, p = 1.1e-5: called, the gate fails.
    code, _, row = _gate(tmp_path, capsys, [1.25] + HEAD_PLANTED[1:])
    assert (row["verdict"], code) == ("slower", EXIT_REGRESSION)


def test_an_interval_that_only_reaches_the_threshold_is_not_resolved_and_the_pass_says_so(tmp_path, capsys):
    # Rounds that straddle the base: not called, its interval reaches 1.02 but lies not wholly beyond it; the
    # gate passes, and its headline counts the case as not resolved rather than unchanged.
    straddling = [m + 0.012 for m in BASE_PLANTED]
    code, document, row = _gate(tmp_path, capsys, straddling, "--threshold", "2")
    assert row["ci_low"] < 1.02 <= row["ci_high"] and not row["unstable"], "the setup"
    assert row["verdict"] == "unresolved" and code == EXIT_PASSED
    assert document["gate"]["unresolved"] == 1 and document["gate"]["passed"]


def test_nothing_planted_passes_with_every_case_unchanged(tmp_path, capsys):
    code, document, row = _gate(tmp_path, capsys, BASE_PLANTED)
    assert code == EXIT_PASSED and row["verdict"] == "unchanged" and "unresolved" not in document["gate"]


def test_a_case_not_resolved_blocks_a_pass_only_when_nearly_called(tmp_path, capsys):
    # The planted ×1.25 above, at alpha 0.005: its interval still lies wholly beyond the threshold, but
    # Benjamini-Hochberg at NEAR_CALL_FACTOR x alpha (0.01) needs 0.01/95 = 1.05e-4 for a lone change, and its p
    # is 1.3e-4: not nearly called, so it is one case's uncorrected interval among many, and the gate passes
    # naming it not resolved. The test above is the control: the same case nearly called blocks the pass.
    code, document, row = _gate(tmp_path, capsys, HEAD_PLANTED, "--alpha", "0.005")
    assert NEAR_CALL_FACTOR * 0.005 / 95 < row["p_value"] < NEAR_CALL_FACTOR * 0.01 / 95, "the setup"
    assert row["verdict"] == "unresolved" and 1.05 < row["ci_low"], "the setup"
    assert code == EXIT_PASSED and document["gate"]["unresolved"] == 1


def test_the_rule_page_states_the_near_call_factor():
    from pathlib import Path
    page = (Path(__file__).resolve().parents[2] / "docs" / "comparison-rule.md").read_text()
    assert f"`NEAR_CALL_FACTOR` ({NEAR_CALL_FACTOR:g}) × alpha" in " ".join(page.split())
