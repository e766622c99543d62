"""A paired case starved short of its rounds: every pair starved on both sides in so many rounds that fewer than
paired.MIN_CALL_ROUNDS were left with a ratio.

An A/A of the gate's check (two builds of identical code, 16 rounds) read such a case 1.29x slower, interval [0.28,
5.99], and the pass-evidence rule made that point ratio an inconclusive gate
(docs/findings/2026-11-30-check-gate-aa-unjudged-case.md): ``wait/fan-out/task-group`` at 4,096 tasks, whose 8 ms
samples held one to four iterations, starved on both sides in 7 of 16 rounds. It is called starved now, and blocks a
pass only when its own interval lies wholly beyond the threshold.
"""

import numpy as np

from analyze_lib.files.loader import load_results
from analyze_lib.judge import paired as paired_rule
from analyze_lib.judge.compare import SLOWER, STARVED_PAIRS, UNDETECTABLE, build_comparison
from analyze_lib.judge.gate import INCONCLUSIVE, PASSED, REGRESSION, decide_gate
from analyze_lib.judge.pass_evidence import moved_ratio, pass_evidence
from analyze_lib.present.gate_text import notes
from analyze_lib.present.outcome_text import outcome_text

from csvgen import case, write_paired

CASES = {case(variant=f"v{index}", threads=threads): 10.0 + index for index in range(12) for threads in (1, 2)}
PLANTED = case(variant="v3", threads=2)
# A case starved both ways beside PLANTED: the base alone in some pairs, the head alone in others.
OTHER = case(variant="v5", threads=1)
ROUNDS = 16
# The rounds in which PLANTED starves on both sides, as the fan-out did: 7 of 16, leaving 9 with a ratio.
STARVED_ROUNDS = (0, 2, 5, 7, 10, 12, 15)


def compared(tmp_path, change: float = 1.0, starved_rounds=STARVED_ROUNDS, rounds: int = ROUNDS, cv: float = 0.02,
             seed: int = 1):
    """A paired comparison of CASES, one pair a round, with PLANTED ``change`` times slower in head and starved on
    both sides in every pair of ``starved_rounds``; ``cv`` is each sample's own noise."""
    base, head = tmp_path / "base.csv", tmp_path / "head.csv"
    both = tuple((round_, 0) for round_ in starved_rounds)
    write_paired(base, head, CASES, {PLANTED: change}, rounds=rounds, pairs=1, cv=cv, seed=seed,
                 starved_at={PLANTED: (both, both)})
    return build_comparison(load_results(base), load_results(head))


def planted_row(comparison):
    return next(row for row in comparison.rows if (row.key.variant, row.key.threads) == ("v3", 2))


def test_a_case_that_starved_on_both_sides_in_7_of_16_rounds_is_starved_and_says_why(tmp_path):
    comparison = compared(tmp_path)
    row = planted_row(comparison)
    assert (row.paired_rounds, row.starved_rounds) == (9, 7)
    assert row.starved_short and not row.starved_both_ways and row.outcome == STARVED_PAIRS
    assert outcome_text(row) == ("starved (not gated): every pair starved on both sides in 7 of 16 rounds, leaving 9 "
                                 f"with a ratio, fewer than the {paired_rule.MIN_CALL_ROUNDS} a change is called from")
    assert comparison.starved_pairs == [row] and not comparison.undetectable
    gate = decide_gate(comparison)
    assert gate.status == PASSED and gate.starved_pairs == (row.key,)


def test_the_controls_a_case_short_of_a_run_is_undetectable_and_one_that_kept_ten_rounds_is_judged(tmp_path):
    """Nine rounds in all with no starved pair: short of a run, not starved. Sixteen rounds of which six starved on
    both sides: ten are left, and the paired rule judges the case."""
    short_run = planted_row(compared(tmp_path, starved_rounds=(), rounds=9))
    assert (short_run.paired_rounds, short_run.starved_rounds) == (9, 0) and short_run.outcome == UNDETECTABLE
    kept_ten = planted_row(compared(tmp_path, starved_rounds=STARVED_ROUNDS[:6]))
    assert (kept_ten.paired_rounds, kept_ten.starved_rounds) == (10, 6)
    assert kept_ten.outcome not in (STARVED_PAIRS, UNDETECTABLE) and not kept_ten.changed
    slower = planted_row(compared(tmp_path, change=1.5, starved_rounds=STARVED_ROUNDS[:6]))
    assert slower.outcome == SLOWER


def test_identical_builds_never_block_a_pass_through_such_a_case_though_its_ratio_reads_slower_by_chance(tmp_path):
    """The A/A: identical builds, samples as coarse as the fan-out's (each sample's noise 40%). The old rule, the
    point ratio at least 1.02x, would have blocked the pass in some of these draws; the case's own interval never
    lies beyond 1.02x, so none is blocked."""
    read_slower = 0
    for seed in range(12):
        comparison = compared(tmp_path, cv=0.4, seed=seed)
        row = planted_row(comparison)
        assert row.outcome == STARVED_PAIRS
        read_slower += moved_ratio(row) >= 1.02
        assert not pass_evidence(comparison).unseen_slower, seed
    assert read_slower >= 3, "the draws must include the point ratios the old rule read as slower"


def test_a_real_slowdown_of_such_a_case_still_blocks_a_pass(tmp_path):
    """Twice as slow in every round with a ratio: the nine rounds' interval lies wholly beyond the threshold, so the
    gate does not pass what it could not call (inconclusive), where the same case with its 16 rounds is called."""
    comparison = compared(tmp_path, change=2.0)
    row = planted_row(comparison)
    assert row.outcome == STARVED_PAIRS and row.ci_low > 1.5
    assert pass_evidence(comparison).unseen_slower == ((row.key, row.ratio),)
    assert decide_gate(comparison).status == INCONCLUSIVE
    assert decide_gate(compared(tmp_path, change=2.0, starved_rounds=())).status == REGRESSION


def test_rounds_starved_on_both_sides_count_only_rounds_in_which_every_pair_starved_on_both():
    sample = paired_rule.PairSample
    starved, done = sample(np.inf, 2e6), sample(10.0, 1e6)
    base = {(1, 0): starved, (1, 1): starved, (2, 0): starved, (2, 1): starved, (3, 0): starved, (4, 0): starved}
    head = {(1, 0): starved, (1, 1): starved, (2, 0): starved, (2, 1): done, (3, 0): done}
    # Round 1: every pair both (lost); round 2: one pair head done (a ratio); round 3: head done; round 4: base only.
    assert paired_rule.rounds_starved_on_both_sides(base, head) == 1
    assert paired_rule.rounds_starved_on_both_sides(base, {}) == 0


def test_the_gate_says_which_kind_of_starved_each_case_is(tmp_path):
    """Starved short of its rounds alone, starved both ways alone, and one of each: the gate's line counts each kind
    by its own words, and says 'each' only when all are of one kind."""
    short = notes_text(decide_gate(compared(tmp_path)))
    assert "Also: 1 of 24 cases starved, not gated: each starved on both sides in every pair of so many rounds" in short
    assert "on the base alone" not in short
    both = tuple((round_, 0) for round_ in STARVED_ROUNDS)
    base, head = tmp_path / "mixed-base.csv", tmp_path / "mixed-head.csv"
    write_paired(base, head, CASES, rounds=ROUNDS, pairs=1, seed=1,
                 starved_at={PLANTED: (both, both), OTHER: (((1, 0), (4, 0)), ((3, 0), (8, 0)))})
    mixed = notes_text(decide_gate(build_comparison(load_results(base), load_results(head))))
    assert ("Also: 2 of 24 cases starved, not gated: 1 starved on the base alone in some pairs and on the head alone "
            "in others (a ratio that mixes bounds in both directions, so no change is called); 1 starved on both sides "
            "in every pair of so many rounds") in mixed


def notes_text(gate) -> str:
    return "\n".join(notes(gate))
