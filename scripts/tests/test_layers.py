"""The package's stages: files, then judge, then present, then the CLI on top."""

from __future__ import annotations

import ast
from pathlib import Path

import analyze_lib

PACKAGE_DIR = Path(analyze_lib.__file__).resolve().parent
STAGES = ("files", "judge", "present")
# Top-level modules every stage may import: they import nothing from the package.
SHARED = ("exit_codes", "fmt")
# What each stage may import from the package: the stages before it, itself and the shared modules.
ALLOWED = {stage: set(STAGES[:index + 1]) | set(SHARED) for index, stage in enumerate(STAGES)}
# What other modules may take from the I/O module: the functions that read a file.
LOADER_EXPORTS = {"load_results", "load_counts", "load_stress", "load_any"}


def _package_imports(module_path: Path, package_dir: Path = PACKAGE_DIR) -> list[tuple[str, set[str]]]:
    """Every import of the package from ``module_path``: (dotted module it names, absolute
    from the package root, e.g. ``files.loader``; the names it takes)."""
    package_parts = module_path.relative_to(package_dir).parent.parts
    tree = ast.parse(module_path.read_text(), str(module_path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if not (node.module or "").startswith("analyze_lib"):
                    continue
                parts = tuple((node.module or "").split(".")[1:])
            else:
                base = package_parts[:len(package_parts) - (node.level - 1)]
                parts = base + tuple((node.module or "").split(".") if node.module else ())
            names = {alias.name for alias in node.names}
            if not node.module:
                # ``from . import x`` / ``from .. import x``: each name is a module.
                found += [(".".join(parts + (name,)), set()) for name in names]
            else:
                found.append((".".join(parts), names))
        elif isinstance(node, ast.Import):
            found += [(".".join(alias.name.split(".")[1:]), set()) for alias in node.names
                      if alias.name.startswith("analyze_lib.")]
    return found


def _stage_of(dotted: str) -> str | None:
    head = dotted.split(".")[0]
    return head if head in STAGES or head in SHARED else None


def stage_violations(package_dir: Path = PACKAGE_DIR) -> dict[str, list[str]]:
    """Per module of a stage, the package modules it imports from a later stage (or the top)."""
    offenders = {}
    for stage in STAGES:
        for path in sorted((package_dir / stage).glob("*.py")):
            bad = sorted(module for module, _ in _package_imports(path, package_dir)
                         if _stage_of(module) not in ALLOWED[stage])
            if bad:
                offenders[f"{stage}/{path.name}"] = bad
    return offenders


def test_every_module_lives_in_a_stage_or_is_the_cli():
    top = sorted(path.name for path in PACKAGE_DIR.glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "argtypes.py", "cli.py", "exit_codes.py", "fmt.py"]
    assert sorted(path.name for path in PACKAGE_DIR.iterdir() if path.is_dir() and path.name != "__pycache__") \
        == sorted(STAGES)


def test_stages_import_only_earlier_stages():
    assert stage_violations() == {}


def test_the_stage_guard_catches_a_backward_import(tmp_path):
    # Negative control: a files module that imports from judge, a judge module that imports present.
    for stage in STAGES:
        (tmp_path / stage).mkdir()
    (tmp_path / "files" / "bad.py").write_text("from ..judge.compare import compare\n")
    (tmp_path / "judge" / "bad.py").write_text("from ..present import render\n")
    (tmp_path / "judge" / "good.py").write_text("from ..files.model import Case\nfrom .stats import median\n")
    (tmp_path / "present" / "good.py").write_text("from ..judge.compare import compare\n")
    assert stage_violations(tmp_path) == {"files/bad.py": ["judge.compare"], "judge/bad.py": ["present"]}


def test_shared_modules_import_nothing_from_the_package():
    assert {name: _package_imports(PACKAGE_DIR / f"{name}.py") for name in SHARED} == {name: [] for name in SHARED}


def test_the_module_map_names_every_module():
    doc = analyze_lib.__doc__
    modules = sorted(path.stem for path in PACKAGE_DIR.rglob("*.py") if path.stem != "__init__")
    missing = [name for name in modules if f"``{name}``" not in doc]
    assert missing == []


def test_no_module_takes_domain_types_from_the_loader():
    offenders = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        extra = set()
        for module, names in _package_imports(path):
            if module == "files.loader":
                extra |= names - LOADER_EXPORTS
        if extra:
            offenders[str(path.relative_to(PACKAGE_DIR))] = sorted(extra)
    assert offenders == {}


def test_the_model_does_no_io():
    # model.py must not depend on the reader (or on anything that reads files).
    model = PACKAGE_DIR / "files" / "model.py"
    assert all(module != "files.loader" for module, _ in _package_imports(model))
    text = model.read_text()
    assert "import csv" not in text and "open(" not in text
