"""A temporary git repository for the bench-commits tests: ``git`` and ``commit``; conftest.py's ``repo`` fixture
builds one from them."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(repo: Path, *arguments: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *arguments], check=True, capture_output=True,
                          text=True).stdout.strip()


def commit(repo: Path, message: str, files: dict[str, str | None]) -> str:
    """Commit ``files`` (None removes one) and return the commit id."""
    for name, text in files.items():
        if text is None:
            git(repo, "rm", "-q", name)
        else:
            (repo / name).write_text(text)
            git(repo, "add", name)
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")
