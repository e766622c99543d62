"""The first screen's answer as a table (judge/picks.py chooses it): per benchmark, what to use within the CPUs,
its cost per operation with its 95% interval, and beside it what each seed pattern costs in the same situation, as
a multiple of it; a runner-up the data cannot tell from the pick is named beside it. A variant a package brought is
named with its module; one the stress file does not prove is marked so."""

from __future__ import annotations

from ..fmt import fmt_multiple, fmt_ns
from ..judge.decisions import Standing
from ..judge.picks import Pick, SeedBeside, situation_text
from .decision_table import factor_text
from .doc import Table
from .origin_marks import NO_ORIGINS, Origins, marked, variant_module
from .proof_marks import proof_mark

PICKS_TITLE = "What to use within the CPUs"
PICKS_HEADERS = ("Benchmark", "At", "Use", "ns/op [95% interval]", "Seed patterns there")
NONE = "—"


def _seed(suite: str, seed: SeedBeside, origins: Origins) -> str:
    """```array-tracker``` 9.8 ns, 70×; ``disqualified`` when it was, with the reason's first words."""
    name = marked(f"`{seed.variant}`", variant_module(origins, suite, seed.variant))
    if seed.factor is None:
        return f"{name}: the one to use"
    text = f"{name} {fmt_ns(seed.median)} ns, {fmt_multiple(seed.factor.ratio)}×"
    if seed.reason is not None:
        text += f" (disqualified: {seed.reason.split(' (', 1)[0]})"
    return text


def _tied(suite: str, tied: Standing | None, origins: Origins) -> str:
    """``, or `dispatch-once-inline` ≈1.01× [1.00, 1.03] (not told apart)``: the runner-up a pick's data cannot tell
    from it, or nothing."""
    if tied is None or tied.factor is None:
        return ""
    return (f", or {factor_text(tied, variant_module(origins, suite, tied.variant))} (not told apart)"
            f"{proof_mark(tied.proven)}")


def picks_table(found: tuple[Pick, ...], logical_cpus: int, origins: Origins = NO_ORIGINS) -> Table:
    """A row per pick: the benchmark, the situation, the variant to use, its ns/op with the interval, and the seed
    patterns measured there, each on its own line."""
    rows = []
    for pick in found:
        suite = pick.decision.suite
        use = marked(f"`{pick.use.variant}`", variant_module(origins, suite, pick.use.variant))
        use += proof_mark(pick.use.proven) + _tied(suite, pick.tied, origins)
        cost = f"{fmt_ns(pick.median)} [{fmt_ns(pick.low)}, {fmt_ns(pick.high)}]"
        seeds = "\n".join(_seed(suite, seed, origins) for seed in pick.seeds) or NONE
        rows.append((f"{suite}/{pick.decision.benchmark}", situation_text(pick, logical_cpus), use, cost, seeds))
    return Table(PICKS_HEADERS, tuple(rows), "lllrl")
