"""The report of bench-commits bisect, in Markdown: the verdict line first and last (verdict.first_and_last), then
the first moved commit with its subject, its paired change against GOOD with each case's interval and what it
changed (its code's changed sections and functions, demangled); or why there is none; then every step, each commit
with how it was settled; and how many commits were built, timed, settled as the same code and skipped. It says what
bisect.search and the probe found, and decides nothing."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from analyze_lib.exit_codes import EXIT_INCONCLUSIVE, EXIT_NO_CHANGE, EXIT_OK
from analyze_lib.fmt import fmt_ci, fmt_head_base_ratio
from analyze_lib.judge.compare import SLOWER, CompareRow
from analyze_lib.present.outcome_text import outcome_text
from . import verdict
from .bisect import (BUILD_FAILED, FOUND, MOVED, NARROWED, NO_CHANGE, NOT_MOVED, SAME_CODE, STOPPED, TIMED,
                     TIMED_FURTHER, UNDECIDED, Bisection)
from .sides import short

# The verdict line's word for each exit code of bisect.
VERDICT_WORDS = {EXIT_OK: "FOUND", EXIT_INCONCLUSIVE: "INCONCLUSIVE", EXIT_NO_CHANGE: "NO CHANGE"}
EXIT_CODES = {FOUND: EXIT_OK, NARROWED: EXIT_INCONCLUSIVE, STOPPED: EXIT_INCONCLUSIVE, NO_CHANGE: EXIT_NO_CHANGE}
# How many cases a step's line and the verdict line name; the table under the culprit names them all.
NAMED_CASES = 3
# How much of a failed build's message a step's line keeps.
FAILURE_CHARACTERS = 160


@dataclass(frozen=True)
class Timing:
    """One paired comparison of a commit against GOOD: whether it was the step's further timing, its files, the
    gate's row of each chosen case it timed, the chosen groups it did not time (their code is GOOD's), the verdict
    of the step so far (with the first timing's decided cases, for a further one) and the run's shape."""

    commit: str
    further: bool
    files: tuple[str, str]
    rows: tuple[CompareRow, ...]
    same: tuple[str, ...]
    verdict: str
    shape: str


@dataclass(frozen=True)
class Facts:
    """What the report says besides the search's steps: the revisions as given, the direction searched (compare.SLOWER
    or FASTER), each commit's subject, the timings of each commit timed, what the first moved commit changed
    (Markdown lines), how many builds were kept from an earlier run, the chosen cases in words, the bench options, a
    timed step's shape, the seed and the wall time."""

    good_rev: str
    bad_rev: str
    direction: str
    subjects: dict[str, str]
    timings: dict[str, list[Timing]]
    changed: list[str]
    reused: int
    chosen: str
    bench_options: tuple[str, ...]
    shape: str
    seed: int
    wall: str


def render(found: Bisection, facts: Facts) -> tuple[str, int]:
    """The report's Markdown and its exit code (exit_codes.BENCH_COMMITS_BISECT_EXIT_CODES)."""
    word = "slower" if facts.direction == SLOWER else "faster"
    code = EXIT_CODES[found.status]
    good, bad = found.good, found.candidates[-1]
    counts = _counts_headline(found)
    body = [f"# bench-commits bisect: {facts.good_rev} ({short(good)}) → {facts.bad_rev} ({short(bad)}), the first "
            f"{word} commit", "",
            f"{len(found.candidates)} commit(s) in GOOD..BAD (first parent); the chosen cases: {facts.chosen}; each "
            f"timed step a paired comparison against GOOD ({facts.shape}), judged by the gate's rule "
            f"(docs/comparison-rule.md); seed {facts.seed}; {facts.wall} wall time.", ""]
    if found.status == FOUND:
        culprit = found.first_bad
        via, timings = _evidence(found, facts, culprit)
        headlines = [f"first {word} commit: `{short(culprit)}` {facts.subjects.get(culprit, '')}".rstrip(),
                     _moved_text(timings, facts.direction), counts]
        body += [f"## The first {word} commit: `{short(culprit)}` {facts.subjects.get(culprit, '')}".rstrip(), "",
                 *_change_lines(culprit, via, timings, found), "",
                 *_before_lines(found, facts, word), "",
                 f"What it changed, against `{short(found.last_good)}`:", "", *facts.changed, ""]
    elif found.status == NO_CHANGE:
        same = found.steps[-1].how == SAME_CODE
        headlines = [f"no change: BAD `{short(bad)}` " + ("runs the same code as GOOD for the chosen cases" if same
                                                         else f"is not {word} than GOOD `{short(good)}` on the "
                                                              "chosen cases"),
                     counts]
        body += ["## No change", "",
                 (f"BAD runs the same code as GOOD for the chosen cases: no commit in the range can have made them "
                  f"{word}." if same else f"BAD is not {word} than GOOD on the chosen cases, so no commit in the "
                  "range made them so (a case that moved and moved back in between is not looked for):"), ""]
        body += [] if same else [*_timing_tables(facts.timings.get(bad, [])), ""]
    else:
        remaining = found.remaining
        where = (f"after `{short(found.last_good)}`{' (GOOD)' if found.last_good == good else ''} up to "
                 f"`{short(found.first_bad)}`{' (BAD)' if found.first_bad == bad else ''}")
        if found.status == STOPPED:
            headlines = [f"stopped at `{short(found.stopped_at)}`: its change against GOOD stayed undecided when "
                         "timed further", f"the first {word} commit is one of {len(remaining)}, {where}", counts]
            body += [f"## Stopped at `{short(found.stopped_at)}`", "",
                     "Its change against GOOD could not be decided, even timed further with more rounds:", "",
                     *_timing_tables(facts.timings.get(found.stopped_at, [])), ""]
        else:
            headlines = [f"the first {word} commit is one of {len(remaining)}, {where}: the commits before "
                         f"`{short(found.first_bad)}` could not be built", counts]
            body += ["## Narrowed to commits that could not be built", ""]
        rerun = shlex.join(["scripts/bench-commits", "bisect", short(found.last_good), short(found.first_bad),
                            *(["--", *facts.bench_options] if facts.bench_options else [])])
        body += [f"The first {word} commit is one of these {len(remaining)}, oldest first:", "",
                 *[f"- `{short(commit)}` {facts.subjects.get(commit, '')}".rstrip() for commit in remaining], "",
                 f"To go on: `{rerun}`, with more rounds (`--rounds`, `--max-rounds`, `--budget`) or on a quieter "
                 "machine." if found.status == STOPPED else
                 "A commit that cannot be built cannot be timed: fix its build in a scratch branch, or read its diff.",
                 ""]
    body += ["## Steps", "", *_steps_table(found, facts, word), "", _counts_sentence(found, facts.reused), ""]
    return "\n".join(verdict.first_and_last(code, headlines, body, VERDICT_WORDS)), code


def _evidence(found: Bisection, facts: Facts, commit: str) -> tuple[str, list[Timing]]:
    """The timings that settled ``commit``: its own, or, for a commit settled as the same code as another, those of
    the commit whose code it runs (followed to one that was timed); and that commit."""
    seen = commit
    while (step := found.settled(seen)) is not None and step.how == SAME_CODE:
        seen = step.same_as
    return seen, facts.timings.get(seen, [])


def _case_text(row: CompareRow) -> str:
    """A case's change in a line: ``once/hit/x threads:1`` 1.31× slower [1.28, 1.34]."""
    return f"`{row.key.label}` {outcome_text(row)} {fmt_ci(row.ci_low, row.ci_high)}"


def _moved_text(timings: list[Timing], direction: str) -> str:
    """The cases a commit's timings called ``direction``, in a few words."""
    moved = [row for timing in timings for row in timing.rows if row.outcome == direction]
    more = f" and {len(moved) - NAMED_CASES} more" if len(moved) > NAMED_CASES else ""
    return "; ".join(_case_text(row) for row in moved[:NAMED_CASES]) + more


def _timing_tables(timings: list[Timing]) -> list[str]:
    """Each timing's files and a row per case timed: head/base, interval and the gate's outcome."""
    lines: list[str] = []
    for timing in timings:
        what = "Timed further" if timing.further else "Timed"
        lines += [f"{what}: `{timing.files[0]}` (GOOD) vs `{timing.files[1]}` ({timing.shape}).", "",
                  "| case | head/base | interval | outcome |", "| --- | ---: | --- | --- |"]
        lines += [f"| `{row.key.label}` | {fmt_head_base_ratio(row.ratio)} | {fmt_ci(row.ci_low, row.ci_high)} | "
                  f"{outcome_text(row)} |" for row in timing.rows]
        if timing.same:
            lines += ["", "Not timed, their code the same as GOOD's: " + ", ".join(f"`{g}`" for g in timing.same)
                      + "."]
        lines.append("")
    return lines[:-1]


def _change_lines(commit: str, via: str, timings: list[Timing], found: Bisection) -> list[str]:
    """Its paired change against GOOD: the table of the timing that settled it."""
    if via == commit:
        head = "Its paired change against GOOD:"
    else:
        head = (f"It runs the same code for the chosen cases as `{short(via)}`"
                f"{' (BAD)' if via == found.candidates[-1] else ''}, whose paired change against GOOD is:")
    return [head, "", *_timing_tables(timings)]


def _before_lines(found: Bisection, facts: Facts, word: str) -> list[str]:
    """The commit before the first moved one: GOOD itself, or why it is not ``word``."""
    before = found.last_good
    if before == found.good:
        return [f"The commit before it is GOOD (`{short(before)}`)."]
    via, timings = _evidence(found, facts, before)
    subject = facts.subjects.get(before, "")
    if not timings:
        return [f"The commit before it, `{short(before)}` {subject}, runs GOOD's code for the chosen cases."]
    same = "" if via == before else f" (it runs the code of `{short(via)}`, timed)"
    return [f"The commit before it, `{short(before)}` {subject}, is not {word} than GOOD{same}:", "",
            *_timing_tables(timings)]


def _steps_table(found: Bisection, facts: Facts, word: str) -> list[str]:
    """A row per step, in order: the commit, its subject, how it was settled and its verdict against GOOD."""
    verdicts = {MOVED: word, NOT_MOVED: f"not {word}", UNDECIDED: "undecided", "": "skipped"}
    bad = found.candidates[-1]
    lines = ["| step | commit | subject | settled | against GOOD |", "| ---: | --- | --- | --- | --- |"]
    for index, step in enumerate(found.steps, start=1):
        name = f"`{short(step.commit)}`" + (" (BAD)" if step.commit == bad else "")
        if step.how in (TIMED, TIMED_FURTHER):
            timing = next((timing for timing in facts.timings.get(step.commit, [])
                           if timing.further == (step.how == TIMED_FURTHER)), None)
            rows = timing.rows if timing is not None else ()
            shown = "; ".join(_case_text(row) for row in rows[:NAMED_CASES])
            more = f" and {len(rows) - NAMED_CASES} more" if len(rows) > NAMED_CASES else ""
            how = f"{step.how}: {shown}{more}" if shown else step.how
        elif step.how == SAME_CODE:
            how = f"same code as `{short(step.same_as)}`" + (" (GOOD)" if step.same_as == found.good else
                                                              " (BAD)" if step.same_as == bad else "")
        else:
            why = step.why if len(step.why) <= FAILURE_CHARACTERS else step.why[:FAILURE_CHARACTERS] + "…"
            how = f"{BUILD_FAILED}: {why}"
        lines.append(f"| {index} | {name} | {_cell(facts.subjects.get(step.commit, ''))} | {_cell(how)} | "
                     f"{verdicts[step.verdict]} |")
    return lines


def _cell(text: str) -> str:
    """``text`` fit for a Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def _counts(found: Bisection) -> tuple[int, int, int, int, int]:
    """Commits timed, paired comparisons run, commits settled as the same code, builds failed, candidates not
    visited."""
    timed = len({step.commit for step in found.steps if step.how in (TIMED, TIMED_FURTHER)})
    visited = {step.commit for step in found.steps}
    return (timed, found.timed_steps, found.count(SAME_CODE), found.count(BUILD_FAILED),
            len([commit for commit in found.candidates if commit not in visited]))


def _counts_headline(found: Bisection) -> str:
    timed, _, same, failed, _ = _counts(found)
    return (f"{len(found.candidates)} commits: {found.built} built, {timed} timed, {same} same code, {failed} build "
            "failed")


def _counts_sentence(found: Bisection, reused: int) -> str:
    timed, comparisons, same, failed, left = _counts(found)
    return (f"{len(found.candidates)} commit(s) in the range. Built: {found.built}, GOOD included ({reused} kept from "
            f"an earlier run). Timed: {timed}, in {comparisons} paired comparison(s). Settled as the same code, not "
            f"timed: {same}. Skipped, the build failed: {failed}. Not visited: {left}.")
