"""The link kit's link line: read from the build's own verbose log, and only when that log holds none, from a
verbose relink (which, given to SwiftPM, compiles every module again: link_kit.VERBOSE)."""

from __future__ import annotations

import sys
from pathlib import Path

from bench_commits import link_kit
from bench_commits.worker import log_tail


def _package(tmp_path: Path) -> tuple[Path, Path, str, tuple[str, ...], Path]:
    """A package with a binary and an object, its link line, and a "build" that prints that line and counts itself
    in ``relinks``."""
    binary = tmp_path / ".build" / "release" / "app"
    binary.parent.mkdir(parents=True)
    binary.write_text("the binary")
    (tmp_path / "main.o").write_text("an object")
    line = f"/usr/bin/swiftc -emit-executable -o {binary} {tmp_path / 'main.o'} -v"
    relinks = tmp_path / "relinks"
    build = (sys.executable, "-c", f"open({str(relinks)!r}, 'a').write('x'); print({line!r})")
    return binary, relinks, line, build, tmp_path / "build.log"


def test_the_link_line_comes_from_the_builds_own_log_without_a_relink(tmp_path):
    binary, relinks, line, build, log = _package(tmp_path)
    log.write_text(f"Compiling main.swift\n{line}\nBuild complete!\n")
    kit = link_kit.capture(build, tmp_path, binary, log)
    assert not relinks.exists(), "no relink"
    assert kit.command == ("/usr/bin/swiftc", "-emit-executable", "main.o") and kit.files == ("main.o",)
    assert binary.read_text() == "the binary"


def test_a_build_that_linked_nothing_is_relinked_for_its_line(tmp_path):
    binary, relinks, line, build, log = _package(tmp_path)
    log.write_text("Compiling main.swift\nBuild complete!\n")  # up to date: no link line
    kit = link_kit.capture(build, tmp_path, binary, log)
    assert relinks.read_text() == "x", "relinked once"
    assert kit.command == ("/usr/bin/swiftc", "-emit-executable", "main.o")
    assert binary.read_text() == "the binary", "the binary is left as it was"


def test_a_failed_verbose_builds_tail_shows_its_errors_not_its_commands(tmp_path):
    log = tmp_path / "build.log"
    log.write_text("\n".join([
        "/src/Sources/A.swift:3:9: error: missing return in instance method expected to return 'Int?'",
        "Swift version 6.3.1 (swift-6.3.1-RELEASE)",
        "Target: x86_64-unknown-linux-gnu",
        "/opt/swift/usr/bin/swift-frontend -frontend -c /src/Sources/B.swift -o B.o",
        "/opt/swift/usr/bin/swiftc -module-name B -emit-module /src/Sources/B.swift",
        "error: fatalError"]))
    assert log_tail(log, 2) == ("/src/Sources/A.swift:3:9: error: missing return in instance method expected to "
                                "return 'Int?' | error: fatalError")
    # Control: a line that names a compiler without being its echo stays.
    log.write_text("error: /opt/swift/usr/bin/swiftc -v failed\n/opt/swift/usr/bin/swiftc -module-name B\n")
    assert log_tail(log, 5) == "error: /opt/swift/usr/bin/swiftc -v failed"
