"""Renderers of a Comparison: Markdown (pull requests, $GITHUB_STEP_SUMMARY), text, JSON.

Each returns the complete output as one string ending in a newline; none computes
anything beyond formatting.
"""

from __future__ import annotations

import json
import math

from ..judge.compare import BIMODAL, FASTER, SLOWER, UNCHANGED, UNDETECTABLE, UNSTABLE, Comparison, CompareRow, json_number
from ..judge.gate import GateDecision
from ..files.model import CaseKey, ResultsFile
from ..files.schema import TIMING
from ..judge.stats import BOOTSTRAP_RESAMPLES

FORMATS = ("md", "text", "json")
# 2: infinite numbers (starved medians and their ratios) are the string "inf"; added
# base_starved_samples, head_starved_samples and starved.
# 3: counts gains "undetectable" (no longer counted as "unchanged"); gate gains status,
# exit_code, missing, undetectable and allow_missing ("passed" is false for any status
# but passed); run settings of schema 3 files appear in base/head.
# 4: every document says its "kind": "timing" (this module) or "counts" (counts_render,
# a comparison of counts files).
JSON_FORMAT_VERSION = 4
TITLE = "DispatchBench comparison"
# How a starved (infinite) time and an undefined number read in tables.
STARVED_TEXT = "starved"
UNDEFINED_TEXT = "—"
INFINITE_RATIO_TEXT = "∞"


def fmt_ns(value: float) -> str:
    """A duration in ns with about three significant digits: 1,234 / 12.3 / 1.23 / 0.123;
    ``starved`` for inf (no operation completed), ``—`` for NaN."""
    if math.isnan(value):
        return UNDEFINED_TEXT
    if math.isinf(value):
        return STARVED_TEXT
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def fmt_ratio(value: float) -> str:
    """A ratio with two decimals; ``∞`` for inf, ``—`` for NaN (no ratio)."""
    if math.isnan(value):
        return UNDEFINED_TEXT
    if math.isinf(value):
        return INFINITE_RATIO_TEXT
    return f"{value:.2f}"


def fmt_ci(row: CompareRow) -> str:
    """The ratio's CI as ``[low, high]``."""
    return f"[{fmt_ratio(row.ci_low)}, {fmt_ratio(row.ci_high)}]"


def fmt_p(value: float) -> str:
    """A p-value with two significant digits."""
    return f"{value:.2g}"


def run_line(results: ResultsFile) -> str:
    """One line describing where a run came from."""
    run = results.run
    return (f"{results.commit_label} on {run['host']} ({run['cpu_model']}, "
            f"{run['logical_cpus']} CPUs), {run['build']}, Swift {run['swift_version']}, "
            f"{run['started_at']:%Y-%m-%dT%H:%M:%SZ}")


def rule_sentence(comparison: Comparison) -> str:
    """How verdicts are decided, in one sentence (two when some cases have rounds)."""
    if comparison.by_rounds:
        return (f"A case with rounds is slower or faster when p, an exact Mann-Whitney U test on its round "
                f"medians, is significant after Benjamini-Hochberg over all cases judged by rounds at false "
                f"discovery rate {comparison.alpha:g}, and the change is at least {comparison.threshold:g}%; "
                f"ratio = head/base median of round medians, shown with its {ci_level(comparison)} CI, a "
                f"hierarchical bootstrap over rounds, then samples within rounds ({BOOTSTRAP_RESAMPLES} "
                "resamples). Cases without rounds: p < alpha and the threshold, as for one process.")
    return (f"A case is slower or faster when p < {comparison.alpha:g} (two-sided Mann-Whitney U) "
            f"and the change is at least {comparison.threshold:g}%; ratio = head/base median "
            f"ns/op with a 95% bootstrap CI ({BOOTSTRAP_RESAMPLES} resamples).")


def counts_sentence(comparison: Comparison) -> str:
    """``2 slower, 1 faster, 10 unchanged`` (, ``3 undetectable``; and how many have a
    starved median)."""
    counts = comparison.counts
    text = f"{counts[SLOWER]} slower, {counts[FASTER]} faster, {counts[UNCHANGED]} unchanged"
    if counts.get(BIMODAL):
        text += f", {counts[BIMODAL]} bimodal (not gated: samples in two levels)"
    if counts.get(UNSTABLE):
        text += f", {counts[UNSTABLE]} unstable (not gated: noise floor at least the threshold)"
    if counts[UNDETECTABLE]:
        rounds = all(row.by_rounds for row in comparison.undetectable)
        text += f", {counts[UNDETECTABLE]} undetectable (too few {'rounds' if rounds else 'samples'})"
    starved = len(comparison.starved_rows)
    if starved:
        text += (f"; {starved} case{'s' if starved != 1 else ''} with a starved median "
                 "(no operation completed in at least half the samples)")
    return text


def _case_lists(comparison: Comparison, gate: GateDecision | None) -> list[tuple[str, list[CaseKey]]]:
    """The named lists of cases under the table: one-sided cases and undetectable ones.

    In a gate, base cases head lacks are "Missing from head": they fail it (unless
    --allow-missing)."""
    base_only = "Missing from head" if gate is not None else "Only in base"
    lists = [(base_only, comparison.base_only), ("Only in head", comparison.head_only),
             ("Undetectable", [row.key for row in comparison.undetectable])]
    return [(name, keys) for name, keys in lists if keys]


def _unstable_line(comparison: Comparison, code: bool) -> list[str]:
    """``Unstable, not gated (N): label (noise floor 1.23×), ...`` and ``Bimodal, not gated
    (N): label, ...``, each only when there are such cases."""
    quote = "`" if code else ""
    lines = []
    if comparison.unstable:
        lines.append(f"Unstable, not gated ({len(comparison.unstable)}): " + ", ".join(
            f"{quote}{r.key.label}{quote} (noise floor {fmt_ratio(r.noise_floor)}×)" for r in comparison.unstable))
    if comparison.bimodal:
        lines.append(f"Bimodal, not gated ({len(comparison.bimodal)}): " + ", ".join(
            f"{quote}{r.key.label}{quote}" for r in comparison.bimodal))
    return lines


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def md_table(headers: list[str], aligns: str, rows: list[list[str]]) -> list[str]:
    """A Markdown table's lines; ``aligns`` has one ``l`` or ``r`` per column."""
    lines = ["| " + " | ".join(headers) + " |",
             "| " + " | ".join("---:" if a == "r" else "---" for a in aligns) + " |"]
    lines += ["| " + " | ".join(_md_escape(cell) for cell in row) + " |" for row in rows]
    return lines


COMPARE_HEADERS = ["Case", "Base ns/op", "Head ns/op", "Ratio", "95% CI", "p", "Verdict"]
COMPARE_ALIGNS = "lrrrlrl"


def ci_level(comparison: Comparison) -> str:
    """The CI's confidence as shown: 95% without rounds, 1 - alpha with them."""
    return f"{(1 - comparison.alpha) * 100:g}%" if comparison.by_rounds else "95%"


def compare_headers(comparison: Comparison) -> list[str]:
    """The comparison table's headers; with rounds the CI column says its confidence."""
    if not comparison.by_rounds:
        return COMPARE_HEADERS
    return [f"{ci_level(comparison)} CI" if h == "95% CI" else h for h in COMPARE_HEADERS]


def _compare_cells(row: CompareRow, code: bool) -> list[str]:
    label = f"`{row.key.label}`" if code else row.key.label
    verdict = row.verdict_text
    if code and row.verdict != UNCHANGED:
        verdict = f"**{verdict}**"
    return [label, fmt_ns(row.base_median), fmt_ns(row.head_median), fmt_ratio(row.ratio),
            fmt_ci(row), fmt_p(row.p_value), verdict]


def markdown_preamble(comparison, gate, outcome: str, title: str = TITLE) -> list[str]:
    """The lines every Markdown comparison starts with, timing or counts: the title, the gate's verdict and
    notes, the two runs, the `outcome` sentence and the warnings."""
    lines = [f"## {title}", ""]
    if gate is not None:
        lines += [f"**{gate.headline}**", ""]
        lines += [line for note in gate.notes for line in (f"> {note}", "")]
    lines += [f"- Base: `{run_line(comparison.base)}`",
              f"- Head: `{run_line(comparison.head)}`", "",
              outcome, ""]
    for warning in comparison.warnings:
        lines += [f"> **Warning:** {warning}", ""]
    for note in getattr(comparison, "notes", []):
        lines += [f"> **Note:** {note}", ""]
    return lines


def render_markdown(comparison: Comparison, gate: GateDecision | None = None) -> str:
    """The comparison as Markdown for a pull-request comment or step summary.

    Changed cases (slower first) in the main table, unchanged ones folded in <details>.
    """
    lines = markdown_preamble(comparison, gate, f"**{counts_sentence(comparison)}.** {rule_sentence(comparison)}")
    changed = [r for r in comparison.rows if r.verdict != UNCHANGED]
    unchanged = [r for r in comparison.rows if r.verdict == UNCHANGED]
    if changed:
        lines += md_table(compare_headers(comparison), COMPARE_ALIGNS,
                           [_compare_cells(r, True) for r in changed]) + [""]
    else:
        lines += ["No case changed significantly.", ""]
    if unchanged:
        what = ", ".join(["unchanged"] + [name for name, rows in (("undetectable", comparison.undetectable),
                                                                   ("unstable", comparison.unstable),
                                                                   ("bimodal", comparison.bimodal)) if rows])
        what = " or ".join(what.rsplit(", ", 1))
        lines += [f"<details><summary>{len(unchanged)} {what} case"
                  f"{'s' if len(unchanged) != 1 else ''}</summary>", ""]
        lines += md_table(compare_headers(comparison), COMPARE_ALIGNS,
                           [_compare_cells(r, True) for r in unchanged])
        lines += ["", "</details>", ""]
    lines += ["Geometric-mean ratio (head/base) per suite:", ""]
    lines += md_table(["Suite", "Cases", "Geomean ratio"], "lrr",
                       [[s, str(n), fmt_ratio(g)] for s, (g, n) in comparison.suite_geomeans.items()])
    lines.append("")
    for name, keys in _case_lists(comparison, gate):
        lines += [f"{name} ({len(keys)}): " + ", ".join(f"`{k.label}`" for k in keys), ""]
    lines += [line for text in _unstable_line(comparison, True) for line in (text, "")]
    return "\n".join(lines).rstrip("\n") + "\n"


def text_table(headers: list[str], aligns: str, rows: list[list[str]]) -> list[str]:
    """Rows padded into columns; ``aligns`` has one ``l`` or ``r`` per column."""
    widths = [max(len(cell) for cell in column) for column in zip(headers, *rows)]

    def line(cells):
        padded = [c.rjust(w) if a == "r" else c.ljust(w) for c, w, a in zip(cells, widths, aligns)]
        return "  ".join(padded).rstrip()

    return [line(headers)] + [line(row) for row in rows]


def render_text(comparison: Comparison, gate: GateDecision | None = None) -> str:
    """The comparison as aligned plain text for a terminal, slower cases first."""
    lines = [TITLE,
             f"base: {run_line(comparison.base)}",
             f"head: {run_line(comparison.head)}", ""]
    lines += text_table(compare_headers(comparison), COMPARE_ALIGNS,
                        [_compare_cells(r, False) for r in comparison.rows])
    lines += ["", f"{counts_sentence(comparison)}. {rule_sentence(comparison)}"]
    geomeans = ", ".join(f"{s} {fmt_ratio(g)} ({n} case{'s' if n != 1 else ''})"
                         for s, (g, n) in comparison.suite_geomeans.items())
    lines.append(f"Geometric-mean ratio per suite: {geomeans}")
    for name, keys in _case_lists(comparison, gate):
        lines.append(f"{name} ({len(keys)}): " + ", ".join(k.label for k in keys))
    lines += _unstable_line(comparison, False)
    lines += [f"warning: {w}" for w in comparison.warnings]
    lines += [f"note: {n}" for n in comparison.notes]
    if gate is not None:
        lines += gate.notes
        lines.append(gate.headline)
    return "\n".join(lines) + "\n"


def run_json(results: ResultsFile) -> dict:
    """A file's path and run metadata, JSON-ready (timing or counts file)."""
    run = {k: json_number(v) if isinstance(v, float) else v for k, v in results.run.items()}
    run["started_at"] = f"{run['started_at']:%Y-%m-%dT%H:%M:%SZ}"
    return {"path": results.path, **run}


def _row_json(row: CompareRow) -> dict:
    return {
        **row.key.to_json(),
        "base_n": row.base_n,
        "head_n": row.head_n,
        "base_median_ns": json_number(row.base_median),
        "head_median_ns": json_number(row.head_median),
        "ratio": json_number(row.ratio),
        "ci_low": json_number(row.ci_low),
        "ci_high": json_number(row.ci_high),
        "p_value": json_number(row.p_value),
        "verdict": row.verdict,
        "verdict_text": row.verdict_text,
        "alpha_reachable": row.alpha_reachable,
        "base_starved_samples": row.base_starved,
        "head_starved_samples": row.head_starved,
        "starved": row.starved,
        "base_rounds": row.base_rounds,
        "head_rounds": row.head_rounds,
        "by_rounds": row.by_rounds,
        "base_noise_floor": json_number(row.base_floor),
        "head_noise_floor": json_number(row.head_floor),
        "unstable": row.unstable,
        "base_modes": _modes_json(row.base_modes),
        "head_modes": _modes_json(row.head_modes),
    }


def _modes_json(modes) -> list[dict] | None:
    if modes is None:
        return None
    return [{"median_ns": modes.low_median, "share": modes.low_share},
            {"median_ns": modes.high_median, "share": modes.high_share}]


def render_json(comparison: Comparison, gate: GateDecision | None = None) -> str:
    """The comparison as JSON (format version JSON_FORMAT_VERSION) for tools.

    Strict JSON: an infinite number is the string ``"inf"`` and an undefined one null
    (compare.json_number), never a bare Infinity or NaN.
    """
    document = {
        "format_version": JSON_FORMAT_VERSION,
        "kind": TIMING,
        "threshold_percent": comparison.threshold,
        "alpha": comparison.alpha,
        "bootstrap_resamples": BOOTSTRAP_RESAMPLES,
        "base": run_json(comparison.base),
        "head": run_json(comparison.head),
        "counts": comparison.counts,
        "suite_geomean_ratio": {s: {"ratio": json_number(g), "cases": n}
                                for s, (g, n) in comparison.suite_geomeans.items()},
        "cases": [_row_json(r) for r in comparison.rows],
        "base_only": [k.to_json() for k in comparison.base_only],
        "head_only": [k.to_json() for k in comparison.head_only],
        "warnings": comparison.warnings,
        "notes": comparison.notes,
    }
    if gate is not None:
        document["gate"] = gate.to_json()
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


RENDERERS = {"md": render_markdown, "text": render_text, "json": render_json}
