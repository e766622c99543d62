"""A run's one verdict: the exit code its gates (timing, counts) give together, and the word that opens its
last line."""

from __future__ import annotations

from analyze_lib.exit_codes import (EXIT_INCOMPLETE, EXIT_INCONCLUSIVE, EXIT_PASSED, EXIT_REGRESSION,
                                     GATE_PRECEDENCE)

# The word that opens the last line of a comparison, by its exit code.
VERDICT_WORDS = {EXIT_PASSED: "PASSED", EXIT_REGRESSION: "FAILED", EXIT_INCONCLUSIVE: "INCONCLUSIVE",
                 EXIT_INCOMPLETE: "INCOMPLETE"}


def combine_exit_codes(codes: list[int]) -> int:
    """One exit code for several gates (timing, counts): the first of 1, 5, 4 that any gave, else 0."""
    for code in GATE_PRECEDENCE:
        if code in codes:
            return code
    return EXIT_PASSED
