"""Where a run of bench-commits works: the temporary directory with its worktrees and logs, the Results
directory its CSVs go to, the stamp that names them, and its revisions resolved to commits."""

from __future__ import annotations

import datetime
import os
import shutil
import tempfile
from pathlib import Path

from . import git
from .errors import ComparisonError
from .run import say


RESULTS_DIR = "Results"


class Workspace:
    """The temporary directory with the worktrees and logs; removed (worktrees first) on exit unless kept.
    ``package`` is the package's directory relative to the top of the repository (``.`` at its root).

    While it is open it is also the temporary directory (TMPDIR) of every child process: the Swift toolchain
    leaves lock files and empty directories there at each build and link, and they go with the workspace."""

    def __init__(self, repo: Path, package: Path, keep: bool):
        self.repo, self.package, self.keep = repo, package, keep
        self.root = Path(tempfile.mkdtemp(prefix="bench-commits-"))
        self.logs = self.root / "logs"
        self.logs.mkdir()
        self.worktrees: list[Path] = []
        temporary = self.root / "tmp"
        temporary.mkdir()
        self._outer_tmpdir = os.environ.get("TMPDIR")
        os.environ["TMPDIR"] = str(temporary)

    def worktree(self, commit: str) -> Path:
        """A worktree of ``commit``; returns the package's directory in it (ComparisonError when that commit has
        no Package.swift there)."""
        path = self.root / f"worktree-{commit[:12]}"
        self.worktrees.append(path)
        git.add_worktree(self.repo, path, commit)
        package = path / self.package
        if not (package / "Package.swift").is_file():
            raise ComparisonError(f"commit {commit[:12]} has no Package.swift in {self.package}: run "
                                  "bench-commits from the directory of the package to compare")
        return package

    def close(self) -> None:
        if self._outer_tmpdir is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = self._outer_tmpdir
        if self.keep:
            say(f"kept the worktrees, builds and logs in {self.root}")
            return
        git.remove_worktrees(self.repo, self.worktrees)
        shutil.rmtree(self.root, ignore_errors=True)


def stamp() -> str:
    """The UTC time of day that names a run's files: ``yyyymmdd-HHMMSS``."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d-%H%M%S")


def resolve_revision(repo: Path, revision: str) -> str:
    """The commit ``revision`` names (ComparisonError when none), refused when it is the checked-out commit and
    the working tree has changes (git.refuse_working_tree)."""
    commit = git.resolve(repo, revision)
    git.refuse_working_tree(repo, revision, commit)
    return commit

