"""Make scripts/ importable so tests can ``import analyze_lib``, and the fixtures several test modules share."""

import sys
from pathlib import Path

import pytest
from gitrepo import commit, git

TESTS_DIR = Path(__file__).resolve().parent
SCRIPTS_DIR = TESTS_DIR.parent
if str(SCRIPTS_DIR) not in sys.path:
    sys.path.insert(0, str(SCRIPTS_DIR))


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A repository whose first commit is the base; tests add heads. bench's invocations are logged.
    Here rather than in test_bench_commits.py so that the modules that use it need not import it."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "test@example.com")
    git(path, "config", "user.name", "Test")
    commit(path, "base", {"Package.swift": "// base\n"})
    monkeypatch.setenv("FAKE_BENCH_LOG", str(tmp_path / "bench.log"))
    monkeypatch.setenv("BENCH_COMMITS_BUILD", f"{sys.executable} -S {TESTS_DIR / 'fake_build.py'}")
    monkeypatch.setenv("BENCH_COMMITS_DUMP", f"{sys.executable} -S {TESTS_DIR / 'fake_build.py'} dump")
    monkeypatch.setenv("BENCH_COMMITS_CACHE", str(tmp_path / "builds"))
    monkeypatch.delenv("FAKE_BENCH_EXIT", raising=False)
    monkeypatch.delenv("FAKE_BENCH_COUNT_EXIT", raising=False)
    return path
