"""aa_splits.py: a split gives each case half its rounds a side, disjoint and renumbered; the halves of identical
code are not called, and cases of a head planted 1.5x slower are, the others not (its negative control)."""

from __future__ import annotations

import numpy as np

from aa_splits import halves, judge_split, planted
from analyze_lib.files.loader import load_results
from csvgen import case, rounds, write_results

KEYS = [case(variant=f"v{i}") for i in range(3)]
KEYS_LABELS = [f"once/hit/v{i} threads:1" for i in range(3)]


def _run(path, factor: float = 1.0, count: int = 12):
    cases = {key: rounds(100.0 * factor, count, 0.005, samples=3, seed=i) for i, key in enumerate(KEYS)}
    return load_results(write_results(path, cases, version=6, run={"run_rounds": str(count)}))


def test_a_split_gives_each_side_half_the_rounds_disjoint_and_renumbered(tmp_path):
    run = _run(tmp_path / "r.csv")
    base, head = halves(run, np.random.default_rng(3))
    assert len(run.cases) == len(KEYS)
    for key in run.cases:
        assert base.cases[key].round_ids.tolist() == head.cases[key].round_ids.tolist() == \
            [r for r in range(1, 7) for _ in range(3)]
        together = np.sort(np.concatenate([base.cases[key].ns_per_op, head.cases[key].ns_per_op]))
        assert together.tolist() == np.sort(run.cases[key].ns_per_op).tolist()
    assert base.run["run_rounds"] == 6


def test_halves_of_one_run_are_not_called_and_a_planted_head_is(tmp_path):
    run = _run(tmp_path / "r.csv")
    same = judge_split(*halves(run, np.random.default_rng(3)), alpha=0.01)
    assert same.called == () and same.exit_code == 0
    base, head = halves(run, np.random.default_rng(3))
    seen = judge_split(base, planted(head, 1.5, "/v[01] "), alpha=0.01)
    assert sorted(seen.called) == [KEYS_LABELS[0], KEYS_LABELS[1]] and seen.exit_code == 1
