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

import json
import os
import sys
import tempfile
from pathlib import Path

from fake_link import write_launcher

# `dump`: the stand-in for `swift package dump-package`: the worktree's manifest.json when it has one, else the
# manifest of DispatchBench itself (the library and its bench executable).
OWN_MANIFEST = {"name": "DispatchBench", "dependencies": [], "targets": [],
                "products": [{"name": "DispatchBench", "type": {"library": ["automatic"]}, "targets": []},
                             {"name": "bench", "type": {"executable": None}, "targets": ["bench"]}]}

if sys.argv[1:2] == ["dump"]:
    manifest = json.loads(Path("manifest.json").read_text()) if Path("manifest.json").exists() else OWN_MANIFEST
    # As SwiftPM does, a path dependency is resolved against the package's directory.
    for dependency in manifest.get("dependencies", []):
        for entry in dependency.get("fileSystem", []):
            entry["path"] = os.path.normpath(Path.cwd() / entry["path"])
    print(json.dumps(manifest))
    sys.exit(0)
if Path("BROKEN").exists():
    print("Compiling bench Bench.swift", file=sys.stderr)
    print("error: cannot find 'oops' in scope", file=sys.stderr)
    sys.exit(1)
release = Path(".build/release").resolve()
# As SwiftPM does: a lock file for the build directory in the temporary directory, named after its path.
Path(tempfile.gettempdir(), str(release.parent).replace("/", "_") + ".lock").touch()
binary = release / "bench"
write_launcher(str(binary))
(release / "Bench.build").mkdir(exist_ok=True)
# The object holds the commit's code: what makes the fake's speed and counts (SPEED, INSTRUCTIONS) and a file CODE,
# so that two commits differ in code exactly when one of these differs, and the worktree's path, as a #filePath
# literal puts it in a real object.
code = "".join(f"{name}: {Path(name).read_text()}" for name in ("SPEED", "INSTRUCTIONS", "CODE")
               if Path(name).exists())
(release / "Bench.build" / "main.o").write_text(f"an object\n{code}file: {Path.cwd()}/Sources/main.swift\n")
# A dependency's file whose name has a space (swift-atomics has `Unmanaged extensions.swift`): SwiftPM
# single-quotes such a path in the list, and writes the others bare.
(release / "Bench.build" / "Unmanaged extensions.swift.o").write_text("an object\n")
object_list = release / "bench.product" / "Objects.LinkFileList"
object_list.parent.mkdir(exist_ok=True)
object_list.write_text(f"{release / 'Bench.build' / 'main.o'}\n"
                       f"'{release / 'Bench.build' / 'Unmanaged extensions.swift.o'}'\n")
if "-v" in sys.argv[1:] and not os.environ.get("FAKE_BUILD_NO_LINK_LINE"):
    print(f"{sys.executable} -S {Path(__file__).resolve().with_name('fake_link.py')} -L {release} -o {binary} "
          f"-module-name bench -emit-executable -Xlinker '-rpath=$ORIGIN' @{object_list} -lm")
