#!/usr/bin/env python3
"""A stand-in for `swift build` in bench-commits' tests: run in a worktree, it installs fake_bench.py as
.build/release/bench beside one object file and its list, or fails like a broken build when the commit has a
file named BROKEN. With `-v` it also prints the line that links the binary, as SwiftPM does; that line runs this
file as `link`, the stand-in for the toolchain's driver, which writes the launcher again to its `-o` and tells
the fake the section order it was linked with (FAKE_BENCH_LINK), so that a test can see each round's link.
Like SwiftPM, it leaves a lock file for the build directory in the temporary directory. FAKE_BUILD_NO_LINK_LINE=1
leaves the line out, as a build that is not SwiftPM's would; FAKE_LINK_FAILS=1 makes every link fail."""

import json
import os
import sys
import tempfile
from pathlib import Path

# A launcher rather than a copy, so that the fake finds the fixtures beside it; it tells the fake the path
# it was started by (FAKE_BENCH_PROGRAM), which a copy of it changes.
FAKE = Path(__file__).resolve().parent / "fake_bench.py"


def write_launcher(binary: Path, link: str = "") -> None:
    binary.parent.mkdir(parents=True, exist_ok=True)
    binary.write_text(f'#!/bin/sh\nFAKE_BENCH_PROGRAM="$0" FAKE_BENCH_LINK="{link}" '
                      f'exec "{sys.executable}" "{FAKE}" "$@"\n')
    binary.chmod(0o755)


def link(args: list[str]) -> int:
    if os.environ.get("FAKE_LINK_FAILS"):
        print("ld.lld: error: undefined symbol: oops", file=sys.stderr)
        return 1
    objects = [json.loads(line) if line.startswith('"') else line
               for arg in args if arg.startswith("@") for line in Path(arg[1:]).read_text().splitlines()]
    if not objects or not all(Path(name).is_file() for name in objects):
        print(f"link: missing object among {objects}", file=sys.stderr)
        return 1
    seeds = {arg.rsplit("=", 1)[1] for arg in args if arg.startswith("--shuffle-sections=")}
    write_launcher(Path(args[args.index("-o") + 1]), link=",".join(sorted(seeds)))
    return 0


if sys.argv[1:2] == ["link"]:
    sys.exit(link(sys.argv[2:]))
if Path("BROKEN").exists():
    print("Compiling bench Bench.swift", file=sys.stderr)
    print("error: cannot find 'oops' in scope", file=sys.stderr)
    sys.exit(1)
release = Path(".build/release").resolve()
# As SwiftPM does: a lock file for the build directory in the temporary directory, named after its path.
Path(tempfile.gettempdir(), str(release.parent).replace("/", "_") + ".lock").touch()
binary = release / "bench"
write_launcher(binary)
(release / "Bench.build").mkdir(exist_ok=True)
(release / "Bench.build" / "main.o").write_text("an object\n")
object_list = release / "bench.product" / "Objects.LinkFileList"
object_list.parent.mkdir(exist_ok=True)
object_list.write_text(f"{release / 'Bench.build' / 'main.o'}\n")
if "-v" in sys.argv[1:] and not os.environ.get("FAKE_BUILD_NO_LINK_LINE"):
    print(f"{sys.executable} {Path(__file__).resolve()} link -L {release} -o {binary} -module-name bench "
          f"-emit-executable -Xlinker '-rpath=$ORIGIN' @{object_list} -lm")
