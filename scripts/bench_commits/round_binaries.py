"""A fresh copy of each build's binary for every round of a paired run.

A round's unit of evidence is its pair of worker processes, and the rule absorbs what varies from round to
round. What one side keeps through every round instead looks like a change to it. Two builds of the same
code have byte-identical loaded code (docs/paired-design.md#a-copy-of-each-build-for-every-round), and ASLR already
gives every process its own stack, heap and mapping addresses; what a build still keeps is its file, and
with it the pages that file occupies in memory, which every process of it shares. So each round runs each
side from a copy of its binary made for that round: whatever a file's placement does to a case becomes
round-to-round spread, and a comparison of one build with itself meets the same spread as one of two
builds.

The copy lies beside the binary, so that what the binary finds beside itself (its runpath's ``$ORIGIN``,
resource bundles) it still finds, and the copies of the two sides have paths of one length. It is removed
when the round ends, however it ends.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def round_copy_path(binary: Path, side: str, round_number: int) -> Path:
    """Where ``side``'s copy of ``binary`` for round ``round_number`` lies: beside it, a hidden name of one
    length for every side (one letter) and round below 10,000."""
    return binary.with_name(f".{binary.name}-round{round_number:04d}-{side}")


@contextmanager
def round_copies(binaries: dict[str, Path], round_number: int) -> Iterator[dict[str, Path]]:
    """Copy each side's binary for this round (``{side: binary}`` to ``{side: copy}``), and remove the copies
    on leaving, also after an error or an interruption. Two sides of one binary get two copies."""
    copies: dict[str, Path] = {}
    try:
        for side, binary in binaries.items():
            copies[side] = round_copy_path(binary, side, round_number)
            shutil.copy2(binary, copies[side])
        yield copies
    finally:
        for copy in copies.values():
            copy.unlink(missing_ok=True)
