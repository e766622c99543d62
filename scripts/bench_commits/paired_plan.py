"""What a paired run (``--paired``) will do, decided without side effects: its settings, each
worker's arguments, the order of the cases in a round, which build runs first in each pair, and
whether the time budget allows a case another pair.

A paired run starts one ``bench worker`` per build for each round (fresh processes every round,
so that the comparison spans several process pairs), visits the cases in an order shuffled by the
seed and the round, sets each case up on both workers and alternates their samples pair by pair:
ABBA across pairs (A B, B A, A B, ...), from a side chosen by the seed for each case and round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from analyze_lib.judge import paired as paired_rule

from .errors import ComparisonError
from .bench_options import option_name
from .sides import SIDE_A, SIDE_B

# Why each default below is what it is, with the findings that chose it: docs/paired-design.md. The comments
# here state only what each setting does.

# Rounds: fresh pairs of workers, one after the other; the rounds, not the pairs, are the paired rule's
# independent units. Every case gets paired_rule.MIN_CALL_ROUNDS, the fewest a paired case calls a change from,
# quick or not; further rounds, up to the maximum, visit the cases ``cases_to_visit`` picks while the time
# budget lasts.
DEFAULT_ROUNDS = paired_rule.MIN_CALL_ROUNDS
QUICK_ROUNDS = paired_rule.MIN_CALL_ROUNDS
DEFAULT_MAX_ROUNDS = 240
QUICK_MAX_ROUNDS = 16
# Pairs a case gets in each round that visits it; a round's value is their median. One: a coarse case is
# given more rounds, not more pairs in a round.
DEFAULT_VISIT_PAIRS = 1
QUICK_VISIT_PAIRS = 1
# Sample length: the shortest at which a visit's own overhead is not most of its cost.
DEFAULT_SAMPLE_MS = 8.0
# Warm-up samples before each kept one: none. The other build's sample, milliseconds later on the same CPU, is
# woken the same way, so whatever a wake-up costs falls on both sides of the pair.
WARMUP_SAMPLES = 0
# Where a case's threads run. "same-cpu": a one-thread case runs with both builds' workers confined to one CPU,
# the same for both (which one alternates by round; ``case_cpus``); cases of more threads run free. "pinned":
# one-thread cases as "same-cpu"; a case of more threads has its team's thread i on one CPU alone, the same in
# both workers (``team_cpus``). "free": the scheduler places every thread, as in `bench`. Pinned is the default
# because a pair cancels the host's noise only when its two samples run where the other's did.
PLACEMENTS = ("same-cpu", "pinned", "free")
DEFAULT_PLACEMENT = "pinned"
# The time budget of the measuring (both builds, all rounds); the first ``rounds`` always run whole.
DEFAULT_BUDGET_MINUTES = 20.0
QUICK_BUDGET_MINUTES = 10.0
# When only some cases are timed (case_selection), the default budget is theirs: the whole suite's in proportion to
# the cases timed, at least this much: with the control of the cases not timed (1.5 to 2 minutes) and their counts
# (seconds), a change to one store got its verdict 3:48 after its head's build (4:28 at 2.5). A variant whose base
# starves takes longer in the first rounds, which run whole whatever the budget: docs/findings/2026-11-29-a-verdict-
# in-five-minutes.md.
LEAST_SELECTED_BUDGET_MINUTES = 2.0


def selected_budget(quick: bool, timed: int, every: int) -> float:
    """The default budget, in minutes, of a comparison that times ``timed`` of ``every`` cases."""
    whole = QUICK_BUDGET_MINUTES if quick else DEFAULT_BUDGET_MINUTES
    return min(whole, max(LEAST_SELECTED_BUDGET_MINUTES, whole * timed / max(every, 1)))

# bench options a paired run sets itself (besides those of every run, bench_options.RESERVED_BENCH_OPTIONS).
PAIRED_RESERVED_OPTIONS = ("--samples", "--sample-time")


@dataclass(frozen=True)
class PairedSettings:
    """The shape of a paired run."""

    rounds: int
    max_rounds: int
    visit_pairs: int
    sample_ns: int
    budget_seconds: float
    warmup: int = WARMUP_SAMPLES
    placement: str = DEFAULT_PLACEMENT


def settings(quick: bool, rounds: int | None = None, max_rounds: int | None = None, visit_pairs: int | None = None,
             sample_ms: float | None = None, budget_minutes: float | None = None,
             placement: str | None = None) -> PairedSettings:
    """The settings the options ask for, the defaults (quick or not) for those not given."""
    def given(value, default):
        return default if value is None else value

    rounds = given(rounds, QUICK_ROUNDS if quick else DEFAULT_ROUNDS)
    return PairedSettings(
        rounds=rounds,
        max_rounds=max(given(max_rounds, QUICK_MAX_ROUNDS if quick else DEFAULT_MAX_ROUNDS), rounds),
        visit_pairs=given(visit_pairs, QUICK_VISIT_PAIRS if quick else DEFAULT_VISIT_PAIRS),
        sample_ns=int(round(given(sample_ms, DEFAULT_SAMPLE_MS) * 1_000_000)),
        budget_seconds=60.0 * given(budget_minutes, QUICK_BUDGET_MINUTES if quick else DEFAULT_BUDGET_MINUTES),
        placement=given(placement, DEFAULT_PLACEMENT),
    )


def worker_arguments(bench_options: list[str], quick: bool, rounds: int, seed: int, environment: Path) -> list[str]:
    """The arguments of one build's ``bench worker`` (after the binary): bench's options choose the
    cases and are recorded in the rows, as in a run of rounds."""
    return [*bench_options, *(["--quick"] if quick else []), "--rounds", str(rounds), "--seed", str(seed),
            "--run-environment", str(environment), "worker"]


def case_order(cases: list, seed: int, round_number: int) -> list:
    """``cases`` in the order round ``round_number`` visits them: shuffled by the seed and the round,
    the same for the same seed."""
    shuffled = list(cases)
    random.Random(f"cases-{seed}-{round_number}").shuffle(shuffled)
    return shuffled


def start_order(round_number: int) -> tuple[str, str]:
    """Which build's worker starts first in a round: A in odd rounds, B in even ones. The worker started
    second often got the slower thread placement for a whole round (docs/paired-design.md#rounds);
    alternating makes that a noise the rounds average out and measure, not a bias against
    one build."""
    return (SIDE_A, SIDE_B) if round_number % 2 == 1 else (SIDE_B, SIDE_A)


def first_sides(seed: int, round_number: int, case_label: str, pairs: int) -> list[str]:
    """Which side runs first in each of ``pairs`` pairs of one case in one round: ABBA across pairs
    (the first side alternates), starting from a side the seed picks for this case and round, so
    that neither side is always first, nor first in the pair that follows a setup."""
    start = random.Random(f"first-{seed}-{round_number}-{case_label}").randrange(2)
    return [(SIDE_A, SIDE_B)[(pair + start) % 2] for pair in range(pairs)]


def case_cpus(threads: int, round_number: int, cpus: set[int], placement: str) -> set[int]:
    """The CPUs both workers may run on while they measure a case of ``threads`` threads in round
    ``round_number``, out of ``cpus`` (those this process may use): one of them for a one-thread case
    under "same-cpu" (the round picks which, in turn), all of them otherwise."""
    if placement not in PLACEMENTS:
        raise ComparisonError(f"unknown placement {placement!r} (one of {', '.join(PLACEMENTS)})")
    if placement == "free" or threads > 1 or not cpus:
        return set(cpus)
    return {_in_turn(cpus, round_number)[0]}


def _in_turn(cpus: set[int], round_number: int) -> list[int]:
    """``cpus`` in order, rotated so that round ``round_number`` starts at the next one in turn."""
    ordered = sorted(cpus)
    shift = (round_number - 1) % len(ordered)
    return ordered[shift:] + ordered[:shift]


def team_cpus(threads: int, round_number: int, cpus: set[int], placement: str) -> list[int] | None:
    """Where a case's team threads run under "pinned", thread i on the i-th CPU of the list (modulo its length),
    the same in both workers: all of ``cpus``, rotated by the round so that no thread of a team keeps one vCPU in
    every round. None (the scheduler places them) under the other placements, for a one-thread case (which
    ``case_cpus`` confines) and without CPUs. The worker's ThreadTeam (Sources/BenchCore/ThreadTeam.swift)
    pins its threads to this list; ``Worker.confine`` confines a whole worker to ``case_cpus``."""
    if placement != "pinned" or threads < 2 or not cpus:
        return None
    return _in_turn(cpus, round_number)


def budget_allows_visit(elapsed: float, budget: float, seconds_per_visit: float) -> bool:
    """Whether a further round may visit one more case: only while what has been spent plus one
    visit (at the mean cost of a visit so far) stays within the budget. The first ``rounds`` are
    not asked: they always run whole."""
    return elapsed + seconds_per_visit <= budget


def cases_to_visit(wanted: dict, seconds_per_visit: dict, budget_left: float) -> list:
    """The cases a further round visits, in ``wanted``'s order. ``wanted`` maps each case to its
    ``paired_rule.Refinement``: the resolution it works toward next and the rounds it still needs to reach it
    (0 when it has reached the finest, None when it cannot within the rounds allowed);
    ``seconds_per_visit`` maps it to what one of its visits costs.

    Coarsest goal first, then cheapest: the cases working toward the coarsest goal are taken, those whose
    goal costs least (rounds wanted times seconds a visit) first, while the sum of their costs fits in
    ``budget_left``, then those of the next goal, and so on. So the budget brings as many cases as it
    can to 2x, then to 1.10x, before it refines a case from 1.05x to 1.03x, and does not spread over
    cases it cannot bring to their goal. When no case's goal fits (or none can be reached), every case
    not yet at the finest goal is visited, as a round of all of them uses what is left."""
    unfinished = [case for case, refinement in wanted.items() if refinement.rounds != 0]
    costs = sorted((-wanted[case].goal, wanted[case].rounds * seconds_per_visit[case], index)
                   for index, case in enumerate(unfinished) if wanted[case].rounds is not None)
    chosen, planned = set(), 0.0
    for _, cost, index in costs:
        if planned + cost <= budget_left:
            chosen.add(index)
            planned += cost
    if not chosen:
        return unfinished
    return [case for index, case in enumerate(unfinished) if index in chosen]


def check_paired_bench_options(options: list[str]) -> list[str]:
    """The bench options of a paired run: refuses those it sets per request (ComparisonError)."""
    for argument in options:
        if option_name(argument) in PAIRED_RESERVED_OPTIONS:
            raise ComparisonError(f"{option_name(argument)} is set by bench-commits --paired (see --sample-time and "
                                  "--visit-pairs); leave it out of the bench options")
    return options


def other(side: str) -> str:
    return SIDE_B if side == SIDE_A else SIDE_A
