"""Issue 20 (5): the gate's words and its counts agree in every combination of starved, bimodal, unstable and
called, and no "nan" reaches the user. One case per file pair, 10 rounds a side (enough for the gate to call one
case alone), built from exact levels so that each combination is what it says."""

from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pytest

from analyze_lib.cli import main
from csvgen import case, write_results

ROUNDS = 10
PER_ROUND = 4
LEVEL = 100.0
NAN_WORD = re.compile(r"\bnan\b", re.IGNORECASE)


def _side(starved: bool, bimodal: bool, unstable: bool, factor: float) -> list[np.ndarray]:
    """One side's rounds: every sample starved (inf); or, each round, samples at LEVEL x factor, half of them
    at 1.6 times that (bimodal), the rounds' levels spread evenly over 1 to 1.54 times it (unstable: no gap
    between two levels, but halves of the rounds that differ by more than the threshold)."""
    rounds = []
    for index in range(ROUNDS):
        level = LEVEL * factor * (1 + 0.06 * ((index * 3) % ROUNDS) if unstable else 1.0)
        samples = np.full(PER_ROUND, level) * (1 + 0.001 * np.arange(PER_ROUND))
        if bimodal:
            samples[PER_ROUND // 2:] *= 1.6
        rounds.append(np.full(PER_ROUND, np.inf) if starved else samples)
    return rounds


SIDES = ("neither", "base", "head")
COMBINATIONS = [
    (starved, bimodal, unstable, called)
    for starved, bimodal, unstable, called in itertools.product(SIDES, SIDES, (False, True), (False, True))
]


def _gate(tmp_path, starved, bimodal, unstable, called, fmt):
    name = f"{starved}-{bimodal}-{unstable}-{called}"
    base = _side(starved == "base", bimodal == "base", unstable, 1.0)
    head = _side(starved == "head", bimodal == "head", unstable, 2.0 if called else 1.0)
    b = write_results(tmp_path / f"base-{name}.csv", {case(suite="once", benchmark="hit", variant="v"): base},
                      version=5, run={"run_rounds": str(ROUNDS)})
    h = write_results(tmp_path / f"head-{name}.csv", {case(suite="once", benchmark="hit", variant="v"): head},
                      version=5, run={"run_rounds": str(ROUNDS)})
    return main(["gate", str(b), str(h), "--format", fmt])


@pytest.mark.parametrize("starved,bimodal,unstable,called", COMBINATIONS)
def test_words_and_counts_agree(tmp_path, capsys, starved, bimodal, unstable, called):
    status = _gate(tmp_path, starved, bimodal, unstable, called, "json")
    document = json.loads(capsys.readouterr().out)
    counts, gate = document["counts"], document["gate"]
    [row] = document["cases"]
    # One rule: the gate's numbers are the counts' numbers.
    assert gate["slower"] == counts["slower"]
    assert gate.get("bimodal", 0) == counts.get("bimodal", 0)
    assert gate.get("unstable", 0) == counts.get("unstable", 0)
    assert gate["undetectable"] == counts.get("undetectable", 0)
    assert (status == 1) == (counts["slower"] > 0)
    assert sum(counts.values()) == 1
    outcome = next(name for name, count in counts.items() if count)
    # The one case decides: slower fails, one the gate could not judge leaves it inconclusive.
    assert status == (1 if outcome == "slower" else 4 if outcome in ("bimodal", "unstable", "undetectable") else 0)
    for fmt in ("text", "md"):
        assert _gate(tmp_path, starved, bimodal, unstable, called, fmt) == status
        out = capsys.readouterr().out
        assert not NAN_WORD.search(out), out
        headline = next(line for line in out.splitlines() if "Gate: " in line)
        if outcome == "slower":
            assert "FAILED, 1 case slower" in headline and "bimodal (not gated)" not in out
        else:
            assert "slower" not in headline or "no case slower" in headline, headline
        if outcome == "bimodal":
            assert "bimodal (not gated)" in out
    # A starved side is judged by the starved rule, never as a level of a bimodal case.
    if starved != "neither":
        assert outcome != "bimodal"
        assert "starved" in row["verdict_text"] if "verdict_text" in row else True


def test_the_repro_starved_head_against_a_bimodal_base(tmp_path, capsys):
    """Every head row of harness/empty starved, base bimodal: one slower case, said so, counted so."""
    assert _gate(tmp_path, "head", "base", False, False, "text") == 1
    out = capsys.readouterr().out
    assert "slower (starved in head)" in out
    assert out.splitlines()[-1] == "Gate: FAILED, 1 case slower"
    assert not NAN_WORD.search(out)


def test_the_table_covers_every_outcome(tmp_path, capsys):
    """The combinations above give each outcome the gate words: the table tests what it claims to."""
    outcomes = set()
    for combination in COMBINATIONS:
        _gate(tmp_path, *combination, "json")
        counts = json.loads(capsys.readouterr().out)["counts"]
        outcomes |= {name for name, count in counts.items() if count}
    assert outcomes == {"slower", "faster", "unchanged", "bimodal", "unstable"}
