"""What a run will do, decided without side effects: the ABBA order, each invocation's arguments, the
result file names, how bench's options carry over to ``bench count``, and the verdicts (the exit code of
a run, the gate check's judgement of one comparison).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from analyze_lib.exit_codes import (EXIT_BAD_INPUT, EXIT_INCOMPLETE, EXIT_INCONCLUSIVE,  # noqa: F401 (bench_commits' names)
                                     EXIT_INTERRUPTED, EXIT_PASSED, EXIT_REGRESSION, GATE_PRECEDENCE)
from analyze_lib.judge.compare import FASTER, SLOWER, ResolutionGroup

from .errors import ComparisonError

# Sides, in the order a comparison names them: A is the base, B the head.
SIDE_A = "A"
SIDE_B = "B"

DEFAULT_PAIRS = 10
# The gate decides on between-round evidence only from this many rounds a side (compare.MIN_GATE_ROUNDS).
MIN_DECIDING_PAIRS = 5
SHORT_COMMIT_LENGTH = 7  # as bench's RunEnvironment.shortCommit


# bench's exit statuses that bench-commits acts on.
BENCH_UNAVAILABLE = 69  # bench count: valgrind, jemalloc or objcopy not installed
BENCH_INTERRUPTED = (130, 143)

# Options bench-commits sets itself on every invocation; given after `--` they would contradict it.
RESERVED_BENCH_OPTIONS = ("--rounds", "--round", "--seed", "--run-environment", "--output", "--overwrite")

# The case the gate check plants a slowdown in (bench --spin-scale scales it alone).
SPIN_SUITE = "harness"
SPIN_BENCHMARK = "spin"


def abba_order(pairs: int) -> list[tuple[int, str]]:
    """The invocations of a run as (round, side): pair i runs A then B when i is odd, B then A when even,
    so neither side always runs first (a warming or cooling machine favours both equally)."""
    order = []
    for pair in range(1, pairs + 1):
        sides = (SIDE_A, SIDE_B) if pair % 2 == 1 else (SIDE_B, SIDE_A)
        order.extend((pair, side) for side in sides)
    return order


def option_name(argument: str) -> str:
    """The option an argument names: ``--filter=x`` and ``--filter`` both name ``--filter``."""
    return argument.split("=", 1)[0]


def check_bench_options(options: list[str]) -> tuple[list[str], bool]:
    """Validate the options given after ``--``; return them without ``--quick`` and whether it was there
    (``--quick`` is bench-commits' own too, and goes to bench count as well).

    Raises ComparisonError for a subcommand or an option that bench-commits sets itself.
    """
    if options and not options[0].startswith("-"):
        raise ComparisonError(f"bench options after '--' must be options, not a subcommand: {options[0]!r}")
    kept, quick = [], False
    for argument in options:
        name = option_name(argument)
        if name in RESERVED_BENCH_OPTIONS:
            raise ComparisonError(f"{name} is set by bench-commits for each round; leave it out of the bench options")
        if argument == "--quick":
            quick = True
            continue
        kept.append(argument)
    return kept, quick


def filter_option(options: list[str]) -> list[str]:
    """The ``--filter`` among bench options, as arguments for ``bench count`` (empty when none; the last
    one wins, as in bench)."""
    found: list[str] = []
    for index, argument in enumerate(options):
        if argument == "--filter" and index + 1 < len(options):
            found = ["--filter", options[index + 1]]
        elif argument.startswith("--filter="):
            found = ["--filter", argument.split("=", 1)[1]]
    return found


def round_arguments(bench_options: list[str], quick: bool, pairs: int, round_number: int, seed: int,
                    environment: Path, output: Path) -> list[str]:
    """The arguments of one round's bench invocation (after the binary)."""
    return [*bench_options, *(["--quick"] if quick else []),
            "--rounds", str(pairs), "--round", str(round_number), "--seed", str(seed),
            "--run-environment", str(environment), "--output", str(output)]


def count_arguments(bench_options: list[str], quick: bool, output: Path) -> list[str]:
    """The arguments of one side's ``bench count``: the same --quick and --filter as the timed rounds."""
    return ["count", *(["--quick"] if quick else []), *filter_option(bench_options), "--output", str(output)]


def short(commit: str) -> str:
    """A commit as bench names files after it."""
    return commit[:SHORT_COMMIT_LENGTH]


def side_names(base: str, head: str) -> tuple[str, str]:
    """The name parts of the two sides' files: the short commits, or ``<short>-a`` and ``<short>-b`` when
    they are one (or look alike)."""
    a, b = short(base), short(head)
    if a == b:
        return f"{a}-a", f"{b}-b"
    return a, b


@dataclass(frozen=True)
class ResultPaths:
    """Where one run's CSVs go: the timed rounds of each side and, when counted, each side's counts."""

    timing_a: Path
    timing_b: Path
    counts_a: Path
    counts_b: Path

    def all(self) -> tuple[Path, ...]:
        return (self.timing_a, self.timing_b, self.counts_a, self.counts_b)


def result_paths(directory: Path, stamp: str, name_a: str, name_b: str, exists=Path.exists) -> ResultPaths:
    """``directory/<stamp>-<name>.csv`` for each side and ``counts-<stamp>-<name>.csv`` for its counts; when
    any of the four is taken, all get ``-2``, ``-3``, … (as bench does), so a run never appends to or
    overwrites an earlier one and its files keep one name."""
    suffix = ""
    attempt = 1
    while True:
        paths = ResultPaths(directory / f"{stamp}-{name_a}{suffix}.csv", directory / f"{stamp}-{name_b}{suffix}.csv",
                            directory / f"counts-{stamp}-{name_a}{suffix}.csv",
                            directory / f"counts-{stamp}-{name_b}{suffix}.csv")
        if not any(exists(path) for path in paths.all()):
            return paths
        attempt += 1
        suffix = f"-{attempt}"


# The word that opens the last line of a comparison, by its exit code.
VERDICT_WORDS = {EXIT_PASSED: "PASSED", EXIT_REGRESSION: "FAILED", EXIT_INCONCLUSIVE: "INCONCLUSIVE",
                 EXIT_INCOMPLETE: "INCOMPLETE"}


def combine_exit_codes(codes: list[int]) -> int:
    """One exit code for several gates (timing, counts): the first of 1, 5, 4 that any gave, else 0."""
    for code in GATE_PRECEDENCE:
        if code in codes:
            return code
    return EXIT_PASSED


@dataclass(frozen=True)
class SpinRow:
    """One harness/spin case in a gate-check comparison: its label, the gate's outcome (slower, unchanged,
    unstable, …) and its noise floor (the larger side's; NaN when it has none)."""

    label: str
    outcome: str
    floor: float

    def describe(self) -> str:
        floor = "" if math.isnan(self.floor) else f", floor {self.floor:.2f}×"
        return f"{self.label} ({self.outcome}{floor})"


@dataclass(frozen=True)
class Observed:
    """What one gate-check comparison showed, as the gate saw it.

    ``flagged`` are the cases judged slower or faster, as (label, verdict); ``spin`` are the harness/spin
    cases compared; ``resolutions`` the paired cases' resolutions per suite and thread count (none when the
    runs were not paired).
    """

    compared: int
    flagged: tuple[tuple[str, str], ...]
    spin: tuple[SpinRow, ...]
    unstable: int
    gate_exit: int
    resolutions: tuple[ResolutionGroup, ...] = ()


@dataclass(frozen=True)
class GateCheckSpec:
    """One of the gate check's comparisons: HEAD against HEAD, harness/spin's work scaled ``spin_scale``
    times on side B; ``must_resolve`` says whether the gate must call that in one harness/spin row at least
    (a change it must resolve on any runner it gates), rather than report how far it resolved it.

    Both sides of a planted comparison get ``--spin-scale``, A at 1, written to one width, so that the two
    processes differ in the factor's value and nothing else: not in the length of their arguments, nor in
    what parsing them allocates. (With the option on B alone, an unplanted case was once called faster in B;
    that the arguments were the cause is not proven.)"""

    name: str
    spin_scale: float = 1.0
    must_resolve: bool = False

    @property
    def planted(self) -> bool:
        return self.spin_scale != 1

    @property
    def a_options(self) -> tuple[str, ...]:
        return _spin_scale_options(1.0) if self.planted else ()

    @property
    def b_options(self) -> tuple[str, ...]:
        return _spin_scale_options(self.spin_scale) if self.planted else ()


def _spin_scale_options(factor: float) -> tuple[str, ...]:
    return ("--spin-scale", f"{factor:.2f}")


GATE_CHECKS = (
    GateCheckSpec("A/A"),
    GateCheckSpec("spin ×1.25", 1.25, must_resolve=True),
    GateCheckSpec("spin ×1.10", 1.10),
)
# A quick paired run has few rounds, so the change it must resolve is ×3, and ×1.25 is reported
# (docs/bench-commits.md#the-gates-check---check-gate).
QUICK_PAIRED_GATE_CHECKS = (
    GateCheckSpec("A/A"),
    GateCheckSpec("spin ×3", 3.0, must_resolve=True),
    GateCheckSpec("spin ×1.25", 1.25),
)


def planted_check(factor: float) -> GateCheckSpec:
    """The gate check's comparison with harness/spin slowed ``factor`` times on side B (--plant)."""
    return GateCheckSpec(f"spin ×{factor:.2f}", factor)


def gate_checks(quick: bool, paired: bool) -> tuple[GateCheckSpec, ...]:
    """The gate check's comparisons: ``QUICK_PAIRED_GATE_CHECKS`` for a quick paired check, else
    ``GATE_CHECKS``."""
    return QUICK_PAIRED_GATE_CHECKS if quick and paired else GATE_CHECKS


def judge_check_gate(spec: GateCheckSpec, observed: Observed) -> tuple[bool, str]:
    """Whether a comparison came out as it must, and why in a few words.

    A/A must flag nothing and decide something (a gate that is inconclusive resolves nothing). A planted
    slowdown must flag nothing but harness/spin and never call it faster: those would be the gate's errors.
    Whether it resolves the slowdown is what the runner allows: each harness/spin row not called slower is
    named with its outcome and floor (unstable: its floor reaches the smallest change the gate calls;
    unchanged: not significant among all the cases). ``must_resolve`` asks for one row called slower at
    least: a gate that resolves no such change on this runner fails.
    """
    if not spec.planted:
        if observed.flagged:
            return False, f"flagged {len(observed.flagged)} case(s) of identical code"
        if observed.gate_exit != EXIT_PASSED:
            return False, f"gate exit {observed.gate_exit}: nothing could be decided"
        return True, "nothing flagged"
    if not observed.spin:
        return False, f"no {SPIN_SUITE}/{SPIN_BENCHMARK} case compared"
    spin_labels = {row.label for row in observed.spin}
    others = [label for label, _ in observed.flagged if label not in spin_labels]
    if others:
        return False, f"flagged {len(others)} other case(s): " + ", ".join(others)
    faster = [row.label for row in observed.spin if row.outcome == FASTER]
    if faster:
        return False, "called a slowed-down case faster: " + ", ".join(faster)
    caught = sum(row.outcome == SLOWER for row in observed.spin)
    missed = [row.describe() for row in observed.spin if row.outcome != SLOWER]
    if spec.must_resolve and not caught:
        return False, "resolved in no row: " + ", ".join(missed)
    found = f"{caught} of {len(observed.spin)} {SPIN_SUITE}/{SPIN_BENCHMARK} rows slower"
    return True, found + (f" (not resolved: {', '.join(missed)})" if missed else "") + ", nothing else"
