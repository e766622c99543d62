#!/usr/bin/env python3
"""A stand-in for `swift build` in bench-commits' tests: run in a worktree, it installs fake_bench.py as
.build/release/bench beside one object file and its list, or fails like a broken build when the commit has a
file named BROKEN. Its object holds the commit's code (SPEED, INSTRUCTIONS, CODE). With `-v` it also prints the
line that links the binary, as SwiftPM does; that line runs fake_link.py, the stand-in for the toolchain's driver,
which writes the launcher again to its `-o` and tells the fake the section order it was linked with
(FAKE_BENCH_LINK), so that a test can see each round's link.
Like SwiftPM, it leaves a lock file for the build directory in the temporary directory. As `dump`, it stands in
for `swift package dump-package`. FAKE_BUILD_NO_LINK_LINE=1 leaves the line out, as a build that is not SwiftPM's
would; FAKE_LINK_FAILS=1 makes every link fail."""

import os
import sys

from fake_link import write_launcher

# It runs at every build of every comparison in the tests, so it imports only os and sys (json only for `dump`),
# and is run with -S, as fake_link.py is.

# `dump`: the stand-in for `swift package dump-package`: the worktree's manifest.json when it has one, else the
# manifest of DispatchBench itself (the library and its bench executable).
OWN_MANIFEST = {"name": "DispatchBench", "dependencies": [], "targets": [],
                "products": [{"name": "DispatchBench", "type": {"library": ["automatic"]}, "targets": []},
                             {"name": "bench", "type": {"executable": None}, "targets": ["bench"]}]}


def read(path: str) -> str:
    with open(path) as handle:
        return handle.read()


def write(path: str, text: str) -> None:
    with open(path, "w") as handle:
        handle.write(text)


if sys.argv[1:2] == ["dump"]:
    import json

    manifest = json.loads(read("manifest.json")) if os.path.exists("manifest.json") else OWN_MANIFEST
    # As SwiftPM does, a path dependency is resolved against the package's directory.
    for dependency in manifest.get("dependencies", []):
        for entry in dependency.get("fileSystem", []):
            entry["path"] = os.path.normpath(os.path.join(os.getcwd(), entry["path"]))
    print(json.dumps(manifest))
    sys.exit(0)
if os.path.exists("BROKEN"):
    print("Compiling bench Bench.swift", file=sys.stderr)
    print("error: cannot find 'oops' in scope", file=sys.stderr)
    sys.exit(1)
release = os.path.realpath(".build/release")
# As SwiftPM does: a lock file for the build directory in the temporary directory, named after its path.
write(os.path.join(os.environ.get("TMPDIR") or "/tmp", os.path.dirname(release).replace("/", "_") + ".lock"), "")
binary = os.path.join(release, "bench")
write_launcher(binary)
objects = os.path.join(release, "Bench.build")
os.makedirs(objects, exist_ok=True)
# The object holds the commit's code: what makes the fake's speed and counts (SPEED, INSTRUCTIONS) and a file CODE,
# so that two commits differ in code exactly when one of these differs, and the worktree's path, as a #filePath
# literal puts it in a real object.
code = "".join(f"{name}: {read(name)}" for name in ("SPEED", "INSTRUCTIONS", "CODE") if os.path.exists(name))
write(os.path.join(objects, "main.o"), f"an object\n{code}file: {os.getcwd()}/Sources/main.swift\n")
# A dependency's file whose name has a space (swift-atomics has `Unmanaged extensions.swift`): SwiftPM
# single-quotes such a path in the list, and writes the others bare.
write(os.path.join(objects, "Unmanaged extensions.swift.o"), "an object\n")
object_list = os.path.join(release, "bench.product", "Objects.LinkFileList")
os.makedirs(os.path.dirname(object_list), exist_ok=True)
write(object_list, f"{os.path.join(objects, 'main.o')}\n'{os.path.join(objects, 'Unmanaged extensions.swift.o')}'\n")
if "-v" in sys.argv[1:] and not os.environ.get("FAKE_BUILD_NO_LINK_LINE"):
    fake_link = os.path.join(os.path.dirname(os.path.realpath(__file__)), "fake_link.py")
    print(f"{sys.executable} -S {fake_link} -L {release} -o {binary} "
          f"-module-name bench -emit-executable -Xlinker '-rpath=$ORIGIN' @{object_list} -lm")
