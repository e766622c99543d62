"""The package's layers: the data model lives apart from the CSV reader."""

from __future__ import annotations

import ast
from pathlib import Path

import analyze_lib

PACKAGE_DIR = Path(analyze_lib.__file__).resolve().parent
# What other modules may take from the I/O module: the functions that read a file.
LOADER_EXPORTS = {"load_results", "load_counts", "load_stress", "load_any"}


def _imports_from(module_path: Path, source_module: str) -> set[str]:
    tree = ast.parse(module_path.read_text(), str(module_path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == source_module:
            names |= {alias.name for alias in node.names}
    return names


def test_no_module_takes_domain_types_from_the_loader():
    offenders = {}
    for path in sorted(PACKAGE_DIR.glob("*.py")):
        extra = _imports_from(path, "loader") - LOADER_EXPORTS
        if extra:
            offenders[path.name] = sorted(extra)
    assert offenders == {}


def test_the_model_does_no_io():
    # model.py must not depend on the reader (or on anything that reads files).
    assert _imports_from(PACKAGE_DIR / "model.py", "loader") == set()
    text = (PACKAGE_DIR / "model.py").read_text()
    assert "import csv" not in text and "open(" not in text
