"""Exit codes are defined once (analyze_lib.exit_codes); everything else imports them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from analyze_lib import exit_codes
from bench_commits import cli as bench_commits_cli
from bench_commits import plan

SCRIPTS = Path(__file__).resolve().parents[1]
HOME = SCRIPTS / "analyze_lib" / "exit_codes.py"


def exit_code_definitions(path: Path) -> list[str]:
    """The ``EXIT_* = <number>`` assignments in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, int):
            found += [t.id for t in node.targets if isinstance(t, ast.Name) and t.id.startswith("EXIT_")]
    return found


def test_no_module_but_exit_codes_defines_an_exit_code():
    modules = sorted((SCRIPTS / "analyze_lib").rglob("*.py")) + sorted((SCRIPTS / "bench_commits").glob("*.py"))
    offenders = {str(p.relative_to(SCRIPTS)): exit_code_definitions(p) for p in modules if p != HOME}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_scan_finds_a_definition(tmp_path):
    # Negative control: a module that defines its own exit code is found.
    rogue = tmp_path / "rogue.py"
    rogue.write_text("EXIT_REGRESSION = 1\nOTHER = 2\n")
    assert exit_code_definitions(rogue) == ["EXIT_REGRESSION"]
    assert "EXIT_REGRESSION" in exit_code_definitions(HOME)


def test_bench_commits_uses_the_same_codes():
    assert (plan.EXIT_PASSED, plan.EXIT_REGRESSION, plan.EXIT_BAD_INPUT, plan.EXIT_INCONCLUSIVE,
            plan.EXIT_INCOMPLETE, plan.EXIT_INTERRUPTED) == (0, 1, 2, 4, 5, 130)
    assert plan.GATE_PRECEDENCE is exit_codes.GATE_PRECEDENCE
    # Its --help lists each code with the number exit_codes gives it.
    listed = {int(code) for code in re.findall(r"^  (\d+) ", bench_commits_cli.EPILOG, re.M)}
    assert listed == {exit_codes.EXIT_OK, exit_codes.EXIT_REGRESSION, exit_codes.EXIT_BAD_INPUT,
                      exit_codes.EXIT_ENVIRONMENT, exit_codes.EXIT_INCONCLUSIVE, exit_codes.EXIT_INCOMPLETE,
                      exit_codes.EXIT_INTERRUPTED}
