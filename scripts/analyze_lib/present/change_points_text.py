"""Change points in words and on charts (``analyze history``): the table of where each case's series shifted, the
paired bisect that would confirm each, and the marks drawn on the cases' charts. Where a series shifted is judged in
judge.change_points; this module only says it.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Callable, Sequence

from ..files.model import CaseKey, CountsFile, ResultsFile
from ..fmt import fmt_allocations, fmt_difference, fmt_instructions, fmt_ns, fmt_p, fmt_percent
from ..judge import change_points
from ..judge.change_points import (ALLOCATIONS_PER_OP, COUNT_STEP_PERCENT, INSTRUCTIONS_PER_OP, MAX_P, MIN_RUNS,
                                   NS_PER_OP, ChangePoint)
from ..judge.compare import FASTER, SLOWER
from ..judge.counts_compare import DEFAULT_ALLOCATIONS_TOLERANCE
from .charts import Mark
from .doc import Bullets, Heading, Paragraph, Table
from .outcome_text import ratio_text

# The command that finds the commit of a shift by timing the commits between, paired (docs/bench-commits.md).
BISECT = "scripts/bench-commits bisect"
# bench-commits bisect looks for the first commit that made the cases slower; with this, faster.
BISECT_FASTER = "--faster"
# What a chart's legend shows of a subject line, in characters, so that the note fits within its panel (a line of
# 9 pt text about 3.6 inches long, in a panel 5 inches wide).
LEGEND_SUBJECT_CHARS = 48
# A regular expression's special characters, escaped in a case name (re.escape would escape '-' as well).
_REGEX_SPECIAL = set(".^$*+?()[]{}|\\")
UNKNOWN_COMMIT = "unknown"

# A commit -> its subject line, or None where the repository does not have it (files.commits.subject_reader).
Subjects = Callable[[str], str | None]


@dataclass(frozen=True)
class Numbered:
    """A change point with its number in the report and the runs of its series (timing or counts runs)."""

    number: int
    point: ChangePoint
    runs: Sequence[ResultsFile] | Sequence[CountsFile]

    @property
    def good(self) -> ResultsFile | CountsFile:
        """The last run before the shift."""
        return self.runs[self.point.before_run]

    @property
    def bad(self) -> ResultsFile | CountsFile:
        """The first run after it."""
        return self.runs[self.point.after_run]


def number_points(timing: list[ChangePoint], timing_runs: Sequence[ResultsFile], counts: list[ChangePoint],
                  counts_runs: Sequence[CountsFile]) -> list[Numbered]:
    """Timing change points numbered from 1, then the counts ones."""
    numbered = [Numbered(i + 1, point, timing_runs) for i, point in enumerate(timing)]
    return numbered + [Numbered(len(numbered) + i + 1, point, counts_runs) for i, point in enumerate(counts)]


def case_regex(key: CaseKey) -> str:
    """A ``--filter`` that matches this case's suite/benchmark/variant alone."""
    return "^" + "".join("\\" + c if c in _REGEX_SPECIAL else c for c in key.filter_name) + "$"


def _commit(run: ResultsFile | CountsFile) -> str:
    return run.commit_label.split("+")[0]


def bisect_command(numbered: Numbered) -> str | None:
    """``scripts/bench-commits bisect GOOD BAD -- --filter '^suite/benchmark/variant$'`` (with BISECT_FASTER before
    ``--`` for a change to faster or fewer), GOOD the commit of the last run before the shift and BAD of the first
    after; None when there is nothing to bisect (see no_bisect_reason)."""
    if no_bisect_reason(numbered) is not None:
        return None
    faster = " " + BISECT_FASTER if numbered.point.shift.ratio < 1 else ""
    return (f"{BISECT} {_commit(numbered.good)} {_commit(numbered.bad)}{faster} -- "
            f"--filter {shlex.quote(case_regex(numbered.point.key))}")


def no_bisect_reason(numbered: Numbered) -> str | None:
    """Why a change point has no bisect command, or None when it has one."""
    good, bad = _commit(numbered.good), _commit(numbered.bad)
    if UNKNOWN_COMMIT in (good, bad):
        return "a run does not record its commit"
    if good == bad:
        return ("the same commit ran before and after: the shift is not in its code (the machine, the toolchain or "
                "the options changed)")
    return None


def change_text(point: ChangePoint) -> str:
    """The shift in words: ``1.31× slower``, ``+0.62% instructions/op``, ``+1.000 allocations/op``."""
    shift = point.shift
    if point.metric == NS_PER_OP:
        return ratio_text(shift.ratio, SLOWER if shift.ratio > 1 else FASTER)
    if point.metric == INSTRUCTIONS_PER_OP:
        return f"{fmt_percent(shift.ratio - 1)} {INSTRUCTIONS_PER_OP}"
    return f"{fmt_difference(shift.after - shift.before)} {ALLOCATIONS_PER_OP}"


def _level(point: ChangePoint, value: float, runs: int) -> str:
    number = {NS_PER_OP: fmt_ns, INSTRUCTIONS_PER_OP: fmt_instructions,
              ALLOCATIONS_PER_OP: fmt_allocations}[point.metric](value)
    return f"{number} ({runs} run{'' if runs == 1 else 's'})"


def evidence_text(point: ChangePoint) -> str:
    """What holds the change point up: Student's t's p (timing), or that every run after it moved (counts)."""
    if point.shift.p_value is not None:
        return f"p = {fmt_p(point.shift.p_value)}"
    return "every run after moved (exact counts)"


def _run_text(index: int, run: ResultsFile | CountsFile, subjects: Subjects | None = None) -> str:
    subject = subjects(run.run["commit"]) if subjects is not None else None
    return f"{index + 1}: `{run.commit_label}`" + (f" {subject}" if subject else "")


def change_point_blocks(points: list[Numbered], threshold: float, subjects: Subjects) -> list:
    """history.md's Change points section: what one is, the table, and the bisect command of each."""
    blocks: list = [
        Heading(2, "Change points"),
        Paragraph(f"A change point is the run from which a case's level shifted and stayed, at least {MIN_RUNS} "
                  "runs on each side (runs without the case are passed over). ruptures' kernel change point "
                  "detection proposes them over each case's runs; a timing one stands when Student's t on the runs "
                  f"either side gives p < {MAX_P:g} and the shift is at least {threshold:g}%, a count one when "
                  f"every run after it differs by more than {COUNT_STEP_PERCENT:g}% of instructions/op (or "
                  f"{DEFAULT_ALLOCATIONS_TOLERANCE:g} allocations/op). How often unchanged code shows one: "
                  "docs/analyze.md, Change points."),
    ]
    if not change_points.AVAILABLE:
        blocks.append(Paragraph("**Not looked for:** ruptures, which finds them, has no build for this Python "
                                "(scripts/requirements.txt); use Python 3.13 or older."))
        return blocks
    if not points:
        blocks.append(Paragraph("No case shifted."))
        return blocks
    blocks.append(Table(
        ("#", "Case", "Metric", "Last run before", "First run after", "Before", "After", "Change", "Evidence"),
        tuple((str(n.number), f"`{n.point.key.label}`", n.point.metric, _run_text(n.point.before_run, n.good),
               _run_text(n.point.after_run, n.bad, subjects),
               _level(n.point, n.point.shift.before, n.point.shift.points_before),
               _level(n.point, n.point.shift.after, n.point.shift.points_after),
               f"**{change_text(n.point)}**", evidence_text(n.point)) for n in points),
        "rllllrrll"))
    blocks.append(Paragraph("To find the commit of each, a paired bisect times the commits between the last run "
                            "before and the first after (docs/bench-commits.md):"))
    blocks.append(Bullets(tuple(
        f"{n.number}: `{bisect_command(n)}`" if bisect_command(n) else f"{n.number}: no bisect: {no_bisect_reason(n)}"
        for n in points)))
    return blocks


def chart_mark(numbered: Numbered, subjects: Subjects) -> Mark:
    """The change point on its case's chart: between its two runs, in its variant's colour, numbered, with its
    number, commit and change, and under them its subject line (shortened), in the panel's legend."""
    point = numbered.point
    subject = subjects(numbered.bad.run["commit"]) or ""
    if len(subject) > LEGEND_SUBJECT_CHARS:
        subject = subject[:LEGEND_SUBJECT_CHARS - 1].rstrip() + "…"
    note = f"{numbered.number}: {_commit(numbered.bad)} ({change_text(point)})" + (f"\n{subject}" if subject else "")
    return Mark((point.before_run + point.after_run) / 2, point.key.variant, str(numbered.number), note)
