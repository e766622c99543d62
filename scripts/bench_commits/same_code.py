"""The rule that finds what changed before anything is timed, stated once.

**Same code.** When two builds have equal code identities (code_identity): the same toolchain, build command,
link command and object list, manifest, resolved dependencies and link inputs from outside the package, and
every piece (every section the program loads, of every object on the link line, with its relocations and
symbols) equal in both, then the two binaries are links of the same objects by the same command, and every
case runs identical code. Each case is then judged **unchanged: same code**, with that evidence named, and
bench-commits times only a short control (``CONTROL_ROUNDS`` paired rounds of every case): what code identity cannot
see (the machine, the environment, a file the code reads) is still timed, and a suite the control finds moved
(analyze_lib/judge/control.py states that rule) is reported and gated, not hidden. ``bench count`` is not run: a count
is exact for the code a case executes, so between two builds of identical code it can move only with where the linker
put things (the runtime's metadata cache hashes addresses: docs/findings/2026-11-28-counts-alone.md), which is
layout, not code, and which every round's fresh link shuffles for both sides alike.

**Changed code.** When anything differs, every case is timed as before, and the comparison names what differs:
the inputs, and the changed pieces by the symbols they define (demangled). No case is left out: which cases
execute a changed piece is not decided here.

**Unknown.** When an identity cannot be had (a build without a link kit, whose objects are not known), every
case is timed as before, and the comparison says why the selection could not run.

``--all`` times every case whatever the identities say.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from collections import defaultdict
from dataclasses import dataclass
from typing import Mapping, Sequence

from analyze_lib.exit_codes import EXIT_INCONCLUSIVE, EXIT_PASSED, EXIT_REGRESSION
from analyze_lib.judge.control import SLOWER, SuiteControl

from .code_identity import CodeIdentity

# The control a same-code comparison times: every case, this many paired rounds, no further ones. Few enough to
# leave the verdict in minutes, enough for the control's rule (judge/control.py) to see a suite move in every round;
# too few for the paired rule to call a single case, which ``--rounds 10`` (paired.MIN_CALL_ROUNDS) brings back.
CONTROL_ROUNDS = 3
# Of the cases a selected comparison leaves out, the control times this many or more of each suite, whole variant
# groups drawn by the seed (``control_groups``), and all of a smaller suite. The control judges a suite by the median
# of its cases (judge/control.py): a group of 50 random cases of identical code never moved
# (docs/findings/2026-11-28-a-control-in-three-rounds.md), and a whole suite's move moves any part of it.
CONTROL_CASES_PER_SUITE = 50
# Why a same-code comparison runs no ``bench count`` (the module doc says more).
COUNTS_NOT_RUN = ("both builds run identical code, and a count can then move only with layout, which the control "
                  "times (docs/comparison-rule.md#same-code-before-anything-is-timed)")
# How many changed pieces the comparison lists by name; the rest are counted.
LISTED_CHANGES = 20
# How many symbols of one changed section it names.
LISTED_SYMBOLS = 4
DEMANGLE_TIMEOUT_SECONDS = 60

SAME = "same code"
CHANGED = "changed code"
UNKNOWN = "code identity unknown"


@dataclass(frozen=True)
class CodeComparison:
    """What two builds' identities say: ``status`` (SAME, CHANGED or UNKNOWN), the inputs compared and those that
    differ, the pieces that differ or are only in one build (sorted, each with the symbols it defines in either
    build), and how many pieces and symbols are equal. ``why`` says why the status is UNKNOWN."""

    status: str
    changed_inputs: tuple[str, ...] = ()
    changed_pieces: tuple[tuple[str, tuple[str, ...]], ...] = ()
    identical_pieces: int = 0
    identical_symbols: int = 0
    inputs: tuple[str, ...] = ()
    why: str = ""

    @property
    def same(self) -> bool:
        return self.status == SAME


def compare_identities(base: CodeIdentity | None, head: CodeIdentity | None, why_none: str = "") -> CodeComparison:
    """Apply the rule (module doc) to the identities of the base and the head build; ``why_none`` says why one
    is None."""
    if base is None or head is None:
        return CodeComparison(UNKNOWN, why=why_none or "a build has no code identity")
    inputs = tuple(sorted(set(base.inputs) | set(head.inputs)))
    changed_inputs = tuple(name for name in inputs if base.inputs.get(name) != head.inputs.get(name))
    keys = set(base.pieces) | set(head.pieces)
    changed = sorted(key for key in keys if base.pieces.get(key) != head.pieces.get(key))
    pieces = tuple((key, tuple(sorted({*base.symbols.get(key, ()), *head.symbols.get(key, ())}))) for key in changed)
    identical = keys - set(changed)
    status = SAME if not changed_inputs and not changed else CHANGED
    return CodeComparison(status, changed_inputs, pieces, len(identical),
                          sum(len(base.symbols.get(key, ())) for key in identical), inputs)


def evidence(comparison: CodeComparison) -> str:
    """The evidence of a same-code comparison in a line, e.g. ``8235 sections identical (23926 symbols); same
    toolchain, build command, …``."""
    inputs = sorted(comparison.inputs, key=lambda name: (name != "toolchain", name))
    return (f"{comparison.identical_pieces} sections identical ({comparison.identical_symbols} symbols); same "
            + ", ".join(inputs))


def demangle(names: list[str]) -> list[str]:
    """``names`` demangled by the toolchain's swift-demangle (simplified), or as they are when it cannot run."""
    tool = shutil.which("swift-demangle")
    if not names or tool is None:
        return list(names)
    try:
        done = subprocess.run([tool, "--simplified", "--compact"], input="\n".join(names) + "\n",
                              capture_output=True, text=True, timeout=DEMANGLE_TIMEOUT_SECONDS)
    except (OSError, subprocess.TimeoutExpired):
        return list(names)
    lines = done.stdout.splitlines()
    return lines if done.returncode == 0 and len(lines) == len(names) else list(names)


def control_groups(same: Sequence[str], cases: Mapping[str, int], seed: int,
                   least: int = CONTROL_CASES_PER_SUITE) -> list[str]:
    """The groups (``suite/benchmark/variant``) of ``same`` that a selected comparison's control times, sorted: of each
    suite, groups in an order the seed shuffles until they hold at least ``least`` cases (``cases``: how many cases
    each group has), so that a suite is judged from as many cases as the rule needs, and not every one of them."""
    by_suite: dict[str, list[str]] = defaultdict(list)
    for group in sorted(same):
        by_suite[group.split("/", 1)[0]].append(group)
    chosen: list[str] = []
    for suite, groups in sorted(by_suite.items()):
        random.Random(f"{seed}/{suite}").shuffle(groups)
        held = 0
        for group in groups:
            if held >= least:
                break
            chosen.append(group)
            held += cases.get(group, 0)
    return sorted(chosen)


def control_exit(timing_exit: int, suites: Sequence[SuiteControl] = ()) -> int:
    """The exit code of a same-code comparison whose timing gate gave ``timing_exit`` and whose control judged
    ``suites``: a suite that moved slower fails (1), as a case the gate calls slower does (with ``--rounds 10`` and
    more), and an incomplete run is incomplete (5), as in any comparison; a gate that could decide little (4) passes,
    since identical code, not the control, is the evidence. A suite that moved faster passes, as a faster case does."""
    if any(suite.moved == SLOWER for suite in suites):
        return EXIT_REGRESSION
    return EXIT_PASSED if timing_exit == EXIT_INCONCLUSIVE else timing_exit


def changes_summary(comparison: CodeComparison) -> str:
    """What differs, in a few words: ``3 of 8253 sections differ; manifest``."""
    total = len(comparison.changed_pieces) + comparison.identical_pieces
    parts = [f"{len(comparison.changed_pieces)} of {total} sections differ"] if comparison.changed_pieces else []
    if comparison.changed_inputs:
        inputs = comparison.changed_inputs
        parts.append(f"{' and '.join(inputs)} differ{'s' if len(inputs) == 1 else ''}")
    return "; ".join(parts)


def describe(comparison: CodeComparison, cases: int | None = None, timed_all: bool | None = True) -> list[str]:
    """The comparison's code section in Markdown lines: what the rule found and its evidence, or what differs
    (up to LISTED_CHANGES changed sections with their symbols, demangled), or why it is unknown. ``cases``: how
    many cases were compared, when known; ``timed_all``: whether every case was timed as a changed one (False:
    the control; None: nothing was timed)."""
    every = f"all {cases} cases" if cases is not None else "every case"
    timed = "" if timed_all is None else f" {every[0].upper()}{every[1:]} timed."
    if comparison.status == UNKNOWN:
        return [f"**Code: {UNKNOWN}** ({comparison.why}).{timed}"]
    if comparison.same:
        control = (" The timing below is the control (a few paired rounds of every case, no further ones): a suite "
                   "it finds moved, moved although its code did not, a finding." if timed_all is False
                   else " Every case was timed as asked." if timed_all else "")
        run = f"{every} run" if cases is not None else f"{every} runs"
        return [f"**Code: same code.** Every input and every section of the two builds is identical: "
                f"{evidence(comparison)}. So {run} identical code, and each is **unchanged: same code** "
                f"(docs/comparison-rule.md#same-code-before-anything-is-timed).{control}"]
    lines = [f"**Code: changed**: {changes_summary(comparison)}.{timed}"]
    shown = comparison.changed_pieces[:LISTED_CHANGES]
    if shown:
        names = [name for _, symbols in shown for name in symbols[:LISTED_SYMBOLS]]
        readable = dict(zip(names, demangle(names)))
        lines += ["", "| changed section | its symbols, demangled |", "| --- | --- |"]
        for key, symbols in shown:
            text = "; ".join(f"`{_cell(readable[name])}`" for name in symbols[:LISTED_SYMBOLS])
            more = f" and {len(symbols) - LISTED_SYMBOLS} more" if len(symbols) > LISTED_SYMBOLS else ""
            lines.append(f"| `{_cell(key)}` | {text or 'none'}{more} |")
        if len(comparison.changed_pieces) > len(shown):
            lines.append(f"| … and {len(comparison.changed_pieces) - len(shown)} more | |")
    return lines


def _cell(text: str) -> str:
    """``text`` fit for a Markdown table cell inside a code span."""
    return text.replace("|", "\\|").replace("`", "'")
