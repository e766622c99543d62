"""Which commit moved the chosen cases: the search of ``bench-commits bisect GOOD BAD``, a pure function over a
``Probe`` of each commit, so that it runs on fakes as on builds.

The candidates are the commits of BAD's first-parent history after GOOD, oldest first; BAD is the last. A commit
is **moved** when the chosen cases are slower in it than in GOOD (faster, with ``--faster``): ``step_verdict``
says it from the gate's outcome of each case, timed paired against GOOD. The search finds the first moved
candidate, supposing that a case once moved stays moved:

1. GOOD and BAD are built; when either cannot be, there is nothing to bisect against (``BROKEN``).
2. BAD is settled: when it runs the same code as GOOD for the chosen cases, or is timed and not moved, there is
   no change to find (``NO_CHANGE``). Timed and undecided, it is timed further, once; still undecided, the search
   stops there (``STOPPED``).
3. Between the last commit known not moved (``lo``, GOOD at first) and the first known moved (``hi``, BAD at
   first), the untried candidate nearest the middle is built; a build that fails skips it, as ``git bisect skip``
   does. It is settled without timing when it runs the same code for the chosen cases as ``lo`` (not moved), as
   ``hi`` (moved) or as GOOD (not moved); else it is timed against GOOD, further once when undecided, and the search
   stops where it stays undecided. A moved commit becomes ``hi``, another ``lo``.
4. When no untried candidate is left between them, ``hi`` is the first moved commit (``FOUND``), or, when commits
   that could not be built lie between, one of those or ``hi`` (``NARROWED``).

Each probe halves what is left, so a range of n candidates takes at most ⌈log₂ n⌉ + 1 timed steps (BAD's and
the halvings), one more for each step timed further (``most_timed_steps``); a commit settled as the same code is
built, not timed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from analyze_lib.judge.compare import FASTER, SLOWER, UNCHANGED

# A commit's verdict, against GOOD.
MOVED = "moved"
NOT_MOVED = "not moved"
UNDECIDED = "undecided"

# How a commit was settled.
TIMED = "timed"
TIMED_FURTHER = "timed further"
SAME_CODE = "same code"
BUILD_FAILED = "build failed"

# How a search ended.
FOUND = "found"
NARROWED = "narrowed"
NO_CHANGE = "no change"
STOPPED = "stopped"
BROKEN = "broken"

# The outcomes (compare.classify) that decide a case: called the way searched for, or decided otherwise.
DIRECTIONS = (SLOWER, FASTER)


def step_verdict(outcomes: Iterable[str], direction: str = SLOWER) -> str:
    """A commit's verdict from the gate's outcome of each chosen case against GOOD (a case whose code is the same as
    GOOD's counts as UNCHANGED): MOVED when any case was called ``direction``; NOT_MOVED when every case was
    decided otherwise (unchanged, or called the other way); else UNDECIDED (a case not resolved, too few rounds,
    or none at all)."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}, not {direction!r}")
    outcomes = list(outcomes)
    if direction in outcomes:
        return MOVED
    decided = {UNCHANGED, *DIRECTIONS}
    return NOT_MOVED if outcomes and all(outcome in decided for outcome in outcomes) else UNDECIDED


def most_timed_steps(candidates: int, further: int = 0) -> int:
    """The most timed steps a search of ``candidates`` commits takes: BAD's, ⌈log₂ n⌉ halvings, and ``further``
    steps timed further."""
    return 1 + math.ceil(math.log2(candidates)) + further if candidates > 0 else 0


class Probe(Protocol):
    """What the search asks of each commit. ``build`` is asked once per commit, and before the others name it."""

    def build(self, commit: str) -> str:
        """Build ``commit``: "" when it is built (or kept from before), else why not."""
        ...

    def same_code(self, a: str, b: str) -> bool:
        """Whether the built ``a`` and ``b`` run the same code for the chosen cases (same code identity, or no chosen
        case's footprint holds a changed function or datum)."""
        ...

    def time(self, commit: str, further: bool) -> str:
        """``commit`` timed paired against GOOD: MOVED, NOT_MOVED or UNDECIDED (step_verdict). ``further``: a second
        timing of a commit whose first was undecided, with more rounds. The first commit timed is BAD; the probe may
        narrow the chosen cases to those BAD moved."""
        ...


@dataclass(frozen=True)
class Step:
    """One commit settled: ``how`` (TIMED, TIMED_FURTHER, SAME_CODE or BUILD_FAILED), its verdict (empty for a build
    that failed), the commit whose code it shares (SAME_CODE) and why its build failed (BUILD_FAILED)."""

    commit: str
    how: str
    verdict: str = ""
    same_as: str = ""
    why: str = ""


@dataclass(frozen=True)
class Bisection:
    """How a search ended (``status``: FOUND, NARROWED, NO_CHANGE, STOPPED or BROKEN), its steps in order, and the
    range left: ``last_good`` (not moved) and ``first_bad`` (moved), and ``remaining``, the candidates after
    ``last_good`` up to ``first_bad``, among which the first moved commit is. ``stopped_at`` is the commit a STOPPED
    search could not decide; ``why`` says why a search ended without one commit."""

    status: str
    good: str
    candidates: tuple[str, ...]
    steps: tuple[Step, ...]
    last_good: str
    first_bad: str
    remaining: tuple[str, ...]
    stopped_at: str = ""
    why: str = ""

    @property
    def culprit(self) -> str | None:
        """The first moved commit, when the search named one."""
        return self.first_bad if self.status == FOUND else None

    def count(self, how: str) -> int:
        """How many commits were settled ``how`` (a commit timed and then timed further counts under each)."""
        return sum(1 for step in self.steps if step.how == how)

    @property
    def timed_steps(self) -> int:
        """How many paired comparisons the search ran."""
        return self.count(TIMED) + self.count(TIMED_FURTHER)

    @property
    def built(self) -> int:
        """How many commits were built: GOOD, BAD and every candidate visited whose build did not fail."""
        visited = {step.commit for step in self.steps if step.how != BUILD_FAILED}
        return len(visited | {self.good, self.candidates[-1]}) if self.status != BROKEN else len(visited)

    def settled(self, commit: str) -> Step | None:
        """The step that settled ``commit`` last (the second of a commit timed further), or None."""
        found = [step for step in self.steps if step.commit == commit]
        return found[-1] if found else None


def search(good: str, candidates: list[str], probe: Probe) -> Bisection:
    """The first candidate at which the chosen cases moved against ``good`` (module doc). ``candidates``: the
    commits after ``good`` up to BAD, oldest first, at least one."""
    if not candidates:
        raise ValueError("no candidate commit to search")
    line = [good, *candidates]
    bad = candidates[-1]
    steps: list[Step] = []

    def ended(status: str, lo: int, hi: int, why: str = "", stopped_at: str = "") -> Bisection:
        return Bisection(status, good, tuple(candidates), tuple(steps), line[lo], line[hi], tuple(line[lo + 1:hi + 1]),
                         stopped_at, why)

    def timed(commit: str) -> str:
        verdict = probe.time(commit, False)
        steps.append(Step(commit, TIMED, verdict))
        if verdict == UNDECIDED:
            verdict = probe.time(commit, True)
            steps.append(Step(commit, TIMED_FURTHER, verdict))
        return verdict

    for commit, role in ((good, "GOOD"), (bad, "BAD")):
        why = probe.build(commit)
        if why:
            return ended(BROKEN, 0, len(candidates), f"{role} ({commit[:12]}) could not be built: {why}")
    if probe.same_code(good, bad):
        steps.append(Step(bad, SAME_CODE, NOT_MOVED, same_as=good))
        return ended(NO_CHANGE, 0, len(candidates), "BAD runs the same code as GOOD for the chosen cases")
    verdict = timed(bad)
    if verdict == NOT_MOVED:
        return ended(NO_CHANGE, 0, len(candidates), "BAD did not move against GOOD")
    if verdict == UNDECIDED:
        return ended(STOPPED, 0, len(candidates), "BAD's change against GOOD stayed undecided when timed further",
                     bad)
    lo, hi = 0, len(candidates)
    failed: set[int] = set()
    while True:
        untried = [index for index in range(lo + 1, hi) if index not in failed]
        if not untried:
            break
        middle = (lo + hi) // 2
        index = min(untried, key=lambda candidate: (abs(candidate - middle), candidate))
        commit = line[index]
        why = probe.build(commit)
        if why:
            failed.add(index)
            steps.append(Step(commit, BUILD_FAILED, why=why))
            continue
        same_as = next((other for other in dict.fromkeys((line[lo], line[hi], good)) if probe.same_code(other, commit)),
                       None)
        if same_as is not None:
            verdict = MOVED if same_as == line[hi] else NOT_MOVED
            steps.append(Step(commit, SAME_CODE, verdict, same_as=same_as))
        else:
            verdict = timed(commit)
            if verdict == UNDECIDED:
                return ended(STOPPED, lo, hi, f"{commit[:12]}'s change against GOOD stayed undecided when timed "
                             "further", commit)
        if verdict == MOVED:
            hi = index
        else:
            lo = index
    if hi - lo > 1:
        return ended(NARROWED, lo, hi, f"{hi - lo - 1} commit(s) before it could not be built")
    return ended(FOUND, lo, hi)
