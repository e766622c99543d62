"""Builds kept between runs of bench-commits, so that comparing a commit again does not build it again.

A build is keyed by what makes it: the commit, the toolchain (``swift --version``), the build command, the
binary's path and the package's directory in the repository. What is kept is the binary, its link kit
(link_kit: the objects and the command that link it again) and its code identity (code_identity: what
same_code compares, computed once, when the build is made), in
``${XDG_CACHE_HOME:-~/.cache}/dispatchbench/builds/<key>/`` (BENCH_COMMITS_CACHE chooses another place), never in
a package's ``.build``; the most recently used KEEP_BUILDS are kept. A dependency that resolves to a newer version
for the same commit is not part of the key: ``--rebuild`` builds afresh.

Files made by running a build (its footprints: the functions each case runs) are kept by its code instead
(CodeIdentity.code_key), in ``<cache>/by-code/``: a build of another commit whose code is the same reuses them.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import link_kit
from .code_identity import IDENTITY_FILE, CodeIdentity
from .function_map import MAP_FILE, FunctionMap
from .link_kit import LinkKit

CACHE_ENV = "BENCH_COMMITS_CACHE"
KEEP_BUILDS = 12
# Part of every key: what an entry holds. Entries kept before builds kept their link kit and code identity are
# not reused.
ENTRY_FORMAT = "binary, link kit, code identity and function map"
LINK_DIRECTORY = "link"
# The worktree a kept build was built in: a function map made anew from its objects cleans it out.
BUILT_IN_FILE = "built-in.txt"
# Files kept by code rather than by build (BuildCache.kept_by_code); the most recently used KEEP_BY_CODE are kept.
BY_CODE_DIRECTORY = "by-code"
KEEP_BY_CODE = 4 * KEEP_BUILDS


def cache_directory() -> Path:
    """Where builds are kept: BENCH_COMMITS_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/dispatchbench/builds."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dispatchbench" / "builds"


def toolchain_version() -> str | None:
    """``swift --version``'s output, or None when it cannot be read (then nothing is kept or reused). Asked once
    a process for each ``swift`` that PATH finds: a bisect or ``--check-gate`` compares many times, and every
    answer costs a driver's start."""
    return _version_of(shutil.which("swift"))


@functools.cache
def _version_of(swift: str | None) -> str | None:
    """``swift --version`` of the driver at ``swift``. It runs with a temporary directory of its own, removed
    after: the driver leaves an empty one there at every call."""
    if swift is None:
        return None
    try:
        with tempfile.TemporaryDirectory(prefix="swift-version-") as scratch:
            done = subprocess.run([swift, "--version"], capture_output=True, text=True, timeout=60,
                                  env={**os.environ, "TMPDIR": scratch})
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


@dataclass(frozen=True)
class BuildCache:
    """Binaries kept by key (see the module's doc). ``recipe`` is everything but the commit and the toolchain
    that makes a build: the build command, the binary's path, the package's directory."""

    directory: Path
    toolchain: str
    recipe: tuple[str, ...]

    def _entry(self, commit: str) -> Path:
        key = hashlib.sha256("\n".join((commit, self.toolchain, *self.recipe, ENTRY_FORMAT)).encode()).hexdigest()[:24]
        return self.directory / key

    def restore(self, commit: str, binary: Path) -> bool:
        """Put the kept build of ``commit`` at ``binary``; False when there is none."""
        kept = self._entry(commit) / binary.name
        if not kept.is_file():
            return False
        binary.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(kept, binary)
        os.utime(kept.parent)  # recently used
        return True

    def kit(self, commit: str) -> LinkKit | None:
        """The link kit kept with the build of ``commit``, or None (a build without one)."""
        return link_kit.load(self._entry(commit) / LINK_DIRECTORY)

    def identity(self, commit: str) -> CodeIdentity | None:
        """The code identity kept with the build of ``commit``, or None (a build without one)."""
        try:
            return CodeIdentity.from_json((self._entry(commit) / IDENTITY_FILE).read_text())
        except OSError:
            return None

    def function_map(self, commit: str) -> FunctionMap | None:
        """The function map kept with the build of ``commit``, or None (a build without one)."""
        try:
            return FunctionMap.from_json((self._entry(commit) / MAP_FILE).read_text())
        except OSError:
            return None

    def kept_by_code(self, identity: CodeIdentity, name: str) -> Path | None:
        """The file ``name`` kept for builds of ``identity``'s code (keep_by_code), by whichever commit, or None."""
        path = self.directory / BY_CODE_DIRECTORY / f"{identity.code_key()}-{name}"
        if not path.is_file():
            return None
        os.utime(path)  # recently used
        return path

    def keep_by_code(self, identity: CodeIdentity, name: str, source: Path) -> None:
        """Keep a copy of ``source`` as the file ``name`` of every build of ``identity``'s code (written whole or
        not at all), then forget the least recently used beyond KEEP_BY_CODE; a cache that cannot be written is
        skipped silently."""
        directory = self.directory / BY_CODE_DIRECTORY
        try:
            directory.mkdir(parents=True, exist_ok=True)
            partial = directory / f".{name}.{os.getpid()}"
            shutil.copy2(source, partial)
            os.replace(partial, directory / f"{identity.code_key()}-{name}")
            kept = sorted((path for path in directory.iterdir() if not path.name.startswith(".")),
                          key=lambda path: path.stat().st_mtime, reverse=True)
            for stale in kept[KEEP_BY_CODE:]:
                stale.unlink(missing_ok=True)
        except OSError:
            return

    def built_in(self, commit: str) -> Path | None:
        """The worktree the kept build of ``commit`` was built in (its path stands in its objects' bytes)."""
        try:
            return Path((self._entry(commit) / BUILT_IN_FILE).read_text().strip()) or None
        except OSError:
            return None

    def keep_map(self, commit: str, functions: FunctionMap) -> None:
        """Keep ``functions`` as the function map of the kept build of ``commit`` (whole or not at all)."""
        entry = self._entry(commit)
        try:
            partial = entry / f".{MAP_FILE}.{os.getpid()}"
            partial.write_text(functions.to_json())
            os.replace(partial, entry / MAP_FILE)
        except OSError:
            return

    def store(self, commit: str, binary: Path, kit: LinkKit | None = None, identity: CodeIdentity | None = None,
              functions: FunctionMap | None = None, built_in: Path | None = None) -> None:
        """Keep ``binary``, its ``kit``, its code ``identity`` and its function map as the build of ``commit`` (each
        written whole or not at all; the binary last, as it is what says there is a build), then forget the least
        recently used builds beyond KEEP_BUILDS. A cache that cannot be written is skipped silently."""
        entry = self._entry(commit)
        try:
            entry.mkdir(parents=True, exist_ok=True)
            if kit is not None:
                kit.copy_to(entry / LINK_DIRECTORY)
            if built_in is not None:
                (entry / BUILT_IN_FILE).write_text(f"{built_in}\n")
            for name, kept in ((IDENTITY_FILE, identity), (MAP_FILE, functions)):
                (entry / name).unlink(missing_ok=True)
                if kept is not None:
                    partial_file = entry / f".{name}.{os.getpid()}"
                    partial_file.write_text(kept.to_json())
                    os.replace(partial_file, entry / name)
            partial = entry / f".{binary.name}.{os.getpid()}"
            shutil.copy2(binary, partial)
            os.replace(partial, entry / binary.name)
            self._prune()
        except OSError:
            return

    def _prune(self) -> None:
        builds = (path for path in self.directory.iterdir() if path.is_dir() and path.name != BY_CODE_DIRECTORY)
        entries = sorted(builds, key=lambda path: path.stat().st_mtime, reverse=True)
        for stale in entries[KEEP_BUILDS:]:
            shutil.rmtree(stale, ignore_errors=True)
