"""scripts/check-python has teeth: ruff and mypy, run with the project's settings (pyproject.toml), fail on a planted
lint error and a planted type error in a file of their own (tmp_path), and pass the same file without the plant (the
control); scripts/test runs the check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "pyproject.toml"

CLEAN = '''def twice(value: int) -> int:
    return 2 * value
'''
# Each plant: the file's text with it, and what the tool calls it.
LINT_PLANT = ("import os\n\n\n" + CLEAN, "F401")  # an unused import
TYPE_PLANT = (CLEAN.replace("return 2 * value", 'return f"{value}"'), "[return-value]")  # a str returned as an int


def _ruff(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config", str(CONFIG), str(path)],
                          capture_output=True, text=True, cwd=path.parent)


def _mypy(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(CONFIG),
                           "--cache-dir", str(path.parent / ".mypy_cache"), str(path)],
                          capture_output=True, text=True, cwd=path.parent)


@pytest.mark.parametrize("tool, plant", [(_ruff, LINT_PLANT), (_mypy, TYPE_PLANT)], ids=["ruff", "mypy"])
def test_a_planted_error_fails_the_check_and_the_clean_file_passes(tmp_path, tool, plant):
    text, finding = plant
    planted = tmp_path / "planted.py"
    planted.write_text(text)
    failed = tool(planted)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert finding in failed.stdout
    planted.write_text(CLEAN)
    passed = tool(planted)
    assert passed.returncode == 0, passed.stdout + passed.stderr


def test_the_test_command_runs_the_check():
    lines = (ROOT / "scripts" / "test").read_text().splitlines()
    assert any(line.strip().startswith("scripts/check-python ") for line in lines)
