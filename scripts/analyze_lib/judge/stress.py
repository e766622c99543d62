"""The verdict of a stress file (``bench stress``), as the report states it: which variant
checks observed a forbidden outcome (a failure), and which negative controls their check
caught, and how fast (a control never caught means the check lost its teeth); and which
variants the file proves (``judge_proof``: the one rule of what the report may recommend).

Pure: ``judge_stress(results)`` computes a ``StressVerdict`` from loaded results; the
report renders it (report.py, tables.py). The verdict agrees with ``bench stress``'s exit
status 1: a forbidden outcome in a variant, or a control never caught.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping

from ..files.model import OutcomeCount, StressResult
from ..fmt import fmt_count

# (suite, variant) -> why the variant cannot be recommended: the stress checks it failed.
StressFailures = Mapping[tuple[str, str], str]
# No stress file, or none failed.
NO_STRESS_FAILURES: StressFailures = MappingProxyType({})


def _seconds_to_catch(control: StressResult) -> float:
    """A caught control's time to its first forbidden outcome (every caught one has it: StressResult.caught)."""
    assert control.seconds_to_first_forbidden is not None
    return control.seconds_to_first_forbidden


@dataclass(frozen=True)
class StressVerdict:
    """What a stress file says, in the order bench ran its checks.

    ``variants`` are the results of the variants under test (the product code),
    ``controls`` those of the negative controls (deliberately broken variants each check
    must catch); ``failures`` every forbidden outcome a variant observed, with its result.
    """

    variants: tuple[StressResult, ...]
    controls: tuple[StressResult, ...]
    failures: tuple[tuple[StressResult, OutcomeCount], ...]

    @property
    def checks(self) -> tuple[str, ...]:
        """The variant checks' names, once each (a check runs at several thread counts)."""
        return tuple(dict.fromkeys(r.check for r in self.variants))

    @property
    def failed_checks(self) -> tuple[str, ...]:
        """The variant checks with at least one forbidden outcome."""
        return tuple(dict.fromkeys(result.check for result, _ in self.failures))

    @property
    def uncaught(self) -> tuple[StressResult, ...]:
        """The deterministic controls whose check never observed a forbidden outcome: the check lost its teeth (a
        racy control never caught is ``racy_beyond_minimum``: caught as often as chance has it)."""
        return tuple(r for r in self.controls if not r.caught and not r.racy)

    @property
    def threads(self) -> tuple[int, ...]:
        """The thread counts the variant checks ran at, ascending."""
        return tuple(sorted({r.threads for r in self.variants}))

    @property
    def iterations(self) -> int:
        """Iterations of every variant check at every thread count."""
        return sum(r.iterations for r in self.variants)

    @property
    def slowest_catch(self) -> StressResult | None:
        """The caught control that took longest to be caught (None when none was)."""
        caught = [r for r in self.controls if r.caught]
        return max(caught, key=_seconds_to_catch) if caught else None

    @property
    def passed(self) -> bool:
        """No forbidden outcome in any variant and every control caught (bench stress's exit 0,
        watchdog aside: a suspected deadlock is a forbidden outcome here)."""
        return not self.failures and not self.uncaught

    @property
    def counts_trials(self) -> bool:
        """Whether the file records trials (stress_schema_version 4 on): without them no variant is proven."""
        return all(r.trials is not None for r in (*self.variants, *self.controls))

    @property
    def below_minimum(self) -> tuple[StressResult, ...]:
        """The variant checks that made fewer trials than their minimum at a thread count with nothing forbidden seen
        (one abandoned or with a forbidden outcome has failed, which says more): they do not prove their variant."""
        return tuple(r for r in self.variants if r.below_minimum and not r.forbidden)

    @property
    def abandoned(self) -> tuple[StressResult, ...]:
        """The checks bench's watchdog abandoned as suspected deadlocks (no thread advanced), controls' too."""
        return tuple(r for r in (*self.variants, *self.controls) if r.abandoned)

    @property
    def slow(self) -> tuple[StressResult, ...]:
        """The checks with iterations slower than the watchdog's time whose threads still advanced: slow, not
        stuck (acceptable-interesting), controls' too."""
        return tuple(r for r in (*self.variants, *self.controls) if r.slow_iterations)

    @property
    def racy_beyond_minimum(self) -> tuple[StressResult, ...]:
        """The racy controls caught only after more trials than their check's minimum, or not at all: in this run the
        check's power fell short of what its minimum assumes (not a failure: a racy control is caught as often as
        chance has it, and on a busy machine less often, docs/findings/2026-11-29-racy-controls.md)."""
        return tuple(r for r in self.controls if r.racy and (r.caught_beyond_minimum or not r.caught))


def judge_stress(results: dict[tuple[str, int], StressResult]) -> StressVerdict:
    """The verdict of ``results`` ((check, threads) -> StressResult, as loaded)."""
    ordered = list(results.values())
    variants = tuple(r for r in ordered if not r.is_control)
    controls = tuple(r for r in ordered if r.is_control)
    failures = tuple((r, o) for r in variants for o in r.forbidden)
    return StressVerdict(variants, controls, failures)


def checks_by_variant(results: Iterable[StressResult]) -> dict[tuple[str, str], dict[str, tuple[str, ...]]]:
    """The variant checks among ``results`` (controls left out), by (family, variant): each check's name with the
    forbidden outcomes it observed at any thread count, in the file's order (empty: it passed)."""
    checks: dict[tuple[str, str], dict[str, dict[str, None]]] = {}
    for result in results:
        if not result.is_control:
            seen = checks.setdefault((result.family, result.variant), {}).setdefault(result.check_name, {})
            seen.update(dict.fromkeys(o.outcome for o in result.forbidden))
    return {variant: {name: tuple(seen) for name, seen in named.items()} for variant, named in checks.items()}


def stress_failures(verdict: StressVerdict | None) -> dict[tuple[str, str], str]:
    """Every variant with a forbidden outcome in any of its checks, as (suite, variant) -> the reason that
    disqualifies it in every situation of its suite (judge/decisions.py): the checks it failed, each with the
    forbidden outcomes it observed (``failed stress: `lost-writes` (write-lost)``). Empty without a verdict."""
    if verdict is None:
        return {}
    failed = {variant: {name: seen for name, seen in checks.items() if seen}
              for variant, checks in checks_by_variant(verdict.variants).items()}
    return {variant: "failed stress: " + ", ".join(f"`{check}` ({', '.join(outcomes)})"
                                                   for check, outcomes in checks.items())
            for variant, checks in failed.items() if checks}


# What a check checks: (family, pattern, variant); pattern is None for a check named ``family/variant/check``,
# which checks the variant in every benchmark of its family (StressResult.pattern).
Subject = tuple[str, str | None, str]
# Why a variant is not proven, besides its own checks' shortfalls (Proof.unproven).
NO_STRESS_FILE = "no stress file"
NOT_IN_FILE = "no check of it in the stress file"
NO_TRIAL_COUNTS = "the stress file predates trial counts"


def _and(items: list[int]) -> str:
    """``2``, ``2 and 4``, ``2, 4 and 8``."""
    words = [f"{i:,}" for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _subject(result: StressResult) -> Subject:
    return (result.family, result.pattern, result.variant)


def _shortfall_text(result: StressResult) -> str:
    """One slot that does not prove its variant, in words: ``limit`` made 2 of 1,000 trials at 1 thread."""
    where = f"at {fmt_count(result.threads, 'thread')}"
    if result.abandoned:
        return f"`{result.check_name}` abandoned {where}"
    assert result.trials is not None and result.minimum_trials is not None
    return f"`{result.check_name}` made {result.trials:,} of {result.minimum_trials:,} trials {where}"


@dataclass(frozen=True)
class Proof:
    """Which variants a stress file proves: those it has checks of whose every slot (check and thread count) made
    at least its minimum trials and was not abandoned (``judge_proof``). ``given`` is whether there was a stress
    file; ``checked`` the subjects it has checks of; ``shortfalls`` each subject's slots that do not prove it,
    in the file's order (a file before trial counts: every slot)."""

    given: bool
    checked: frozenset[Subject] = frozenset()
    shortfalls: Mapping[Subject, tuple[StressResult, ...]] = field(default_factory=dict)

    def unproven(self, suite: str, benchmark: str, variant: str) -> str | None:
        """Why ``variant`` as measured in ``suite/benchmark`` is not proven, or None when it is: the checks of it
        (``suite/variant/…``, and ``suite/benchmark/variant/…``) are in the file and every slot of each made its
        minimum trials and was not abandoned."""
        if not self.given:
            return NO_STRESS_FILE
        subjects = [s for s in ((suite, None, variant), (suite, benchmark, variant)) if s in self.checked]
        if not subjects:
            return NOT_IN_FILE
        short = [r for s in subjects for r in self.shortfalls.get(s, ())]
        if not short:
            return None
        if any(r.trials is None for r in short):
            return NO_TRIAL_COUNTS
        first, rest = short[0], short[1:]
        threads = sorted({r.threads for r in rest if r.check == first.check})
        others = len({r.check for r in rest} - {first.check})
        more = ([f"short at {_and(threads)} threads too"] if threads else []) + (
            [f"{fmt_count(others, 'other check')} short"] if others else [])
        return _shortfall_text(first) + (f" ({'; '.join(more)})" if more else "")

    def short_checks(self, family: str, variant: str) -> frozenset[str]:
        """The names of ``variant``'s checks (``limit``) that fell short of proving it at some thread count, in
        whichever pattern of ``family``."""
        return frozenset(r.check_name for (f, _, v), short in self.shortfalls.items() if (f, v) == (family, variant)
                         for r in short)


# A report given no stress file: nothing is proven, and the decisions rank every variant by speed alone.
NOTHING_PROVEN = Proof(given=False)


def judge_proof(results: Iterable[StressResult] | None) -> Proof:
    """Which variants the stress file's ``results`` prove (None: no stress file, NOTHING_PROVEN). A variant is
    proven only by its own checks, each at every thread count it ran: a slot below its check's minimum trials, or
    abandoned by the watchdog, leaves it not proven, and so does a file that predates trial counts (stress_schema_
    version 3 and older). A forbidden outcome is another matter (stress_failures: disqualified)."""
    if results is None:
        return NOTHING_PROVEN
    checked: dict[Subject, None] = {}
    shortfalls: dict[Subject, list[StressResult]] = {}
    for result in results:
        if result.is_control:
            continue
        subject = _subject(result)
        checked[subject] = None
        if result.trials is None or result.minimum_trials is None or result.below_minimum or result.abandoned:
            shortfalls.setdefault(subject, []).append(result)
    return Proof(True, frozenset(checked), MappingProxyType({s: tuple(r) for s, r in shortfalls.items()}))
