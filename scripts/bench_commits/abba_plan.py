"""What an ABBA run (``--abba``) will do, decided without side effects: the order of its bench invocations
and each one's arguments. Each invocation is one round of one side, in a fresh process.
"""

from __future__ import annotations

from pathlib import Path

from .sides import SIDE_A, SIDE_B

DEFAULT_PAIRS = 10
# The gate decides on between-round evidence only from this many rounds a side (compare.MIN_GATE_ROUNDS).
MIN_DECIDING_PAIRS = 5


def abba_order(pairs: int) -> list[tuple[int, str]]:
    """The invocations of a run as (round, side): pair i runs A then B when i is odd, B then A when even,
    so neither side always runs first (a warming or cooling machine favours both equally)."""
    order: list[tuple[int, str]] = []
    for pair in range(1, pairs + 1):
        sides = (SIDE_A, SIDE_B) if pair % 2 == 1 else (SIDE_B, SIDE_A)
        order.extend((pair, side) for side in sides)
    return order


def round_arguments(bench_options: list[str], quick: bool, pairs: int, round_number: int, seed: int,
                    environment: Path, output: Path) -> list[str]:
    """The arguments of one round's bench invocation (after the binary)."""
    return [*bench_options, *(["--quick"] if quick else []),
            "--rounds", str(pairs), "--round", str(round_number), "--seed", str(seed),
            "--run-environment", str(environment), "--output", str(output)]
