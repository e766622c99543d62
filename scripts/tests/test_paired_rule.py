"""The paired rule (judge/paired.py) on planted log ratios: exact where it is arithmetic, and in both
directions where it decides."""

import math

import numpy as np
import pytest
from scipy import stats

from analyze_lib.judge import paired


def noisy_rounds(shift, rounds=12, pairs=10, sd=0.05, offset_sd=0.0, seed=1):
    """Log ratios around ``log(shift)``: ``sd`` within a round, ``offset_sd`` between rounds."""
    rng = np.random.default_rng(seed)
    return [math.log(shift) + rng.normal(0, offset_sd) + rng.normal(0, sd, pairs) for _ in range(rounds)]


def test_a_starved_side_counts_at_its_elapsed_time_and_a_pair_starved_on_both_sides_is_dropped():
    d = paired.log_ratios(np.array([10.0, np.inf, 10.0, 0.0, np.inf]), np.array([11.0, 10.0, np.inf, 5.0, np.inf]),
                          np.full(5, 1000.0), np.full(5, 2000.0))
    assert d.tolist() == pytest.approx([math.log(1.1), math.log(10 / 1000), math.log(2000 / 10)])


def test_the_estimate_is_the_mean_of_round_medians():
    rounds = [np.array([0.0, 0.1, 0.5]), np.array([0.2, 0.2, 0.9])]
    assert paired.estimate(rounds) == pytest.approx((0.1 + 0.2) / 2)


def test_the_estimate_trims_the_rounds_at_both_ends():
    """Twenty rounds: the three lowest and the three highest round medians are cut; wild rounds move nothing."""
    medians = [0.1] * 17 + [0.9, 1.5, -0.7]
    assert paired.estimate([np.array([m]) for m in medians]) == pytest.approx(0.1)
    assert abs(np.mean(medians) - 0.1) > 0.05, "the plain mean would have been moved"
    assert paired.trimmed_rounds(20) == 14 and paired.degrees_of_freedom(20) == 13
    assert paired.trimmed_rounds(6) == 6 and paired.degrees_of_freedom(2) == 1


def test_the_weighted_trimmed_mean_is_scipy_s_on_the_repeated_values():
    rng = np.random.default_rng(7)
    ordered = np.sort(rng.normal(0, 1, 9))
    counts = rng.integers(0, 4, (50, 9)).astype(float)
    found = paired._trimmed_means(ordered, counts, fallback=-1.0)
    for row, value in zip(counts, found):
        repeated = np.repeat(ordered, row.astype(int))
        assert value == (pytest.approx(stats.trim_mean(repeated, paired.ROUND_TRIM)) if repeated.size else -1.0)


def wild(shift, rounds=30, seed=5):
    """Rounds of one pair each within 1% of ``log(shift)``, of which three (one in ten) sit 0.5-0.8 off, two
    one way and one the other: a worker that spent its whole round in another state."""
    rng = np.random.default_rng(seed)
    values = math.log(shift) + rng.normal(0, 0.01, rounds)
    values[:3] += np.array([1, -1, 1]) * rng.uniform(0.5, 0.8, 3)
    return [np.array([value]) for value in values]


def test_a_few_wild_rounds_do_not_hide_a_ten_percent_change(monkeypatch):
    rounds = wild(1.10)
    found = paired.paired_evidence(rounds, cases=500)
    assert found.ratio == pytest.approx(1.10, rel=0.01)
    assert found.resolution < 1.05 and found.p < 0.01 / 500
    monkeypatch.setattr(paired, "ROUND_TRIM", 0.0)
    untrimmed = paired.paired_evidence(rounds, cases=500)
    assert untrimmed.resolution > 1.10 and untrimmed.p > 0.01 / 500, "the plain mean counted them in full"


def test_a_few_wild_rounds_are_no_change():
    found = paired.paired_evidence(wild(1.0), cases=500)
    assert found.p > 0.01


def test_identical_pairs_have_no_standard_error():
    assert paired.bootstrap_se([np.full(6, 0.1), np.full(6, 0.1)]) == 0.0


def test_the_standard_error_grows_with_the_noise_and_shrinks_with_the_rounds():
    quiet = paired.bootstrap_se(noisy_rounds(1.0, sd=0.02))
    loud = paired.bootstrap_se(noisy_rounds(1.0, sd=0.2))
    more = paired.bootstrap_se(noisy_rounds(1.0, sd=0.2, rounds=20))
    assert quiet < loud
    assert more < loud


def test_between_round_offsets_count_in_the_standard_error():
    without = paired.bootstrap_se(noisy_rounds(1.0, sd=0.02, offset_sd=0.0))
    with_offsets = paired.bootstrap_se(noisy_rounds(1.0, sd=0.02, offset_sd=0.1))
    assert with_offsets > 2 * without


def test_the_standard_error_is_fixed_by_its_inputs():
    rounds = noisy_rounds(1.0, sd=0.1)
    assert paired.bootstrap_se(rounds) == paired.bootstrap_se(rounds)


def test_a_planted_ten_percent_change_is_measured_and_significant():
    evidence = paired.paired_evidence(noisy_rounds(1.10, rounds=20), cases=500)
    assert evidence.ratio == pytest.approx(1.10, rel=0.02)
    assert evidence.p < 1e-6
    assert evidence.rounds == 20 and evidence.pairs == 200
    assert not evidence.one_round


def test_no_change_is_not_significant():
    evidence = paired.paired_evidence(noisy_rounds(1.0, sd=0.05), cases=500)
    assert evidence.p > 0.01


def test_the_resolution_is_the_floor_or_the_lone_change_bar_whichever_is_larger():
    tight = paired.paired_evidence([np.full(8, 0.0)] * paired.MIN_CALL_ROUNDS, cases=500)
    assert tight.resolution == pytest.approx(1.02)
    loose = paired.paired_evidence(noisy_rounds(1.0, sd=0.3), cases=500)
    assert loose.resolution == pytest.approx(math.exp(paired.lone_z(0.01, 500, loose.rounds) * loose.se))
    assert loose.resolution > 1.02


def test_few_rounds_give_a_coarse_resolution_not_a_false_call():
    """The rounds are the independent units: two rounds whose pairs agree closely but whose offsets
    differ say little, whereas the normal would have read their pairs as forty independent ones."""
    two = noisy_rounds(1.0, rounds=2, pairs=20, sd=0.01, offset_sd=0.05, seed=3)
    evidence = paired.paired_evidence(two, cases=500)
    assert paired.lone_z(0.01, 500, 2) > 10 * paired.lone_z(0.01, 500)
    assert evidence.resolution > 2.0
    assert evidence.p > 0.01


def on_one_level(rounds, level=-2.4, seed=4):
    """A case whose every round sits on one of its discrete levels (a 2-thread handoff with the base's
    threads on two CPUs and the head's on one, round after round): tight, and far from no change."""
    rng = np.random.default_rng(seed)
    return [level + rng.normal(0, 0.02, 2) for _ in range(rounds)]


def test_a_change_is_called_only_from_the_minimum_rounds():
    short = paired.paired_evidence(on_one_level(paired.MIN_CALL_ROUNDS - 1), cases=500)
    assert short.rounds < paired.MIN_CALL_ROUNDS and short.p == 1.0
    assert math.log(short.resolution) == paired.MAX_LOG_RESOLUTION
    enough = paired.paired_evidence(on_one_level(paired.MIN_CALL_ROUNDS), cases=500)
    assert enough.p < 0.01 / 500, "the same level over enough rounds is a change"


def test_five_rounds_on_one_level_would_have_been_called_by_t_alone():
    """The negative control of the minimum: Student's t reads five such rounds as a change far beyond the
    lone bar among 500 cases, which is the false call the minimum exists to stop."""
    rounds = on_one_level(5)
    t = abs(paired.estimate(rounds)) / paired.bootstrap_se(rounds)
    assert t > paired.lone_z(0.01, 500, 5)
    assert paired.paired_evidence(rounds, cases=500).p == 1.0


def test_a_case_short_of_the_minimum_wants_the_rounds_it_lacks():
    rounds = noisy_rounds(1.0, rounds=3, sd=0.001)
    assert rounds_wanted(rounds, cases=500, max_rounds=200) == paired.MIN_CALL_ROUNDS - 3
    assert rounds_wanted(rounds, cases=500, max_rounds=paired.MIN_CALL_ROUNDS - 1) is None
    assert paired.refinement(rounds[:1], cases=500, max_rounds=200) == (paired.RESOLUTION_GOALS[0], 1)
    loud = noisy_rounds(1.0, rounds=9, sd=0.001, offset_sd=3.0)
    assert paired.resolution_of(3.0 / math.sqrt(10), 10, cases=500) > 2.0, "ten rounds would not reach 2x"
    assert rounds_wanted(loud, cases=500, max_rounds=200) == 1, "but it is brought to the minimum"
    assert rounds_wanted(noisy_rounds(1.0, rounds=12, sd=0.001, offset_sd=3.0), cases=500,
                                max_rounds=14) is None, "a case past the minimum is not"


def test_the_lone_change_bar_grows_with_the_number_of_cases():
    assert paired.lone_z(0.01, 1) == pytest.approx(2.5758, abs=1e-3)
    assert paired.lone_z(0.01, 500) == pytest.approx(4.2649, abs=1e-3)  # the normal quantile at 1e-5
    assert paired.lone_z(0.01, 500) > paired.lone_z(0.01, 50)


def test_rounds_are_read_on_student_t_of_the_rounds_kept():
    rounds = 20
    degrees = paired.degrees_of_freedom(rounds)
    assert degrees == 20 - 2 * 3 - 1
    assert paired.lone_z(0.01, 500, rounds) == pytest.approx(stats.t(degrees).isf(0.01 / 1000))
    assert paired.two_sided_z(0.01, rounds) == pytest.approx(stats.t(degrees).isf(0.005))
    assert paired.t_test_p(0.1, 0.04, rounds) == pytest.approx(2 * stats.t(degrees).sf(2.5))
    assert paired.t_test_p(0.1, 0.04, 1) == pytest.approx(2 * stats.norm.sf(2.5)), "one round: the normal"


def test_a_round_of_one_pair_is_not_resampled_and_the_error_is_unchanged():
    # The general two-level bootstrap, written out: each round's pairs resampled, then the rounds.
    def resampled(rounds, seed=paired.BOOTSTRAP_SEED, resamples=paired.PAIRED_RESAMPLES):
        rng = np.random.default_rng(seed)
        within = np.stack([np.median(d[rng.integers(0, d.size, (resamples, d.size))], axis=1) for d in rounds])
        chosen = rng.integers(0, len(rounds), (len(rounds), resamples))
        means = stats.trim_mean(within[chosen, np.arange(resamples)], paired.ROUND_TRIM, axis=0)
        return float(np.std(means, ddof=1) * math.sqrt(len(rounds) / (len(rounds) - 1)))

    rng = np.random.default_rng(7)
    one_pair = [rng.normal(0, 0.1, 1) for _ in range(15)]
    mixed = one_pair[:8] + [rng.normal(0, 0.1, 3) for _ in range(7)]
    for rounds in (one_pair, mixed):
        assert paired.bootstrap_se(rounds) == resampled(rounds)


def test_one_round_says_so():
    assert paired.paired_evidence([np.array([0.1, 0.2, 0.15])], cases=1).one_round


def rounds_wanted(log_ratios_by_round, **options):
    return paired.refinement(log_ratios_by_round, **options).rounds


def still_coarse(log_ratios_by_round):
    """Whether sequential sampling would give the case another round: its finest goal not reached."""
    return rounds_wanted(log_ratios_by_round, cases=500, max_rounds=200) != 0


def test_sequential_sampling_stops_when_the_finest_goal_is_reached_and_never_on_the_change():
    assert paired.RESOLUTION_GOALS[-1] == paired.TARGET_RESOLUTION == 1.03
    assert still_coarse([])
    assert still_coarse([[0.0, 0.0, 0.0]]), "one round measures no process-pair noise"
    assert not still_coarse(noisy_rounds(1.0, sd=0.005))
    assert not still_coarse(noisy_rounds(1.5, sd=0.005))
    assert still_coarse(noisy_rounds(1.5, sd=0.2)), \
        "a clear change still coarser than the target goes on: stopping on the change biases A/A runs"
    assert still_coarse(noisy_rounds(1.0, sd=0.3, pairs=3, rounds=2))


def test_a_pair_starved_on_both_sides_carries_no_ratio():
    sample = paired.PairSample
    assert math.isnan(paired.pair_log_ratio(sample(math.inf, 8e6), sample(math.inf, 8e6)))
    assert paired.pair_log_ratio(sample(10.0, 8e6), sample(math.inf, 8e6)) == pytest.approx(math.log(8e5))
    assert paired.pair_log_ratio(sample(10.0, 8e6), sample(20.0, 8e6)) == pytest.approx(math.log(2))
    assert still_coarse([[math.nan] * 10]), "ten pairs starved on both sides are no evidence"


def test_pairs_are_matched_by_round_and_pair_and_grouped_by_round():
    def samples(ns_per_op):
        return {key: paired.PairSample(value, 8e6) for key, value in ns_per_op.items()}

    base = samples({(1, 0): 10.0, (1, 1): 10.0, (2, 0): 20.0, (2, 1): 0.0, (3, 0): 5.0})
    head = samples({(1, 0): 11.0, (1, 1): 12.0, (2, 0): 22.0, (2, 1): 20.0, (4, 0): 5.0})
    grouped = paired.pair_log_ratios(base, head)
    assert [d.tolist() for d in grouped] == [pytest.approx([math.log(1.1), math.log(1.2)]),
                                             pytest.approx([math.log(1.1)])]


def test_the_next_goal_is_the_coarsest_not_yet_reached():
    assert paired.next_goal(7.0) == 2.0
    assert paired.next_goal(1.5) == 1.10
    assert paired.next_goal(1.08) == 1.05
    assert paired.next_goal(1.04) == paired.TARGET_RESOLUTION
    assert paired.next_goal(1.02) is None


def test_rounds_wanted_grow_with_the_noise_and_end_at_the_goal():
    quiet = rounds_wanted(noisy_rounds(1.0, rounds=12, sd=0.01, offset_sd=0.03), cases=500, max_rounds=200)
    loud = rounds_wanted(noisy_rounds(1.0, rounds=12, sd=0.01, offset_sd=0.10), cases=500, max_rounds=200)
    assert 0 < quiet < loud
    assert rounds_wanted(noisy_rounds(1.0, rounds=12, sd=0.01, offset_sd=0.10), cases=500, max_rounds=14) is None
    assert rounds_wanted(noisy_rounds(1.0, sd=0.001), cases=500, max_rounds=200) == 0


def test_rounds_wanted_bring_a_case_to_its_goal():
    """Projected by the rule's own formula: after the wanted rounds, the case's resolution is at its goal."""
    rounds = noisy_rounds(1.0, rounds=6, sd=0.01, offset_sd=0.05)
    evidence = paired.paired_evidence(rounds, cases=500)
    goal = paired.next_goal(evidence.resolution)
    refinement = paired.refinement(rounds, cases=500, max_rounds=200)
    assert refinement.goal == goal
    wanted = refinement.rounds
    spread = evidence.se * math.sqrt(6)
    total = 6 + wanted
    assert paired.resolution_of(spread / math.sqrt(total), total, cases=500) <= goal
    assert paired.resolution_of(spread / math.sqrt(total - 1), total - 1, cases=500) > goal


def test_rounds_wanted_read_the_precision_never_the_change():
    """The negative control: a clear change does not end a case early, nor keep it going."""
    same = rounds_wanted(noisy_rounds(1.0, rounds=6, offset_sd=0.05), cases=500, max_rounds=200)
    assert rounds_wanted(noisy_rounds(1.5, rounds=6, offset_sd=0.05), cases=500, max_rounds=200) == same


def test_an_interval_of_few_rounds_at_a_small_alpha_stays_a_number():
    """Two rounds far apart, at alpha 0.001: t on one degree of freedom is about 640, and the interval's
    upper end would be e^1900. It stops at e^50, as a resolution does."""
    evidence = paired.paired_evidence([np.array([-3.0]), np.array([3.0])], cases=500)
    low, high = evidence.interval(paired.two_sided_z(0.001, evidence.rounds))
    assert high == math.exp(paired.MAX_LOG_RESOLUTION) and low == math.exp(-paired.MAX_LOG_RESOLUTION)
