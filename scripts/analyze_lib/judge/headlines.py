"""What a report says first: the few findings of a run worth a headline, chosen from its data.

``headlines`` picks, in this order: the stress checks' failures (a correctness failure outweighs
any timing); the cases that starved; the steepest scaling cliffs (judge/diagnosis.py), one per
variant, each with the variant recommended where it fell (judge/decisions.py), if any; and per family
what each seed pattern (situations.Notes.seeds), and each variant a package brought, costs at worst
against the variant recommended in the same situation. ``seed_lines`` gives each seed's cost against
threads, as a multiple of that variant's at the same thread count, for the report's first chart. Pure;
present/headlines_text.py says them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..files.model import Case, CaseKey
from .decisions import Decision, Standing
from .diagnosis import STARVATION, Cliff, Diagnosis
from .situations import FLOOR_SUITES, notes
from .stress import StressVerdict
from .summary import case_median

# The steepest cliffs a report opens with (one per variant); the rest are in each family's section.
HEADLINE_CLIFFS = 3
# The starved cases a headline names (the rest are counted).
HEADLINE_STARVED = 3


@dataclass(frozen=True)
class SeedCost:
    """A seed pattern's worst standing in its family: in ``decision``'s situation it costs
    ``standing.factor`` times the recommended variant (``standing`` is None when the seed is the one
    recommended in every situation, ``recommended``). ``reason`` says why it was disqualified
    there, if it was."""

    suite: str
    variant: str
    decision: Decision
    standing: Standing | None
    diagnosis: Diagnosis | None = None
    reason: str | None = None

    @property
    def recommended(self) -> bool:
        """Whether the seed is the variant to use in every situation it was measured in."""
        return self.standing is None and self.reason is None


@dataclass(frozen=True)
class CliffCost:
    """A cliff a headline names, with the decision of the situation where its case stands (None when the
    case is in no decision: a param between the extremes, say) and the case's standing there."""

    cliff: Cliff
    decision: Decision | None = None
    standing: Standing | None = None


@dataclass(frozen=True)
class SeedLine:
    """A seed pattern's cost against threads: at each thread count its median over the median of
    ``instead`` (the variant recommended where the seed stands worst) in the same benchmark and params;
    ``inf`` where the seed starved."""

    suite: str
    benchmark: str
    variant: str
    instead: str
    points: tuple[tuple[int, float], ...]


@dataclass(frozen=True)
class Headlines:
    """The report's headlines: failed stress checks, starved cases (and how many in all), the
    steepest cliffs, and per family the seed patterns' costs."""

    failed_checks: tuple[str, ...] = ()
    starved: tuple[Diagnosis, ...] = ()
    starved_total: int = 0
    cliffs: tuple[CliffCost, ...] = ()
    seeds: tuple[SeedCost, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.failed_checks or self.starved or self.cliffs or self.seeds)


def _rank(cost: SeedCost) -> tuple[bool, float]:
    """Worse first: disqualified, then by factor (the recommended variant has none)."""
    factor = cost.standing.factor.ratio if cost.standing is not None and cost.standing.factor else 0.0
    return (cost.reason is not None, factor)


def _seed_costs(decisions: list[Decision], diagnoses: dict[CaseKey, Diagnosis], logical_cpus: int,
                brought: frozenset[tuple[str, str]] = frozenset()) -> list[SeedCost]:
    """Per family and seed variant (and each variant a package brought, ``brought``: (suite, variant), which the
    user wants priced as the seeds are), its worst situation among those whose threads fit the CPUs (where its own
    mechanism, not taking turns, sets its cost): disqualified first, else the largest factor; a seed recommended in
    each of them has no standing."""
    worst: dict[tuple[str, str], SeedCost] = {}
    for d in decisions:
        seeds = notes(d.suite, d.benchmark).seeds
        entries: list[tuple[Standing, str | None]] = [
            (s, None) for s in (d.use, d.runner_up, *d.avoid) if s is not None]
        entries += [(out.standing, out.reason) for out in d.disqualified]
        for standing, reason in entries:
            priced = standing.variant in seeds or (d.suite, standing.variant) in brought
            if not priced or standing.key is None or standing.key.threads > logical_cpus:
                continue
            behind = standing.factor is not None or reason is not None
            cost = SeedCost(d.suite, standing.variant, d, standing if behind else None,
                            diagnoses.get(standing.key), reason)
            seed = (d.suite, standing.variant)
            if seed not in worst or _rank(cost) > _rank(worst[seed]):
                worst[seed] = cost
    return sorted(worst.values(), key=lambda c: (c.suite, not _rank(c)[0], -_rank(c)[1], c.variant))


def _cliff_cost(cliff: Cliff, decisions: list[Decision]) -> CliffCost:
    """``cliff`` with the first decision that ranks its case, and its standing there."""
    for d in decisions:
        entries = [s for s in (d.use, d.runner_up, *d.avoid) if s is not None]
        entries += [out.standing for out in d.disqualified]
        for standing in entries:
            if standing.key == cliff.key:
                return CliffCost(cliff, d, standing)
    return CliffCost(cliff)


def seed_lines(h: Headlines, cases: dict[CaseKey, Case]) -> tuple[SeedLine, ...]:
    """Each seed pattern that is not the one to use, against threads: its median over the recommended
    variant's of its worst situation, at every thread count both were measured (same benchmark, params)."""
    medians = {key: case_median(case) for key, case in cases.items()}
    lines = []
    for cost in h.seeds:
        use = cost.decision.use
        key = cost.standing.key if cost.standing is not None else None
        if cost.recommended or use is None or key is None or use.variant == cost.variant:
            continue
        points = []
        for threads in sorted({k.threads for k in cases if (k.suite, k.benchmark, k.params) ==
                               (key.suite, key.benchmark, key.params)}):
            seed = medians.get(CaseKey(key.suite, key.benchmark, cost.variant, threads, key.params))
            best = medians.get(CaseKey(key.suite, key.benchmark, use.variant, threads, key.params))
            if seed is None or best is None or not best > 0 or best == float("inf"):
                continue
            points.append((threads, seed / best))
        if len(points) > 1:
            lines.append(SeedLine(cost.suite, key.benchmark, cost.variant, use.variant, tuple(points)))
    return tuple(lines)


def headlines(decisions: list[Decision], diagnoses: dict[CaseKey, Diagnosis], cliffs: list[Cliff],
              logical_cpus: int, verdict: StressVerdict | None = None,
              brought: frozenset[tuple[str, str]] = frozenset()) -> Headlines:
    """The run's headlines from its decisions, diagnoses, cliffs (steepest first) and stress verdict,
    on a machine of ``logical_cpus``; the variants packages ``brought`` ((suite, variant)) are priced beside the
    seed patterns."""
    starved = sorted((d for d in diagnoses.values() if d.label == STARVATION and d.key.suite not in FLOOR_SUITES),
                     key=lambda d: d.key.sort_key())
    steepest, seen = [], set()
    for cliff in cliffs:
        line = (cliff.key.suite, cliff.key.benchmark, cliff.key.variant)
        if cliff.key.suite in FLOOR_SUITES or line in seen:
            continue
        seen.add(line)
        steepest.append(cliff)
    return Headlines(
        failed_checks=tuple(verdict.failed_checks) if verdict is not None else (),
        starved=tuple(starved[:HEADLINE_STARVED]), starved_total=len(starved),
        cliffs=tuple(_cliff_cost(c, decisions) for c in steepest[:HEADLINE_CLIFFS]),
        seeds=tuple(_seed_costs(decisions, diagnoses, logical_cpus, brought)))
