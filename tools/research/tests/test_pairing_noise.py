"""The pairing-noise tool's statistics on known inputs: the spread of the pairs against random pairings, and of
the rounds' medians."""

from __future__ import annotations

import math
import statistics

import pytest

from pairing_noise import round_spread, spreads


def test_pairing_noise_compares_the_pairs_with_random_pairings():
    # B follows A's level exactly: the pairs have no spread, random pairings a large one.
    levels = [100.0, 200.0, 110.0, 210.0, 105.0, 205.0]
    paired, shuffled = spreads([(level, level * 1.1) for level in levels])
    assert paired == pytest.approx(0.0, abs=1e-12) and shuffled > 0.3
    # B ignores A's level: pairing gains nothing (its spread is within the random pairings' range).
    paired, shuffled = spreads(list(zip(levels, [150.0, 150.0, 150.0, 150.0, 150.0, 150.0])))
    assert paired == pytest.approx(statistics.stdev(math.log(150.0 / level) for level in levels))
    assert spreads([(1.0, math.inf), (1.0, 1.0), (2.0, 2.0)]) is None, "two usable pairs are too few"


def test_pairing_noise_measures_the_spread_of_round_medians():
    # Each round's pairs agree within it, and the rounds sit at +10%, -10% and 0: their medians spread.
    rounds = [[(100.0, 110.0), (200.0, 220.0), (100.0, 300.0)], [(100.0, 90.0), (150.0, 135.0)], [(100.0, 100.0)]]
    medians = [math.log(1.1), math.log(0.9), 0.0]
    assert round_spread(rounds) == pytest.approx(statistics.stdev(medians))
    assert round_spread([[(1.0, 1.0)], [(1.0, math.inf)], [(2.0, 2.0)]]) is None, "a round with no usable pair"
    assert round_spread([[(1.0, 1.0)], [(1.0, 1.1)]]) is None, "two rounds are too few"


def test_pairing_noise_spreads_round_medians_of_the_first_pairs_of_a_visit():
    # One wild pair in each round (first, a convoy on one side), then three that agree: a visit of one pair
    # reads the wild ones, a visit of three their median, all of them too.
    rounds = [[(100.0, 3000.0), (100.0, 100.0), (100.0, 101.0), (100.0, 99.0)],
              [(3000.0, 100.0), (100.0, 100.0), (100.0, 99.0), (100.0, 101.0)],
              [(100.0, 2000.0), (100.0, 101.0), (100.0, 100.0), (100.0, 100.0)]]
    one = round_spread(rounds, 1)
    assert one == pytest.approx(statistics.stdev([math.log(30.0), math.log(1 / 30.0), math.log(20.0)]))
    assert round_spread(rounds, 3) == pytest.approx(statistics.stdev([math.log(1.01), math.log(0.99), math.log(1.01)]))
    assert round_spread(rounds, 3) < one / 100
    assert round_spread(rounds) == round_spread(rounds, 4)
