"""Exit codes are defined once (analyze_lib.exit_codes); everything else imports them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from analyze_lib import cli as analyze_cli
from analyze_lib import exit_codes
from bench_commits import cli as bench_commits_cli

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


EXIT_CODES_PAGE = SCRIPTS.parent / "docs" / "exit-codes.md"


def page_table(heading: str) -> tuple[list[tuple[int, str]], str]:
    """The rows (code, meaning) of docs/exit-codes.md's table under ``heading``, and the paragraph after it."""
    section = EXIT_CODES_PAGE.read_text().split(f"\n{heading}\n\n", 1)[1]
    table, after = section.split("\n\n", 2)[:2]
    rows = [line.removeprefix("| ").removesuffix(" |").split(" | ", 1) for line in table.splitlines()[2:]]
    return [(int(code), meaning) for code, meaning in rows], after.strip()


@pytest.mark.parametrize("heading, codes, note", [
    ("## `scripts/analyze`", exit_codes.ANALYZE_EXIT_CODES, exit_codes.ANALYZE_PRECEDENCE_NOTE),
    ("## `scripts/bench-commits`", exit_codes.BENCH_COMMITS_EXIT_CODES, exit_codes.BENCH_COMMITS_PRECEDENCE_NOTE),
    ("## `scripts/bench-commits bisect`", exit_codes.BENCH_COMMITS_BISECT_EXIT_CODES,
     exit_codes.BENCH_COMMITS_BISECT_NOTE),
])
def test_the_page_of_exit_codes_says_what_exit_codes_says(heading, codes, note):
    assert page_table(heading) == (list(codes), note)


def test_each_help_prints_every_meaning():
    for epilog, codes, note in ((analyze_cli.EXIT_CODES_HELP, exit_codes.ANALYZE_EXIT_CODES,
                                 exit_codes.ANALYZE_PRECEDENCE_NOTE),
                                (bench_commits_cli.EPILOG, exit_codes.BENCH_COMMITS_EXIT_CODES,
                                 exit_codes.BENCH_COMMITS_PRECEDENCE_NOTE),
                                (bench_commits_cli.BISECT_EPILOG, exit_codes.BENCH_COMMITS_BISECT_EXIT_CODES,
                                 exit_codes.BENCH_COMMITS_BISECT_NOTE)):
        listed = [int(code) for code in re.findall(r"^  (\d+) ", epilog, re.M)]
        assert listed == [code for code, _ in codes]
        flat = " ".join(epilog.split())
        for _, meaning in codes:
            assert " ".join(exit_codes.plain(meaning).split()) in flat
        assert exit_codes.plain(note) in flat
    # Every code either tool can return has a meaning.
    assert {code for code, _ in exit_codes.ANALYZE_EXIT_CODES} == {
        exit_codes.EXIT_OK, exit_codes.EXIT_REGRESSION, exit_codes.EXIT_BAD_INPUT, exit_codes.EXIT_ENVIRONMENT,
        exit_codes.EXIT_INCONCLUSIVE, exit_codes.EXIT_INCOMPLETE}
    assert {code for code, _ in exit_codes.BENCH_COMMITS_EXIT_CODES} == {
        code for code, _ in exit_codes.ANALYZE_EXIT_CODES} | {exit_codes.EXIT_INTERRUPTED}
    assert {code for code, _ in exit_codes.BENCH_COMMITS_BISECT_EXIT_CODES} == {
        exit_codes.EXIT_OK, exit_codes.EXIT_BAD_INPUT, exit_codes.EXIT_ENVIRONMENT, exit_codes.EXIT_INCONCLUSIVE,
        exit_codes.EXIT_NO_CHANGE, exit_codes.EXIT_INTERRUPTED}


def test_plain_drops_markdown():
    # The page's links are relative to docs/; a terminal gets the path from the repository's root.
    assert exit_codes.plain("see `--allow-missing` and [the rule](x.md#y).") == \
        "see --allow-missing and docs/x.md#y."
