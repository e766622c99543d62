"""The adopted-plans tool's statistics on known inputs."""

from __future__ import annotations

import math

import pytest

from adopted_plans import case_ratio, quartiles


def test_a_case_ratio_is_the_median_of_its_usable_pairs():
    assert case_ratio([(100.0, 110.0), (100.0, 90.0), (100.0, 130.0)]) == pytest.approx(1.1)
    assert case_ratio([(100.0, math.inf), (0.0, 5.0), (50.0, 100.0)]) == pytest.approx(2.0), "starved pairs left out"
    assert case_ratio([(math.nan, 1.0)]) is None


def test_quartiles_bracket_the_median():
    low, middle, high = quartiles([0.8, 0.9, 1.0, 1.1, 1.2])
    assert low < middle < high
    assert middle == pytest.approx(1.0)
    assert quartiles([1.5]) == (1.5, 1.5, 1.5)
