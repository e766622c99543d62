#!/usr/bin/env python3
"""The stand-in for the toolchain's driver in the link line fake_build.py prints: run as
`fake_link.py -o BINARY @LIST --shuffle-sections=GLOB=SEED ...`, it checks that every object the lists name is
there, and writes the launcher of fake_bench.py to BINARY again, telling the fake the section order it was linked
with (FAKE_BENCH_LINK), so that a test can see each round's link. FAKE_LINK_FAILS=1 makes every link fail.

It runs on every round of every comparison in the tests, so it imports nothing but os and sys (and is run with
-S): its start is most of its cost. fake_build.py writes the build's own launcher with write_launcher too."""

import os
import sys

# A launcher rather than a copy, so that the fake finds the fixtures beside it; it tells the fake the path
# it was started by (FAKE_BENCH_PROGRAM), which a copy of it changes.
FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_bench.py")


def write_launcher(binary: str, link: str = "") -> None:
    os.makedirs(os.path.dirname(binary), exist_ok=True)
    # -S: the fake needs nothing from site-packages, and starts sooner without them.
    with open(binary, "w") as handle:
        handle.write(f'#!/bin/sh\nFAKE_BENCH_PROGRAM="$0" FAKE_BENCH_LINK="{link}" '
                     f'exec "{sys.executable}" -S "{FAKE}" "$@"\n')
    os.chmod(binary, 0o755)


def _listed(line: str) -> str:
    """One line of an object list: a path, single-quoted when it has a space (as SwiftPM writes it)."""
    line = line.strip()
    return line[1:-1] if len(line) > 1 and line[0] == line[-1] == "'" else line


def link(args: list[str]) -> int:
    if os.environ.get("FAKE_LINK_FAILS"):
        print("ld.lld: error: undefined symbol: oops", file=sys.stderr)
        return 1
    objects = []
    for arg in args:
        if arg.startswith("@"):
            with open(arg[1:]) as handle:
                objects += [_listed(line) for line in handle if line.strip()]
    if not objects or not all(os.path.isfile(name) for name in objects):
        print(f"link: missing object among {objects}", file=sys.stderr)
        return 1
    seeds = {arg.rsplit("=", 1)[1] for arg in args if arg.startswith("--shuffle-sections=")}
    write_launcher(args[args.index("-o") + 1], link=",".join(sorted(seeds)))
    return 0


if __name__ == "__main__":
    sys.exit(link(sys.argv[1:]))
