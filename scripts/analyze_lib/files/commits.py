"""The subject line of a run's commit, read from git: history names each change point's commit with it.

A run carries its commit, not its subject, and the runs of a history may come from a repository other than the
working directory's (a package's own Results/), so the places to look are the caller's to give.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Callable, Sequence

# A commit as a run records it: hexadecimal, never an option or a revision expression.
_COMMIT = re.compile(r"[0-9a-f]{7,40}")
GIT_TIMEOUT_S = 10


def subject_reader(places: Sequence[Path]) -> Callable[[str], str | None]:
    """A function from a commit to its subject line, read from the first of ``places`` whose repository has the
    commit; None when none has it, the text is not a commit, or git cannot be run. Each commit is read once."""
    known: dict[str, str | None] = {}

    def subject(commit: str) -> str | None:
        if commit not in known:
            known[commit] = _read_subject(commit, places)
        return known[commit]

    return subject


def _read_subject(commit: str, places: Sequence[Path]) -> str | None:
    if not _COMMIT.fullmatch(commit):
        return None
    for place in places:
        try:
            done = subprocess.run(["git", "-C", str(place), "log", "-1", "--format=%s", commit, "--"],
                                  capture_output=True, text=True, timeout=GIT_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    return None
