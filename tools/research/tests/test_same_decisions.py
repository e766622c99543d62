"""same_decisions.py: two runs' decisions agree situation by situation; a pick that moved with apart intervals is
told from one within overlapping intervals (its negative control)."""

from __future__ import annotations

from analyze_lib.files.loader import load_results
from csvgen import case, rounds, write_results
from same_decisions import compare

RUN = {"logical_cpus": "2", "run_threads": "1", "run_rounds": "5"}


def _file(path, mutex: float, nslock: float, levels=None):
    """Five rounds a variant; ``levels``, each round's level as a multiple of the median, scatters them."""
    cases = {case("isolation", "mixed", v, 1, "read_pct=0"): rounds(ns, 5, levels=levels, seed=seed)
             for v, ns, seed in (("mutex", mutex, 1), ("nslock", nslock, 2), ("rwlock", 400.0, 3))}
    return load_results(write_results(path, cases, version=6, run=RUN))


def test_the_same_run_agrees_with_itself(tmp_path):
    run = _file(tmp_path / "a.csv", 40.0, 60.0)
    [agreement] = compare(run, run)
    assert agreement.same_use and agreement.same_avoid and agreement.same_disqualified


def test_a_pick_that_moved_far_differs_and_one_within_the_noise_overlaps(tmp_path):
    adaptive = _file(tmp_path / "a.csv", 40.0, 60.0)
    [far] = compare(adaptive, _file(tmp_path / "f.csv", 80.0, 60.0))
    assert not far.same_use and not far.use_overlap and not far.use_agrees
    # Round levels that scatter by half: the two picks' ranges overlap in the adaptive run, whose pick is nslock
    # where the forced run's is mutex.
    noisy = _file(tmp_path / "n.csv", 44.0, 40.0, levels=(0.7, 0.85, 1.0, 1.15, 1.3))
    [close] = compare(noisy, _file(tmp_path / "g.csv", 40.0, 44.0))
    assert not close.same_use and close.use_overlap and close.use_agrees
