"""The verdict of a stress file (``bench stress``), as the report states it: which variant
checks observed a forbidden outcome (a failure), and which negative controls their check
caught, and how fast (a control never caught means the check lost its teeth).

Pure: ``judge_stress(results)`` computes a ``StressVerdict`` from loaded results; the
report renders it (report.py, tables.py). The verdict agrees with ``bench stress``'s exit
status 1: a forbidden outcome in a variant, or a control never caught.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Mapping

from ..files.model import OutcomeCount, StressResult

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
        """The controls whose check never observed a forbidden outcome."""
        return tuple(r for r in self.controls if not r.caught)

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
