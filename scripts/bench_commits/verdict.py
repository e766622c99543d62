"""A run's one verdict: the exit code its gates (timing, counts) give together, and the line that states it, first
and last in the comparison's Markdown."""

from __future__ import annotations

from analyze_lib.exit_codes import (EXIT_INCOMPLETE, EXIT_INCONCLUSIVE, EXIT_PASSED, EXIT_REGRESSION,
                                     GATE_PRECEDENCE)

# The word that opens a comparison's verdict line, by its exit code.
VERDICT_WORDS = {EXIT_PASSED: "PASSED", EXIT_REGRESSION: "FAILED", EXIT_INCONCLUSIVE: "INCONCLUSIVE",
                 EXIT_INCOMPLETE: "INCOMPLETE"}


def combine_exit_codes(codes: list[int]) -> int:
    """One exit code for several gates (timing, counts): the first of 1, 5, 4 that any gave, else 0."""
    for code in GATE_PRECEDENCE:
        if code in codes:
            return code
    return EXIT_PASSED


def verdict_line(code: int, headlines: list[str], words: dict[int, str] | None = None) -> str:
    """The verdict in one line: its word (``words``, by default a comparison's, VERDICT_WORDS), its exit code, and
    each part's headline (code, timings, control, counts) in that order, e.g. ``**Verdict: PASSED** (exit 0);
    code: …; timings: …``."""
    return f"**Verdict: {(words or VERDICT_WORDS)[code]}** (exit {code}); " + "; ".join(headlines)


def first_and_last(code: int, headlines: list[str], body: list[str], words: dict[int, str] | None = None) -> list[str]:
    """The comparison's Markdown lines: the verdict line first, where a pull-request comment and a terminal show
    it, then ``body``, then the verdict line again, where a terminal scrolled to the end shows it."""
    line = verdict_line(code, headlines, words)
    return [line, "", *body, line, ""]
