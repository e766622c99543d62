"""git, always with argument lists (a revision is an argument, never part of a shell string): resolve
revisions, tell whether the working tree has changes, add and remove detached worktrees, and walk a range of
first-parent history (bench-commits bisect)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .errors import ComparisonError


def _git(repo: Path, *arguments: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *arguments], capture_output=True, text=True, check=check)


def toplevel(start: Path) -> Path:
    """The top of the checkout that contains ``start``; ComparisonError when there is none."""
    try:
        result = _git(start, "rev-parse", "--show-toplevel", check=False)
    except FileNotFoundError:
        raise ComparisonError("git is not installed") from None
    if result.returncode != 0:
        raise ComparisonError(f"not in a git checkout: {start}")
    return Path(result.stdout.strip())


def resolve(repo: Path, revision: str) -> str:
    """The full commit id ``revision`` names; ComparisonError (one line) when it names no commit."""
    if not revision:
        raise ComparisonError("an empty revision names no commit")
    result = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}",
                  check=False)
    if result.returncode != 0 or not result.stdout.strip():
        raise ComparisonError(f"not a commit: {revision!r}")
    return result.stdout.strip()


def checked_out(repo: Path) -> str | None:
    """The commit the working tree has checked out (None in a repository without commits)."""
    result = _git(repo, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False)
    return result.stdout.strip() or None


def has_tracked_changes(repo: Path) -> bool:
    """True when tracked files differ from the checked-out commit (staged or not); untracked files, such
    as Results/, do not count."""
    result = _git(repo, "status", "--porcelain", "--untracked-files=no")
    return bool(result.stdout.strip())


def refuse_working_tree(repo: Path, revision: str, commit: str) -> None:
    """ComparisonError when ``revision`` is the checked-out commit and the tree has changes: bench-commits
    measures commits, so the changes would silently not be measured."""
    if (revision == "HEAD" or commit == checked_out(repo)) and has_tracked_changes(repo):
        raise ComparisonError(f"{revision} is the checked-out commit and the working tree has uncommitted changes: "
                              "commit or stash them first (bench-commits measures commits, not the working tree)")


def add_worktree(repo: Path, path: Path, commit: str) -> None:
    """A detached worktree of ``commit`` at ``path``; ComparisonError with git's last line on failure."""
    result = _git(repo, "worktree", "add", "--detach", "--quiet", "--", str(path), commit, check=False)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise ComparisonError(f"git worktree add failed for {commit[:12]}: {last}")


def remove_worktrees(repo: Path, paths: list[Path]) -> None:
    """Remove the worktrees (with anything built in them) and prune git's records of them; never fails."""
    for path in paths:
        _git(repo, "worktree", "remove", "--force", "--", str(path), check=False)
    _git(repo, "worktree", "prune", check=False)


def is_ancestor(repo: Path, ancestor: str, descendant: str) -> bool:
    """Whether ``ancestor`` is ``descendant`` or one of its ancestors (both full commit ids)."""
    return _git(repo, "merge-base", "--is-ancestor", ancestor, descendant, check=False).returncode == 0


def first_parent_range(repo: Path, good: str, bad: str) -> list[str]:
    """The commits of ``bad``'s first-parent history after ``good``, oldest first (``git rev-list --first-parent
    --reverse good..bad``)."""
    result = _git(repo, "rev-list", "--first-parent", "--reverse", f"{good}..{bad}", "--", check=False)
    if result.returncode != 0:
        raise ComparisonError(f"git rev-list {good[:12]}..{bad[:12]} failed: {result.stderr.strip()}")
    return result.stdout.split()


def first_parent(repo: Path, commit: str) -> str | None:
    """``commit``'s first parent, or None for a root commit."""
    result = _git(repo, "rev-parse", "--verify", "--quiet", f"{commit}^1", check=False)
    return result.stdout.strip() or None


def subjects(repo: Path, commits: list[str]) -> dict[str, str]:
    """The subject line of each commit (full ids)."""
    if not commits:
        return {}
    result = _git(repo, "show", "--no-patch", "--format=%H %s", *commits, check=False)
    found = dict(line.split(" ", 1) if " " in line else (line, "") for line in result.stdout.splitlines() if line)
    return {commit: found.get(commit, "") for commit in commits}
