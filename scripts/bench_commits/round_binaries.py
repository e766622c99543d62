"""A binary of each build for every round of a paired run, made for that round: a fresh link when the build's
link could be kept (link_kit), else a copy.

A round's unit of evidence is its pair of worker processes, and the rule absorbs what varies from round to
round. What one side keeps through every round instead looks like a change to it. ASLR already gives every
process its own stack, heap and mapping addresses. What a build keeps is where its linker put each function
and each datum, and a hot loop can run a steady several percent faster or slower by that alone: two builds of
the same code, or a change to one variant that moves where everything else lands, then differ in a case whose
code did not change (docs/paired-design.md#a-fresh-link-for-every-round). So each round links each side's
objects anew with lld, its sections in an order shuffled by a seed of that side and round
(link_kit.shuffle_seed): the layout becomes round-to-round spread, and a comparison of one build with itself
meets the same spread as one of two builds. A build without a kit (not a SwiftPM build) runs from a copy of its
binary per round, which varies at least the file and the pages it occupies.

The round's binary lies beside the build's (so that its runpath's ``$ORIGIN`` and resource bundles resolve), the
two sides' have paths of one length, and they are removed when the round ends, however it ends.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .link_kit import LinkKit, shuffle_seed


def round_binary_path(binary: Path, side: str, round_number: int) -> Path:
    """Where ``side``'s binary for round ``round_number`` lies: beside the build's, a hidden name of one length
    for every side (one letter) and round below 10,000."""
    return binary.with_name(f".{binary.name}-round{round_number:04d}-{side}")


@contextmanager
def round_binaries(builds: dict[str, tuple[Path, LinkKit | None]], round_number: int, seed: int,
                   log: Path) -> Iterator[dict[str, Path]]:
    """Make each side's binary for this round (``{side: (binary, kit)}`` to ``{side: round binary}``): linked
    by its kit with the side's and round's shuffle seed, or copied when it has none. Removed on leaving, also
    after an error or an interruption. Two sides of one build get two binaries. LinkError when a link fails."""
    made: dict[str, Path] = {}
    try:
        for side, (binary, kit) in builds.items():
            made[side] = round_binary_path(binary, side, round_number)
            if kit is None:
                shutil.copy2(binary, made[side])
            else:
                kit.link(made[side], shuffle_seed(seed, round_number, side), log)
        yield made
    finally:
        for path in made.values():
            path.unlink(missing_ok=True)
