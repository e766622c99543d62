"""Renderers of a CountsComparison: Markdown, text and JSON, as render.py's for timings.

Each returns the complete output as one string ending in a newline; none computes
anything beyond formatting.
"""

from __future__ import annotations

import json

from ..judge.counts_compare import (
    UNCHANGED,
    CountsComparison,
    CountsRow,
)
from ..fmt import fmt_allocations, fmt_counts_ratio, fmt_difference, fmt_instructions, fmt_percent, json_number
from ..judge.gate import CountsGateDecision
from ..files.model import CaseCounts
from .doc import markdown_table
from .gate_text import headline, notes
from .render import (JSON_FORMAT_VERSION, case_lists_markdown, case_lists_text, markdown_preamble, run_json, run_line,
                     text_table)
from ..files.schema import COUNTS

TITLE = "DispatchBench counts comparison"
COUNTS_HEADERS = ["Case", "Base instr/op", "Head instr/op", "Ratio", "Base allocs/op", "Head allocs/op",
                  "Difference", "Verdict"]
COUNTS_ALIGNS = "lrrrrrrl"


def rule_sentence(comparison: CountsComparison) -> str:
    """How verdicts are decided, in one sentence."""
    return (f"Counts are exact (one counted run per case: no noise, no p-value): a case is worse or "
            f"better when its instructions per op changed by more than "
            f"{comparison.instructions_tolerance:g}% of base or its allocations per op by at least "
            f"{comparison.allocations_tolerance:g}, either way; fewer is reported too, an "
            "unexplained improvement is a finding.")


def counts_change_text(row: CountsRow) -> str:
    """What changed, in words: ``more instructions (+2.0%)``, ``fewer allocations (-1.000/op)``, both joined
    by ``; ``, or ``no change``."""
    parts = []
    if row.instructions:
        parts.append(f"{row.instructions} instructions ({fmt_percent(row.instructions_ratio - 1)})")
    if row.allocations:
        parts.append(f"{row.allocations} allocations ({fmt_difference(row.allocations_difference)}/op)")
    return "; ".join(parts) or "no change"


def outcome_sentence(comparison: CountsComparison) -> str:
    """``1 worse, 2 better, 10 unchanged``."""
    return ", ".join(f"{count} {verdict}" for verdict, count in comparison.outcomes.items())


def _cells(row: CountsRow, code: bool) -> list[str]:
    label = f"`{row.key.label}`" if code else row.key.label
    verdict = counts_change_text(row)
    if code and row.verdict != UNCHANGED:
        verdict = f"**{verdict}**"
    return [label, fmt_instructions(row.base.instructions_per_op), fmt_instructions(row.head.instructions_per_op),
            fmt_counts_ratio(row.instructions_ratio), fmt_allocations(row.base.allocations_per_op),
            fmt_allocations(row.head.allocations_per_op), fmt_difference(row.allocations_difference), verdict]


def _case_lists(comparison: CountsComparison, gate: CountsGateDecision | None) -> list[tuple[str, str, list]]:
    base_only = "Missing from head" if gate is not None else "Only in base"
    lists = [(base_only, comparison.base_only), ("Only in head", comparison.head_only)]
    return [(name, "", [(key, "") for key in keys]) for name, keys in lists if keys]


def render_counts_markdown(comparison: CountsComparison, gate: CountsGateDecision | None = None,
                           part: str = "Gate") -> str:
    """The comparison as Markdown: changed cases (worse first) in the main table,
    unchanged ones folded in <details> (``part``: as in render.markdown_preamble)."""
    lines = markdown_preamble(comparison, gate, f"**{outcome_sentence(comparison)}.** {rule_sentence(comparison)}",
                              title=TITLE, part=part)
    changed = [r for r in comparison.rows if r.verdict != UNCHANGED]
    unchanged = [r for r in comparison.rows if r.verdict == UNCHANGED]
    if changed:
        lines += markdown_table(COUNTS_HEADERS, COUNTS_ALIGNS, [_cells(r, True) for r in changed]) + [""]
    else:
        lines += ["No case's counts changed.", ""]
    if unchanged:
        lines += [f"<details><summary>{len(unchanged)} unchanged case"
                  f"{'s' if len(unchanged) != 1 else ''}</summary>", ""]
        lines += markdown_table(COUNTS_HEADERS, COUNTS_ALIGNS, [_cells(r, True) for r in unchanged])
        lines += ["", "</details>", ""]
    lines += case_lists_markdown(_case_lists(comparison, gate))
    return "\n".join(lines).rstrip("\n") + "\n"


def render_counts_text(comparison: CountsComparison, gate: CountsGateDecision | None = None) -> str:
    """The comparison as aligned plain text for a terminal, worse cases first."""
    lines = [TITLE,
             f"base: {run_line(comparison.base)}",
             f"head: {run_line(comparison.head)}", ""]
    lines += text_table(COUNTS_HEADERS, COUNTS_ALIGNS, [_cells(r, False) for r in comparison.rows])
    lines += ["", f"{outcome_sentence(comparison)}. {rule_sentence(comparison)}"]
    lines += case_lists_text(_case_lists(comparison, gate))
    lines += [f"warning: {w}" for w in comparison.warnings]
    if gate is not None:
        lines += notes(gate)
        lines.append(headline(gate))
    return "\n".join(lines) + "\n"


def _side_json(counts: CaseCounts) -> dict:
    return {"iterations": counts.iterations, "operations": counts.operations,
            "instructions": counts.instructions, "instructions_per_op": counts.instructions_per_op,
            "allocations": counts.allocations, "allocations_per_op": counts.allocations_per_op}


def _row_json(row: CountsRow) -> dict:
    return {
        **row.key.to_json(),
        "base": _side_json(row.base),
        "head": _side_json(row.head),
        "instructions_ratio": json_number(row.instructions_ratio),
        "instructions_change": row.instructions,
        "allocations_difference": row.allocations_difference,
        "allocations_change": row.allocations,
        "verdict": row.verdict,
        "verdict_text": counts_change_text(row),
    }


def render_counts_json(comparison: CountsComparison, gate: CountsGateDecision | None = None) -> str:
    """The comparison as JSON (render.JSON_FORMAT_VERSION, ``kind`` "counts") for tools.
    ``instructions_change`` and ``allocations_change`` are "more", "fewer" or null."""
    document = {
        "format_version": JSON_FORMAT_VERSION,
        "kind": COUNTS,
        "instructions_tolerance_percent": comparison.instructions_tolerance,
        "allocations_tolerance": comparison.allocations_tolerance,
        "base": run_json(comparison.base),
        "head": run_json(comparison.head),
        "outcomes": comparison.outcomes,
        "cases": [_row_json(r) for r in comparison.rows],
        "base_only": [k.to_json() for k in comparison.base_only],
        "head_only": [k.to_json() for k in comparison.head_only],
        "warnings": comparison.warnings,
    }
    if gate is not None:
        document["gate"] = gate.to_json()
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


COUNTS_RENDERERS = {"md": render_counts_markdown, "text": render_counts_text, "json": render_counts_json}
