"""Renderers of a Comparison: Markdown (pull requests, $GITHUB_STEP_SUMMARY), text, JSON.

Each returns the complete output as one string ending in a newline; none computes
anything beyond formatting.
"""

from __future__ import annotations

import json
import math
import textwrap
from typing import Sequence
from collections import Counter

from ..files.model import CaseKey, CountsFile, ResultsFile
from ..files.schema import TIMING
from ..fmt import fmt_ci, fmt_count, fmt_head_base_ratio, fmt_ns, fmt_p, fmt_ratio, json_number
from ..judge.compare import (BIMODAL, FASTER, SLOWER, STARVED_BOTH, STARVED_PAIRS, UNCHANGED, UNDETECTABLE,
                             UNRESOLVED, UNSTABLE, VERDICT_ORDER, Comparison, CompareRow, decided_together,
                             lone_change_level, RESOLUTION_BANDS, ResolutionGroup, paired_resolutions,
                             resolution_by_group)
from ..judge.gate import GateDecision, threshold_would_help
from ..judge.moved import WhatMoved
from .diagnosis_text import moved_text
from .gate_text import STEADY_HINT, headline, notes
from .limits_text import comparison_notes, comparison_warnings
from .outcome_text import noise_floor_text, outcome_text, resolution_summary, starved_pairs_text
from ..judge.paired import MIN_CALL_ROUNDS
from ..judge.stats import BOOTSTRAP_RESAMPLES, rounds_to_reach
from .doc import markdown_table
from ..judge.situations import ROLE_PARAM

FORMATS = ("md", "text", "json")
# 2: infinite numbers (starved medians and their ratios) are the string "inf"; added
# base_starved_samples, head_starved_samples and starved.
# 3: counts gains "undetectable" (no longer counted as "unchanged"); gate gains status,
# exit_code, missing, undetectable and allow_missing ("passed" is false for any status
# but passed); run settings of schema 3 files appear in base/head.
# 4: every document says its "kind": "timing" (this module) or "counts" (counts_render,
# a comparison of counts files).
# 5: suite_geomean_ratio entries gain ci_low and ci_high (null without rounds), at the
# confidence "ci_confidence" (1 - alpha) that every case's ci_low and ci_high also have.
# 6: a slower case gains "moved": its switches and kernel time per op on both sides, whether each
# moved, whether it now blocks ("blocking": "now", "no longer" or null) and the words ("text").
JSON_FORMAT_VERSION = 6
# Lists of cases under the table: in text, wrapped at this width under their suite.
TEXT_WIDTH = 100
TITLE = "DispatchBench comparison"
def run_line(results: ResultsFile | CountsFile) -> str:
    """One line describing where a run came from."""
    run = results.run
    return (f"{results.commit_label} on {run['host']} ({run['cpu_model']}, "
            f"{run['logical_cpus']} CPUs), {run['build']}, Swift {run['swift_version']}, "
            f"{run['started_at']:%Y-%m-%dT%H:%M:%SZ}")


def rule_sentence(comparison: Comparison) -> str:
    """How verdicts are decided, in one sentence (two when some cases have rounds)."""
    level = ci_level(comparison)
    if comparison.paired:
        return (f"Paired: each case is judged on the log ratios of its pairs (one sample of each build, "
                f"milliseconds apart): the change is the 15% trimmed mean over rounds of each round's median, "
                f"its standard error a bootstrap over rounds, then pairs; a case is slower or faster when "
                f"significant after Holm's procedure over all paired cases at {comparison.alpha:g} and the "
                f"change is at least {comparison.threshold:g}%; the CI is at {level}. A case's resolution is the "
                "smallest change it could call alone among them (docs/comparison-rule.md).")
    if comparison.by_rounds:
        return (f"A case with rounds is slower or faster when p, an exact Mann-Whitney U test on its round "
                f"medians, is significant after Benjamini-Hochberg over all cases judged by rounds at false "
                f"discovery rate {comparison.alpha:g}, and the change is at least {comparison.threshold:g}%; "
                f"ratio = head/base median of round medians, shown with its {level} CI (1 - alpha), a "
                f"hierarchical bootstrap over rounds, then samples within rounds ({BOOTSTRAP_RESAMPLES} "
                "resamples). Cases without rounds: p < alpha and the threshold, as for one process.")
    return (f"A case is slower or faster when p < {comparison.alpha:g} (two-sided Mann-Whitney U) "
            f"and the change is at least {comparison.threshold:g}%; ratio = head/base median "
            f"ns/op with a {level} bootstrap CI (1 - alpha, {BOOTSTRAP_RESAMPLES} resamples).")


def counts_sentence(comparison: Comparison) -> str:
    """``2 slower, 1 faster, 10 unchanged`` (, ``3 undetectable``; and how many have a
    starved median)."""
    counts = comparison.counts
    text = f"{counts[SLOWER]} slower, {counts[FASTER]} faster, {counts[UNCHANGED]} unchanged"
    if counts.get(UNRESOLVED):
        text += (f", {counts[UNRESOLVED]} not resolved (not significant, but the interval reaches the "
                 f"{1 + comparison.threshold / 100:.2f}× threshold)")
    if counts.get(BIMODAL):
        text += f", {counts[BIMODAL]} bimodal (not gated: samples in two levels)"
    if counts.get(UNSTABLE):
        text += f", {counts[UNSTABLE]} unstable (not gated: noise floor at least the threshold)"
    if counts.get(STARVED_PAIRS):
        text += f", {counts[STARVED_PAIRS]} starved (not gated: starved pairs leave no change to call)"
    if counts[UNDETECTABLE]:
        rounds = all(row.short_of_rounds for row in comparison.undetectable)
        text += f", {counts[UNDETECTABLE]} undetectable (too few {'rounds' if rounds else 'samples'})"
    starved = len(comparison.starved_rows)
    if starved:
        text += (f"; {starved} case{'s' if starved != 1 else ''} with a starved median "
                 "(no operation completed in at least half the samples)")
    return text



def _by_suite_text(keys: list[CaseKey]) -> str:
    """``once 12, wait 3``: how many of ``keys`` each suite holds, in suite order."""
    counted = Counter(key.suite for key in keys)
    return ", ".join(f"{suite} {count}" for suite, count in sorted(counted.items()))


def _case_lists(comparison: Comparison, gate: GateDecision | None) -> list[tuple[str, str, list[tuple]]]:
    """The lists under the table, each (title, detail column or "", rows of (key, detail)):
    one-sided cases, then the cases not gated (undetectable, unstable, bimodal, starved) with why.

    In a gate, base cases head lacks are "Missing from head": they fail it (unless
    --allow-missing)."""
    base_only = "Missing from head" if gate is not None else "Only in base"
    lists = [
        (base_only, "", [(key, "") for key in comparison.base_only]),
        ("Only in head", "", [(key, "") for key in comparison.head_only]),
        ("Undetectable, not judged", "Rounds (samples) base / head",
         [(row.key, f"{row.base_rounds} ({row.base_n}) / {row.head_rounds} ({row.head_n})")
          for row in comparison.undetectable]),
        ("Unstable, not gated", "Why", [(row.key, noise_floor_text(row.noise_floor)) for row in comparison.unstable]),
        ("Bimodal, not gated", "Levels",
         [(row.key, outcome_text(row).split(": ", 1)[1]) for row in comparison.bimodal]),
        ("Starved, not gated", "Why",
         [(row.key, starved_pairs_text(row)) for row in comparison.starved_pairs]),
    ]
    return [(title, column, rows) for title, column, rows in lists if rows]


def case_lists_markdown(lists: list[tuple[str, str, list[tuple]]]) -> list[str]:
    """Each list (title, detail column or "", rows of (key, detail)) folded: a summary line with
    its count per suite, then a table."""
    lines = []
    for title, column, rows in lists:
        keys = [key for key, _ in rows]
        lines += [f"<details><summary>{title}: {fmt_count(len(rows), 'case')} ({_by_suite_text(keys)})</summary>", ""]
        if column:
            lines += markdown_table(["Case", column], "ll", [[f"`{key.label}`", detail] for key, detail in rows])
        else:
            lines += markdown_table(["Case"], "l", [[f"`{key.label}`"] for key in keys])
        lines += ["", "</details>", ""]
    return lines


def case_lists_text(lists: list[tuple[str, str, list[tuple]]]) -> list[str]:
    """Each list under its title, never one long line: a list with a detail column (cases the
    table already shows) by its count per suite; the others (one-sided cases) by name, grouped by
    suite and wrapped."""
    lines = []
    for title, column, rows in lists:
        keys = [key for key, _ in rows]
        if column:
            lines += textwrap.wrap(f"{title} ({len(rows)}, marked in the table): {_by_suite_text(keys)}", TEXT_WIDTH,
                                   subsequent_indent="  ")
            continue
        lines.append(f"{title} ({len(rows)}):")
        for suite in sorted({key.suite for key in keys}):
            members = [key.label[len(suite) + 1:] for key in keys if key.suite == suite]
            lines += _wrap_items(f"  {suite} ({len(members)}): ", members)
    return lines


def _wrap_items(prefix: str, items: list[str], indent: str = "    ") -> list[str]:
    """``prefix`` and the items joined by ", ", broken into lines of at most TEXT_WIDTH between
    items (never inside one: a case's label holds spaces)."""
    lines, line = [], prefix
    for index, item in enumerate(items):
        text = item + ("," if index < len(items) - 1 else "")
        if line.strip() and len(line) + len(text) > TEXT_WIDTH and line not in (prefix, indent):
            lines.append(line.rstrip())
            line = indent
        line += text + " "
    return lines + [line.rstrip()]


# The CI column's header names its confidence (compare_headers).
COMPARE_HEADERS = ["Case", "Base ns/op", "Head ns/op", "Ratio", "CI", "p", "Verdict"]
COMPARE_ALIGNS = "lrrrlrl"


def ci_level(comparison: Comparison) -> str:
    """The confidence every CI of the comparison is computed at, 1 - alpha: ``99%`` at 0.01."""
    return f"{(1 - comparison.alpha) * 100:g}%"


# A paired comparison's Ratio is not Head ns/op over Base ns/op, so its headers say what each is
# and PAIRED_COLUMNS_NOTE, under the table, says why they can disagree.
PAIRED_HEADERS = {"Base ns/op": "Base median ns/op", "Head ns/op": "Head median ns/op", "Ratio": "Paired ratio"}
PAIRED_COLUMNS_NOTE = ("Median ns/op: each side's median of its round medians. Paired ratio: what the gate judges, "
                       "from samples taken side by side (each round's median pair ratio, trimmed mean over "
                       "rounds); it need not equal head median / base median.")


def compare_headers(comparison: Comparison) -> list[str]:
    """The comparison table's headers; the CI column says its confidence, and in a paired comparison
    the ns/op and ratio columns say which is a median and which the paired estimate."""
    renamed = PAIRED_HEADERS if comparison.paired else {}
    return [f"{ci_level(comparison)} CI" if h == "CI" else renamed.get(h, h) for h in COMPARE_HEADERS]


def compare_table_notes(comparison: Comparison) -> list[str]:
    """The lines under the comparison table: what its columns are, when their names alone cannot say."""
    return [PAIRED_COLUMNS_NOTE] if comparison.paired else []


def _ratio_cell(row: CompareRow) -> str:
    if row.starved == STARVED_BOTH:
        return "none (both starved)"
    return fmt_head_base_ratio(row.ratio)


def _ci_cell(row: CompareRow) -> str:
    return "none (a median is starved)" if row.starved is not None else fmt_ci(row.ci_low, row.ci_high)


def _compare_cells(row: CompareRow, code: bool, moved: dict[CaseKey, WhatMoved] | None = None) -> list[str]:
    label = f"`{row.key.label}`" if code else row.key.label
    verdict = outcome_text(row)
    if code and row.changed:
        verdict = f"**{verdict}**"
    if moved and row.key in moved:
        verdict += f"; {moved_text(moved[row.key])}"
    return [label, fmt_ns(row.base_median), fmt_ns(row.head_median), _ratio_cell(row),
            _ci_cell(row), fmt_p(row.p_value), verdict]


def _has_role_rows(comparison: Comparison) -> bool:
    return any(ROLE_PARAM in row.key.params_dict for row in comparison.rows)


def _one_thing_to_do(comparison: Comparison, gate: GateDecision | None) -> str:
    """The one action that matters most, from what the comparison could not check."""
    rows = comparison.rows
    if comparison.slower:
        slower = len(comparison.slower)
        return ("look at the slower case first: it is the table's first row" if slower == 1 else
                f"look at the {slower} slower cases first: they are the table's first rows")
    if gate is not None and comparison.base_only and not gate.allow_missing:
        return ("rerun head with the same cases as base (was it interrupted or filtered?), or pass "
                "--allow-missing if head was filtered on purpose")
    if comparison.paired and comparison.undetectable and all(row.starved for row in comparison.undetectable):
        return ("give the undetectable cases longer samples (bench-commits --sample-time) or leave them out "
                "(--filter): they completed no operation in most of their samples (starved), so too few of "
                "their pairs had a ratio to judge")
    if comparison.paired and comparison.undetectable:
        return (f"give the undetectable cases the {MIN_CALL_ROUNDS} rounds a paired case calls a change from "
                "(bench-commits --rounds, --max-rounds, --budget), or longer samples (--sample-time) if they "
                "starved: a pair starved on both sides leaves its round out")
    if comparison.undetectable:
        by_rounds = [row for row in rows if decided_together(row)]
        level = lone_change_level(len(by_rounds) or len(rows), comparison.alpha)
        needed = rounds_to_reach(level)
        return (f"run both sides with at least {needed} rounds (bench --rounds {needed}), so that a change in "
                f"one case alone among {fmt_count(len(by_rounds) or len(rows), 'case')} can reach p <= {level:.2g}; "
                "or compare fewer cases (--filter)")
    if comparison.unstable:
        floors = [row.noise_floor for row in comparison.unstable if math.isfinite(row.noise_floor)]
        widest = f" (up to {max(floors):.2f}× here)" if floors else ""
        then = ("raise --threshold above their noise floor or leave them out with --filter"
                if threshold_would_help(row.noise_floor for row in comparison.unstable) else STEADY_HINT)
        return ("rerun both sides on a quiet machine (nothing else running): an unstable case's own rounds "
                f"differ by as much as the {comparison.threshold:g}% change the gate resolves{widest}; if they "
                f"stay unstable, {then}")
    if comparison.bimodal:
        return ("nothing the gate can decide: a bimodal case runs at two levels, so compare its levels "
                "(listed below) by eye")
    if comparison.starved_pairs:
        return ("give the starved cases longer samples (bench-commits --sample-time) or leave them out "
                "(--filter): their starved pairs leave them no change to call (each says why below)")
    coarse = [row.resolution for row in rows if row.paired and row.resolution > COARSE_RESOLUTION + 1e-9]
    if coarse:
        return (f"to see smaller changes, give the comparison more rounds: {len(coarse)} of "
                f"{fmt_count(sum(1 for row in rows if row.paired), 'paired case')} could see only a change coarser "
                f"than {COARSE_RESOLUTION:.2f}× (up to {max(coarse):.2f}×), so a pass says nothing finer there "
                "(bench-commits without --quick, or more --rounds and --budget)")
    return "nothing: every compared case was decided"


# A paired case that could see only a change coarser than this leaves "nothing to do" untrue.
COARSE_RESOLUTION = 1.10


def checked_lines(comparison: Comparison, gate: GateDecision | None = None) -> list[str]:
    """What was checked, what could not be, and the one thing to do about it (plain sentences)."""
    rows = comparison.rows
    decided = sum(1 for row in rows if row.outcome in VERDICT_ORDER)
    counts = comparison.counts
    lines = [f"Checked: {decided} of {fmt_count(len(rows), 'compared case')} decided "
             f"({counts[SLOWER]} slower, {counts[FASTER]} faster, {counts[UNCHANGED]} unchanged"
             + (f", {counts[UNRESOLVED]} not resolved" if counts.get(UNRESOLVED) else "") + ")."]
    missing = "missing from head" if gate is not None else "only in base"
    unchecked = [(len(comparison.undetectable), "undetectable (too few rounds or samples to reach the p needed)"),
                 (len(comparison.unstable), "unstable (their own rounds vary as much as the threshold)"),
                 (len(comparison.bimodal), "bimodal (samples at two levels)"),
                 (len(comparison.starved_pairs), "starved (their starved pairs leave no change to call)"),
                 (len(comparison.base_only), missing)]
    parts = [f"{count} {why}" for count, why in unchecked if count]
    lines.append(f"Not checked: {'; '.join(parts)}." if parts else "Not checked: none.")
    resolution = resolution_summary(paired_resolutions(rows))
    if resolution:
        lines.append(f"Resolution: the comparison {resolution} (each row says its own).")
    lines.append(f"To do: {_one_thing_to_do(comparison, gate)}.")
    if _has_role_rows(comparison):
        lines.append(f"Cases are counted by row: a case measured once per {ROLE_PARAM} ({ROLE_PARAM}=read and "
                     f"{ROLE_PARAM}=write, say) is a case per role here, so these counts exceed the number of "
                     "cases bench reports.")
    return lines


def _geomean_rows(comparison: Comparison) -> list[list[str]]:
    rows = []
    for suite, (geomean, count) in comparison.suite_geomeans.items():
        low, high = comparison.suite_intervals.get(suite, (math.nan, math.nan))
        if count == 0:
            ratio, interval = "none (every case starved)", ""
        else:
            ratio = fmt_ratio(geomean)
            needs = "none (needs 2 rounds)" if comparison.paired else "none (needs 2 rounds a side)"
            interval = needs if math.isnan(low) else fmt_ci(low, high)
        rows.append([suite, str(count), ratio, interval])
    return rows


RESOLUTION_TITLE = "Resolution of the paired cases per suite and thread count:"
# A median resolution beyond this reads "over 1000×": such a group could see no change worth a factor.
RESOLUTION_SHOWN_UP_TO = 1000


def resolution_table(groups: list[ResolutionGroup]) -> tuple[list[str], str, list[list[str]]]:
    """The headers, alignments and rows of a table of ``groups`` (``resolution_by_group``: the paired cases'
    resolutions per suite and thread count, the last row all of them)."""
    headers = ["Suite", "Threads", "Cases", "Median resolution"] + [f"≤ {band:.2f}×" for band in RESOLUTION_BANDS]
    body = [[group.suite, str(group.threads) if group.threads else "", str(group.cases),
             f"{group.median:.2f}×" if group.median < RESOLUTION_SHOWN_UP_TO else f"over {RESOLUTION_SHOWN_UP_TO}×",
             *(str(count) for count in group.within)]
            for group in groups]
    return headers, "lrrr" + "r" * len(RESOLUTION_BANDS), body


def geomean_note(comparison: Comparison) -> str:
    """What the suites' geometric means and their intervals are, and what the interval cannot show."""
    if comparison.paired:
        return (f"Per suite, the geometric mean of its cases' head/base ratios (cases with a starved median, or "
                f"whose starved pairs leave no change to call, left out) and its {ci_level(comparison)} CI: a "
                "bootstrap over the comparison's rounds, drawn once for all the suite's cases (a round is one pair of "
                "workers that visited them all). Both builds ran side by side, so a drift of the machine moves both.")
    return (f"Per suite, the geometric mean of its cases' head/base ratios (cases with a starved median left out) "
            f"and its {ci_level(comparison)} CI: a bootstrap over rounds, each run's rounds drawn once for all "
            "the suite's cases (a round is one process that ran them all). It shows how much the rounds "
            "disagree; a drift of the machine between the base and the head run is not in it.")


def markdown_preamble(comparison, gate, outcome: str, title: str = TITLE, checked: Sequence[str] = (),
                      part: str = "Gate") -> list[str]:
    """The lines every Markdown comparison starts with, timing or counts: the title, the gate's verdict and
    notes, what was checked, the two runs, the `outcome` sentence and the warnings. ``part``: what the verdict
    line names, ``Gate`` when the comparison is the whole verdict, the part it judges (``Timings``) when a larger
    verdict holds it (bench-commits); a ``part`` that holds a colon replaces the gate's line whole."""
    lines = [f"## {title}", ""]
    if gate is not None:
        line = part if ":" in part else f"{part}: {headline(gate).removeprefix('Gate: ')}"
        lines += [f"**{line}**", ""]
        lines += [line for note in notes(gate) for line in (f"> {note}", "")]
    if checked:
        lines += [f"- {line}" for line in checked] + [""]
    lines += [f"- Base: `{run_line(comparison.base)}`",
              f"- Head: `{run_line(comparison.head)}`", "",
              outcome, ""]
    for warning in comparison_warnings(comparison):
        lines += [f"> **Warning:** {warning}", ""]
    for note in comparison_notes(comparison):
        lines += [f"> **Note:** {note}", ""]
    return lines


def render_markdown(comparison: Comparison, gate: GateDecision | None = None, part: str = "Gate",
                    title: str = TITLE) -> str:
    """The comparison as Markdown for a pull-request comment or step summary (``part``: as in
    markdown_preamble).

    What was checked first; changed cases (slower first) in the main table, unchanged ones
    folded in <details>; then the suites' geometric means and the folded lists.
    """
    lines = markdown_preamble(comparison, gate, f"**{counts_sentence(comparison)}.** {rule_sentence(comparison)}",
                              title=title, checked=checked_lines(comparison, gate), part=part)
    changed = [r for r in comparison.rows if r.changed]
    unchanged = [r for r in comparison.rows if not r.changed]
    if changed:
        lines += markdown_table(compare_headers(comparison), COMPARE_ALIGNS,
                                [_compare_cells(r, True, comparison.moved) for r in changed]) + [""]
    else:
        lines += ["No case changed significantly.", ""]
    if unchanged:
        what = ", ".join(["unchanged"] + [name for name, rows in (("not resolved", comparison.unresolved),
                                                                   ("undetectable", comparison.undetectable),
                                                                   ("unstable", comparison.unstable),
                                                                   ("bimodal", comparison.bimodal),
                                                                   ("starved", comparison.starved_pairs))
                                          if rows])
        what = " or ".join(what.rsplit(", ", 1))
        lines += [f"<details><summary>{len(unchanged)} {what} case"
                  f"{'s' if len(unchanged) != 1 else ''}</summary>", ""]
        lines += markdown_table(compare_headers(comparison), COMPARE_ALIGNS,
                                [_compare_cells(r, True) for r in unchanged])
        lines += ["", "</details>", ""]
    lines += [line for note in compare_table_notes(comparison) for line in (note, "")]
    lines += ["Geometric-mean ratio (head/base) per suite:", ""]
    lines += markdown_table(["Suite", "Cases", "Geomean ratio", f"{ci_level(comparison)} CI"], "lrrl",
                            _geomean_rows(comparison))
    lines += ["", geomean_note(comparison), ""]
    headers, aligns, resolutions = resolution_table(resolution_by_group(comparison.rows))
    if resolutions:
        lines += [RESOLUTION_TITLE, ""] + markdown_table(headers, aligns, resolutions) + [""]
    lines += case_lists_markdown(_case_lists(comparison, gate))
    return "\n".join(lines).rstrip("\n") + "\n"


def text_table(headers: list[str], aligns: str, rows: list[list[str]]) -> list[str]:
    """Rows padded into columns; ``aligns`` has one ``l`` or ``r`` per column."""
    widths = [max(len(cell) for cell in column) for column in zip(headers, *rows)]

    def line(cells):
        padded = [c.rjust(w) if a == "r" else c.ljust(w) for c, w, a in zip(cells, widths, aligns)]
        return "  ".join(padded).rstrip()

    return [line(headers)] + [line(row) for row in rows]


def render_text(comparison: Comparison, gate: GateDecision | None = None) -> str:
    """The comparison as aligned plain text for a terminal, slower cases first; what was
    checked and the gate's verdict last, where a terminal leaves them in view."""
    lines = [TITLE,
             f"base: {run_line(comparison.base)}",
             f"head: {run_line(comparison.head)}", ""]
    lines += text_table(compare_headers(comparison), COMPARE_ALIGNS,
                        [_compare_cells(r, False, comparison.moved) for r in comparison.rows])
    lines += [wrapped for note in compare_table_notes(comparison) for wrapped in textwrap.wrap(note, TEXT_WIDTH)]
    lines += ["", f"{counts_sentence(comparison)}. {rule_sentence(comparison)}", ""]
    lines += ["Geometric-mean ratio (head/base) per suite:"]
    lines += ["  " + line for line in text_table(["Suite", "Cases", "Geomean ratio", f"{ci_level(comparison)} CI"],
                                                  "lrrl", _geomean_rows(comparison))]
    lines += textwrap.wrap(geomean_note(comparison), TEXT_WIDTH)
    headers, aligns, resolutions = resolution_table(resolution_by_group(comparison.rows))
    if resolutions:
        lines += [RESOLUTION_TITLE] + ["  " + line for line in text_table(headers, aligns, resolutions)]
    lines += case_lists_text(_case_lists(comparison, gate))
    lines += [f"warning: {w}" for w in comparison_warnings(comparison)]
    lines += [f"note: {n}" for n in comparison_notes(comparison)]
    lines += [wrapped for line in checked_lines(comparison, gate)
              for wrapped in textwrap.wrap(line, TEXT_WIDTH, subsequent_indent="  ", break_on_hyphens=False)]
    if gate is not None:
        lines += notes(gate)
        lines.append(headline(gate))
    return "\n".join(lines) + "\n"


def run_json(results: ResultsFile | CountsFile) -> dict:
    """A file's path and run metadata, JSON-ready (timing or counts file)."""
    run = {k: json_number(v) if isinstance(v, float) else v for k, v in results.run.items()}
    run["started_at"] = f"{run['started_at']:%Y-%m-%dT%H:%M:%SZ}"
    return {"path": results.path, **run}


def _moved_json(what: WhatMoved) -> dict:
    return {"text": moved_text(what), "blocking": what.blocking,
            **{m.name: {"base": json_number(m.base) if m.base is not None else None,
                        "head": json_number(m.head) if m.head is not None else None, "moved": m.moved}
               for m in what.moves}}


def _row_json(row: CompareRow, moved: dict[CaseKey, WhatMoved] | None = None) -> dict:
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
        "verdict_text": outcome_text(row),
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
        # Only for a paired case, so documents of other comparisons keep their exact shape.
        **({"paired": True, "pairs": row.pairs, "resolution": json_number(row.resolution),
            "base_alone_starved_pairs": row.base_alone_starved_pairs,
            "head_alone_starved_pairs": row.head_alone_starved_pairs,
            "starved_both_ways": row.outcome == STARVED_PAIRS and row.starved_both_ways,
            "starved_rounds": row.starved_rounds, "starved_short": row.outcome == STARVED_PAIRS and row.starved_short}
           if row.paired else {}),
        # Only for a slower case: what moved with it (judge/moved.py).
        **({"moved": _moved_json(moved[row.key])} if moved and row.key in moved else {}),
    }


def _modes_json(modes) -> list[dict] | None:
    if modes is None:
        return None
    return [{"median_ns": modes.low_median, "share": modes.low_share},
            {"median_ns": modes.high_median, "share": modes.high_share}]


def render_json(comparison: Comparison, gate: GateDecision | None = None) -> str:
    """The comparison as JSON (format version JSON_FORMAT_VERSION) for tools.

    Strict JSON: an infinite number is the string ``"inf"`` and an undefined one null
    (fmt.json_number), never a bare Infinity or NaN.
    """
    document = {
        "format_version": JSON_FORMAT_VERSION,
        "kind": TIMING,
        "threshold_percent": comparison.threshold,
        "alpha": comparison.alpha,
        "ci_confidence": 1 - comparison.alpha,
        "bootstrap_resamples": BOOTSTRAP_RESAMPLES,
        "base": run_json(comparison.base),
        "head": run_json(comparison.head),
        "counts": comparison.counts,
        "suite_geomean_ratio": {s: {"ratio": json_number(g), "cases": n,
                                    "ci_low": json_number(comparison.suite_intervals.get(s, (math.nan,) * 2)[0]),
                                    "ci_high": json_number(comparison.suite_intervals.get(s, (math.nan,) * 2)[1])}
                                for s, (g, n) in comparison.suite_geomeans.items()},
        "cases": [_row_json(r, comparison.moved) for r in comparison.rows],
        "base_only": [k.to_json() for k in comparison.base_only],
        "head_only": [k.to_json() for k in comparison.head_only],
        "warnings": comparison_warnings(comparison),
        "notes": comparison_notes(comparison),
    }
    if gate is not None:
        document["gate"] = gate.to_json()
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


RENDERERS = {"md": render_markdown, "text": render_text, "json": render_json}
