"""docs/diagnosis.md's table of labels states each rule with its constants' values, and names the constants: the
page and the code must not disagree (issue 62). For every row, each constant it names holds a value that the rule's
words state (0.5 as "0.5", 0.2 as "0.2" or "20%"); a row that says "as `label`" takes that row's constants. The
negative control plants a wrong value and sees the check fail."""

from __future__ import annotations

import re
from pathlib import Path

from analyze_lib.judge import conditions, decisions, diagnosis, evidence

PAGE = Path(__file__).resolve().parents[2] / "docs" / "diagnosis.md"


def _rows() -> list[tuple[str, str, list[str]]]:
    """The label table's rows: (label, rule, the constants' names), "as `x`" resolved to x's constants."""
    rows, constants = [], {}
    for line in PAGE.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        label, rule, named = cells
        same = re.fullmatch(r"as `([\w-]+)`", named)
        names = constants.get(f"`{same.group(1)}`", []) if same else re.findall(r"`([\w.]+)`", named)
        constants[label] = names
        rows.append((label, rule, names))
    return rows


def _value(name: str) -> float:
    module, _, attribute = name.rpartition(".")
    return float(getattr({"conditions": conditions, "decisions": decisions, "evidence": evidence,
                           "": diagnosis}[module], attribute))


def _stated(value: float, rule: str) -> bool:
    """Whether ``rule`` states ``value``: as a number, or as a percentage of one."""
    numbers = {float(n) for n in re.findall(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])", rule)}
    percents = {float(n) / 100 for n in re.findall(r"(\d+(?:\.\d+)?)%", rule)}
    return any(abs(value - n) < 1e-9 for n in numbers | percents)


def _disagreements(rows) -> list[str]:
    return [f"{label}: {name} = {_value(name):g} is not what the page says ({rule})"
            for label, rule, names in rows for name in names if not _stated(_value(name), rule)]


def test_every_constant_the_page_names_has_the_value_its_rule_states():
    rows = _rows()
    assert {label for label, _, names in rows if names} >= {"`convoy`", "`spinning`", "`serialized`",
                                                             "`unfair`", "`starvation`", "`cpu-bound`"}
    assert _disagreements(rows) == []


def test_the_role_starvation_rule_states_its_constant(monkeypatch):
    # Starvation across roles (decisions.role_starvation) has its own row, held to the code like the labels'.
    rows = {label: names for label, _, names in _rows()}
    assert rows.get("`starves role=…`") == ["decisions.ROLE_STARVATION_FACTOR"]
    assert not any("ROLE_STARVATION_FACTOR" in d for d in _disagreements(_rows()))
    monkeypatch.setattr(decisions, "ROLE_STARVATION_FACTOR", 12.0)
    assert any(d.startswith("`starves role=…`: decisions.ROLE_STARVATION_FACTOR = 12") for d in _disagreements(_rows()))


def test_control_a_constant_changed_in_the_code_is_caught(monkeypatch):
    monkeypatch.setattr(diagnosis, "CONVOY_SWITCHES_PER_OP", 0.6)
    assert any(d.startswith("`convoy`: CONVOY_SWITCHES_PER_OP = 0.6") for d in _disagreements(_rows()))


def test_control_each_constant_of_the_exact_split_is_held_to_the_page(monkeypatch):
    # The rules on the split (issue 62) name their constants too: each changed alone is caught.
    for name, planted in (("CONVOY_BLOCKED_SHARE", 0.3), ("SPIN_BLOCKED_SHARE", 0.15), ("SPIN_BEFORE_SLEEP_NS", 5000.0),
                          ("SYSCALL_KERNEL_SHARE", 0.6), ("RUNQUEUE_SHARE", 0.25)):
        assert not any(name in d for d in _disagreements(_rows())), name
        with monkeypatch.context() as patch:
            patch.setattr(diagnosis, name, planted)
            assert any(f"{name} = {planted:g}" in d for d in _disagreements(_rows())), name
