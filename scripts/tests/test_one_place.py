"""One place for each fact: number formatting in fmt.py, one Markdown table writer, helpers defined once."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import analyze_lib

PACKAGE_DIR = Path(analyze_lib.__file__).resolve().parent
# A Markdown table's alignment row: only the one table writer spells it.
TABLE_SEPARATOR = '"---:"'


def top_level_functions(package_dir: Path) -> dict[str, list[str]]:
    """Every module-level function name -> the modules (relative paths) that define it."""
    found = defaultdict(list)
    for path in sorted(package_dir.rglob("*.py")):
        for node in ast.parse(path.read_text(), str(path)).body:
            if isinstance(node, ast.FunctionDef):
                found[node.name].append(str(path.relative_to(package_dir)))
    return found


def test_number_formatting_lives_in_fmt_only():
    outside = {name: where for name, where in top_level_functions(PACKAGE_DIR).items()
               if name.lstrip("_").startswith("fmt_") and where != ["fmt.py"]}
    assert outside == {}


def test_no_helper_is_defined_twice():
    twice = {name: where for name, where in top_level_functions(PACKAGE_DIR).items()
             if len(where) > 1 and not name.startswith("__")}
    # Private helpers may share a name when each is its module's own (``_cases``, ``_number``); the
    # ones that did one job in two places may not.
    for name in ("_finite_median", "finite_median", "md_table", "markdown_table", "json_number", "text_table"):
        assert len(twice.get(name, [])) <= 1, (name, twice.get(name))
    assert top_level_functions(PACKAGE_DIR)["finite_median"] == ["judge/stats.py"]


def test_the_scan_finds_a_second_definition(tmp_path):
    # Negative control: two modules defining the same formatter are both found.
    (tmp_path / "fmt.py").write_text("def fmt_ns(value):\n    return str(value)\n")
    (tmp_path / "render.py").write_text("def fmt_ns(value):\n    return str(value)\n")
    assert top_level_functions(tmp_path)["fmt_ns"] == ["fmt.py", "render.py"]


def test_one_markdown_table_writer():
    writers = sorted(str(path.relative_to(PACKAGE_DIR)) for path in PACKAGE_DIR.rglob("*.py")
                     if TABLE_SEPARATOR in path.read_text())
    assert writers == ["present/doc.py"]


STOPPING_RULE = PACKAGE_DIR.parents[1] / "Sources" / "BenchCore" / "StoppingRule.swift"


def _swift_avoid_factor(source: str) -> float:
    """The avoid factor StoppingRule.swift declares (``static let avoidFactor = 3.0``)."""
    match = re.search(r"static let avoidFactor = ([0-9.]+)", source)
    assert match, "StoppingRule.swift declares no avoidFactor"
    return float(match.group(1))


def test_the_stopping_rule_draws_the_avoid_line_the_report_draws():
    """bench's stopping rule (Swift) settles a case against the report's avoid line (decisions.AVOID_FACTOR): the
    two languages state it twice, so the two must agree; a planted other value is told apart."""
    from analyze_lib.judge.decisions import AVOID_FACTOR
    source = STOPPING_RULE.read_text()
    assert _swift_avoid_factor(source) == AVOID_FACTOR
    assert _swift_avoid_factor(source.replace("avoidFactor = 3.0", "avoidFactor = 4.0")) != AVOID_FACTOR


DISQUALIFICATION_SIGNS = PACKAGE_DIR.parents[1] / "Sources" / "BenchCore" / "DisqualificationSigns.swift"


def _swift_lines(source: str) -> dict[str, float]:
    """The report's lines DisqualificationSigns.swift declares (``package static let starvedShare = 0.2``)."""
    return {name: float(value) for name, value in
            re.findall(r"static let (starvedShare|roleStarvationFactor|fairnessMinimum) = ([0-9.]+)", source)}


def test_the_stopping_rules_disqualification_signs_read_the_reports_lines():
    """bench's stopping rule (Swift) takes a sign of disqualification at half the report's lines
    (decisions.STARVED_SHARE, ROLE_STARVATION_FACTOR, evidence.FAIRNESS_MIN): stated in both languages, so the two must
    agree; a planted other value is told apart."""
    from analyze_lib.judge.decisions import ROLE_STARVATION_FACTOR, STARVED_SHARE
    from analyze_lib.judge.evidence import FAIRNESS_MIN
    expected = {"starvedShare": STARVED_SHARE, "roleStarvationFactor": ROLE_STARVATION_FACTOR,
                "fairnessMinimum": FAIRNESS_MIN}
    source = DISQUALIFICATION_SIGNS.read_text()
    assert _swift_lines(source) == expected
    assert _swift_lines(source.replace("fairnessMinimum = 0.1", "fairnessMinimum = 0.2")) != expected
