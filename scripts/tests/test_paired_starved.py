"""A paired case starved both ways (issue 74): its base alone starved in some pairs and its head alone in others.

A starved sample counts at its elapsed time, the least its ns/op can be, so a pair whose head alone starved bounds
head/base from below and one whose base alone starved bounds it from above. A case of only one kind keeps a sound
call (slower, or faster); one of both kinds mixes the bounds, and its ratio is bounded neither way: it is called
starved, not gated. A real run called such a row "2.30× faster": a reader/writer store's writer at 4 threads on 2
CPUs, starved in both builds.
"""

import json
import math
from dataclasses import replace

import numpy as np

from analyze_lib.files.loader import load_results
from analyze_lib.judge import paired as paired_rule
from analyze_lib.judge.compare import (FASTER, OUTCOME_ORDER, SLOWER, STARVED_BASE, STARVED_BOTH, STARVED_PAIRS,
                                       STARVED_HEAD, UNDETECTABLE, build_comparison, classify, coarsest_judged)
from analyze_lib.judge.gate import INCONCLUSIVE, PASSED, decide_gate
from analyze_lib.judge.pass_evidence import NOT_JUDGED, pass_evidence
from analyze_lib.present.gate_text import headline, notes
from analyze_lib.present.outcome_text import outcome_text
from analyze_lib.present.render import checked_lines, counts_sentence, render_json, render_markdown, render_text

from csvgen import case, write_paired

CASES = {case(variant=f"v{index}", threads=threads): 10.0 + index
         for index in range(12) for threads in (1, 2)}
PLANTED = case(variant="v3", threads=2)
# (round, pair) positions, counted from 0, at which a side's sample of PLANTED starves: three on the base, two on the
# head, never in the same pair.
BASE_STARVES = ((1, 0), (4, 2), (7, 1))
HEAD_STARVES = ((2, 3), (9, 0))
# Eight pairs a round, so that one starved pair does not carry a round's median.
PAIRS = 8
WHY = "its ratio mixes bounds in both directions, so no change is called"


def compared(tmp_path, change: float, base_starves=BASE_STARVES, head_starves=HEAD_STARVES, cases=None, pairs=PAIRS,
             **options):
    base, head = tmp_path / "base.csv", tmp_path / "head.csv"
    write_paired(base, head, cases or CASES, {PLANTED: change}, pairs=pairs,
                 starved_at={PLANTED: (base_starves, head_starves)}, **options)
    return build_comparison(load_results(base), load_results(head))


def planted_row(comparison):
    return next(row for row in comparison.rows if row.key.variant == "v3" and row.key.threads == 2)


def test_a_case_starved_in_base_in_some_pairs_and_in_head_in_others_is_starved_not_faster(tmp_path):
    """The head is 2x faster in every pair that did not starve; the old rule called the row 2.01x faster from a
    mean of upper and lower bounds."""
    comparison = compared(tmp_path, 0.5)
    row = planted_row(comparison)
    assert row.paired and (row.base_alone_starved_pairs, row.head_alone_starved_pairs) == (3, 2)
    assert row.outcome == STARVED_PAIRS and not row.changed and row.verdict != FASTER
    assert outcome_text(row) == (f"starved (not gated): the base alone starved in 3 of {row.pairs} pairs and the head "
                                 f"alone in 2: {WHY}")
    assert comparison.starved_pairs == [row]
    # Its medians are finite: it is not one of the median flags, and those keep their meaning.
    assert row.starved is None and comparison.starved_rows == []
    assert STARVED_PAIRS not in (STARVED_HEAD, STARVED_BASE, STARVED_BOTH)
    assert not row.ratio_measures
    gate = decide_gate(comparison)
    assert gate.status == PASSED and gate.starved_pairs == (row.key,) and gate.not_gated == 1


def test_one_sided_starvation_keeps_its_call(tmp_path):
    """The negative controls: the same starved samples on one side only. The head's alone bound head/base from
    below, so a slower head is still called slower; the base's alone bound it from above, so a faster head is
    still called faster."""
    head_only = planted_row(compared(tmp_path, 2.0, base_starves=(), head_starves=HEAD_STARVES + BASE_STARVES))
    assert (head_only.base_alone_starved_pairs, head_only.head_alone_starved_pairs) == (0, 5)
    assert head_only.outcome == SLOWER and outcome_text(head_only) == f"{head_only.ratio:.2f}× slower"
    base_only = planted_row(compared(tmp_path, 0.5, base_starves=BASE_STARVES + HEAD_STARVES, head_starves=()))
    assert (base_only.base_alone_starved_pairs, base_only.head_alone_starved_pairs) == (5, 0)
    assert base_only.outcome == FASTER and outcome_text(base_only) == f"{1 / base_only.ratio:.2f}× faster"
    # And with a starved head median (most of its samples starved), as test_paired_compare has it.
    starved_head = planted_row(compared(tmp_path, 1.0, base_starves=(), head_starves=(), pairs=4,
                                        starving={PLANTED: (0.0, 0.6)}))
    assert starved_head.starved == STARVED_HEAD and starved_head.outcome == SLOWER


def test_a_gate_with_a_case_starved_both_ways_among_unchanged_ones_passes_and_says_why(tmp_path):
    """The head 2x slower in every pair that did not starve: the old rule called the row slower and failed the
    gate. Its ratio is no measure, so neither it nor its suite's geometric mean fails the gate, nor does it block a
    pass as a case not judged that moved."""
    comparison = compared(tmp_path, 2.0)
    row = planted_row(comparison)
    assert row.outcome == STARVED_PAIRS and row.ratio > 1.9
    assert not comparison.slower and all(r.outcome != SLOWER for r in comparison.rows)
    evidence = pass_evidence(comparison)
    assert not evidence.suites_slower and not evidence.unseen_slower and not evidence.blocks_pass
    (geomean, cases), = comparison.suite_geomeans.values()
    assert cases == len(CASES) - 1 and geomean < 1.02
    gate = decide_gate(comparison)
    assert gate.status == PASSED and gate.status != INCONCLUSIVE and gate.exit_code == 0
    assert headline(gate) == (f"Gate: passed, no case slower among {len(CASES) - 1} decidable cases; "
                              f"1 of {len(CASES)} cases not gated")
    said = "\n".join(notes(gate))
    assert f"Also: 1 of {len(CASES)} cases starved, not gated: each starved on the base alone in some pairs" in said
    assert json.loads(render_json(comparison, gate))["gate"]["starved"] == 1


def test_the_same_gate_without_the_base_starving_fails_on_the_slower_head(tmp_path):
    """The control of the test above: the head's starved pairs alone lower-bound head/base, so the call stands."""
    gate = decide_gate(compared(tmp_path, 2.0, base_starves=()))
    assert gate.status == "regression" and gate.slower == 1


def test_a_gate_of_only_cases_starved_both_ways_is_inconclusive_and_says_what_would_decide_it(tmp_path):
    comparison = compared(tmp_path, 0.5, cases={PLANTED: 13.0})
    assert [row.outcome for row in comparison.rows] == [STARVED_PAIRS]
    gate = decide_gate(comparison)
    assert gate.status == INCONCLUSIVE
    assert headline(gate).startswith("Gate: INCONCLUSIVE, none of the 1 cases can be decided: 1 of 1 cases starved, "
                                     "not gated: ")
    assert "bench-commits --sample-time" in headline(gate)
    assert not any("starved" in note for note in notes(gate)), "the headline already says it"


def test_every_output_lists_and_counts_the_case_starved_both_ways(tmp_path):
    comparison = compared(tmp_path, 0.5)
    gate = decide_gate(comparison)
    assert ", 1 starved (not gated: starved pairs leave no change to call)" in counts_sentence(comparison)
    lines = checked_lines(comparison, gate)
    assert "1 starved (their starved pairs leave no change to call)" in lines[1]
    assert lines[-1].startswith("To do: give the starved cases longer samples (bench-commits --sample-time)")
    markdown = render_markdown(comparison, gate)
    assert "<summary>Starved, not gated: 1 case (once 1)</summary>" in markdown
    assert f"starved (not gated): the base alone starved in 3 of {planted_row(comparison).pairs} pairs" in markdown
    assert " or starved cases</summary>" in markdown, "the folded table of cases not called names them"
    text = render_text(comparison, gate)
    assert "Starved, not gated (1, marked in the table): once 1" in text
    document = json.loads(render_json(comparison, gate))
    assert document["counts"][STARVED_PAIRS] == 1
    (row,) = [r for r in document["cases"] if r["variant"] == "v3" and r["threads"] == 2]
    assert (row["verdict"], row["starved_both_ways"], row["starved_short"], row["starved"]) == \
        ("unchanged", True, False, None)
    assert (row["base_alone_starved_pairs"], row["head_alone_starved_pairs"]) == (3, 2)
    others = [r for r in document["cases"] if r is not row]
    assert not any(r["starved_both_ways"] for r in others)


def test_the_outcome_is_wired_where_outcomes_are_listed():
    assert STARVED_PAIRS in OUTCOME_ORDER and STARVED_PAIRS in NOT_JUDGED


def test_pairs_starved_on_one_side_are_counted_and_a_pair_starved_on_both_is_in_neither_count():
    sample = paired_rule.PairSample
    base = {(1, 0): sample(math.inf, 2e6), (1, 1): sample(10.0, 1e6), (1, 2): sample(math.inf, 2e6),
            (2, 0): sample(10.0, 1e6), (2, 1): sample(math.inf, 2e6)}
    head = {(1, 0): sample(5.0, 1e6), (1, 1): sample(math.inf, 2e6), (1, 2): sample(math.inf, 2e6),
            (2, 0): sample(5.0, 1e6), (3, 0): sample(math.inf, 2e6)}
    # (1, 0) base alone, (1, 1) head alone, (1, 2) both (no ratio), (2, 0) neither; (2, 1) and (3, 0) one side only.
    assert paired_rule.starved_alone(base, head) == (1, 1)
    assert paired_rule.starved_alone(base, {}) == (0, 0)


def test_classify_calls_a_paired_case_starved_both_ways_whatever_its_test_and_rounds(tmp_path):
    row = planted_row(compared(tmp_path, 0.5))
    for reachable in (True, False):
        for significant in (True, False):
            assert classify(row, reachable, significant, 2.0) == STARVED_PAIRS
    # One kind of pair alone keeps the paired rule: a significant 2x speedup is faster, too few rounds undetectable.
    one_way = replace(row, head_alone_starved_pairs=0)
    assert classify(one_way, True, True, 2.0) == FASTER
    assert classify(one_way, False, True, 2.0) == UNDETECTABLE
    assert classify(replace(row, base_alone_starved_pairs=0), True, True, 2.0) == FASTER


def test_a_case_starved_both_ways_bounds_no_change_that_could_hide(tmp_path):
    comparison = compared(tmp_path, 0.5)
    judged = [row for row in comparison.rows if row.outcome != STARVED_PAIRS]
    assert coarsest_judged(comparison.rows) == max(row.resolution for row in judged)
    assert math.isnan(coarsest_judged([planted_row(comparison)]))


def test_a_same_build_case_starving_at_random_on_both_sides_is_starved_not_a_change(tmp_path):
    """Starvation drawn at random on both sides of identical builds, as the writer of a reader/writer store starves
    at 4 threads on 2 CPUs: whatever the draw, the row is never called."""
    for seed in range(3):
        comparison = compared(tmp_path, 1.0, base_starves=(), head_starves=(), starving={PLANTED: (0.1, 0.1)},
                              seed=seed)
        row = planted_row(comparison)
        assert row.outcome == STARVED_PAIRS, (seed, row.base_alone_starved_pairs, row.head_alone_starved_pairs)
        assert np.isfinite(row.base_median) and np.isfinite(row.head_median)
        assert decide_gate(comparison).status == PASSED
