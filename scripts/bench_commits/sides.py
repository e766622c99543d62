"""The two sides of a comparison, A (the base) and B (the head), and the result files named after them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# Sides, in the order a comparison names them: A is the base, B the head.
SIDE_A = "A"
SIDE_B = "B"

SHORT_COMMIT_LENGTH = 7  # as bench's RunEnvironment.shortCommit


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
