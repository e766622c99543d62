"""The report's which-one-to-use table: a family's decisions (judge/decisions.py) in words.

Each variant is named with its factor to the recommended one and that factor's 95% CI;
nothing is decided here.
"""

from __future__ import annotations

import math

from ..fmt import fmt_multiple, fmt_ns
from ..files.model import CaseKey
from ..judge.decisions import (AVOID_FACTOR, MIN_STARVED_SAMPLES, ROLE_STARVATION_FACTOR, STARVED_SHARE, Decision,
                               Standing)
from ..judge.diagnosis import Diagnosis
from ..judge.evidence import FAIRNESS_MIN
from .diagnosis_text import cause_text
from ..judge.conditions import QUIET_CPU_SHARE
from ..judge.situations import metric
from .doc import Table
from .origin_marks import NBSP, marked
from .proof_marks import NOT_PROVEN, proof_mark

# A factor whose CI reaches 1 is not told apart from the recommended variant.
TIE_PREFIX = "≈"
NONE_TEXT = "—"
# The decision table's columns, in percent of the page (the lists need the room).
COLUMN_WIDTHS = (10, 12, 15, 17, 22, 24)


def _name(variant: str, origin: str | None) -> str:
    """``lock``, or ``my-lock`` (MyBench) for a variant a package brought."""
    return marked(f"`{variant}`", origin)


def factor_text(standing: Standing, origin: str | None = None, with_ci: bool = True) -> str:
    """``lock 18.0× [17.6, 18.4]``: the variant, its factor to the recommended one and the
    factor's 95% CI (``≈`` when the CI reaches 1); no-break spaces keep name and factor,
    and the CI, each on one line."""
    factor, name = standing.factor, _name(standing.variant, origin)
    if factor is None:
        return name if math.isfinite(standing.median) else f"{name} (starved)"
    tie = TIE_PREFIX if factor.reaches_one else ""
    text = f"{name}{NBSP}{tie}{fmt_multiple(factor.ratio)}×"
    return f"{text} [{fmt_multiple(factor.low)},{NBSP}{fmt_multiple(factor.high)}]" if with_ci else text


def _recommended_text(standing: Standing, origin: str | None = None) -> str:
    """A runner-up or a variant to avoid: its factor text, marked ``not proven`` unless the stress file proves it."""
    return factor_text(standing, origin) + proof_mark(standing.proven)


def _unit(suite: str, benchmark: str) -> str:
    name = metric(suite, benchmark)
    return "ns" if name == "ns/op" else name


def _cause(standing: Standing, diagnoses: dict[CaseKey, Diagnosis]) -> str:
    """`` (convoy: …)``: why an avoided variant costs what it does, or nothing when not diagnosed."""
    diagnosis = diagnoses.get(standing.key) if standing.key is not None else None
    return f" ({cause_text(diagnosis)})" if diagnosis is not None else ""


def decision_table(decisions: list[Decision], origins: dict[tuple[str, str], str] | None = None,
                   diagnoses: dict[CaseKey, Diagnosis] | None = None) -> Table:
    """One family's decisions as a table: a row per benchmark and situation; in the lists
    (avoid, disqualified) each variant takes a line. A variant in ``origins`` (one a package
    brought) is named with the module that brought it; an avoided variant in ``diagnoses`` with
    its cause (judge/diagnosis.py)."""
    origins = origins or {}
    diagnoses = diagnoses or {}
    rows = []
    for d in decisions:
        def origin(standing: Standing, d: Decision = d) -> str | None:
            return origins.get((d.suite, standing.variant))

        use = (f"**{_name(d.use.variant, origin(d.use))}** {fmt_ns(d.use.median)} {_unit(d.suite, d.benchmark)}"
               f"{proof_mark(d.use.proven)}" if d.use else "none: every variant is disqualified")
        disqualified = "\n".join(
            f"{factor_text(x.standing, origin(x.standing), with_ci=False)}: "
            f"{'fastest by median, but ' if x.fastest else ''}{x.reason}" for x in d.disqualified)
        situation = d.situation + (f"\nfairness not judged ({d.fairness_unjudged})" if d.fairness_unjudged else "")
        rows.append((d.benchmark, situation, use,
                     _recommended_text(d.runner_up, origin(d.runner_up)) if d.runner_up else NONE_TEXT,
                     "\n".join(_recommended_text(s, origin(s)) + _cause(s, diagnoses) for s in d.avoid) or NONE_TEXT,
                     disqualified or NONE_TEXT))
    return Table(("Benchmark", "Situation", "Use", "Runner-up", "Avoid", "Disqualified"), tuple(rows), "llllll",
                 COLUMN_WIDTHS)


def rules_text(logical_cpus: int) -> str:
    """The rules behind the decision tables, in one paragraph."""
    return (f"**Use**: the lowest median among the variants not disqualified. Factors are medians "
            f"relative to it, with the 95% bootstrap CI of the ratio (`{TIE_PREFIX}`: the CI reaches 1). "
            f"**Runner-up**: the second fastest, unless it is to be avoided. **Avoid**: at least "
            f"{AVOID_FACTOR:g}× slower even at the CI's low end. **Disqualified**, "
            f"however fast: failed a stress check (a forbidden outcome in the stress file given with this run), "
            f"starves another role of the same case (another role's threads got {ROLE_STARVATION_FACTOR:g}× "
            f"its share of time on a CPU, where the file records it, and {ROLE_STARVATION_FACTOR:g}× its ops "
            f"per thread), unfair (its slowest thread did less than {FAIRNESS_MIN:g} of the busiest one's "
            f"ops; judged only when every thread has a CPU: not above the CPUs, nor when the CPU-bound harness "
            f"cases got less than {QUIET_CPU_SHARE:.0%} of their CPUs), "
            f"or starved: a thread completed no operation in {STARVED_SHARE:.0%} of its "
            f"samples or more, and in {MIN_STARVED_SAMPLES} at least (never on one sample). Starved and unfair "
            "samples count only where nothing outside the variant explains them (the host's steal, a batch "
            "straddling the sample's end, threads held off their CPUs) and only beyond the rate at which the "
            "run's own controls, harness loops that cannot starve, looked so by chance, and, as fairness, not "
            "when the machine was busy; with more threads than "
            "CPUs, threads that stalled without sleeping are lock-waiter preemption, advice, not a "
            "disqualification. "
            f"**{NOT_PROVEN.capitalize()}**: a variant whose stress checks made fewer trials than "
            "their minimum, were abandoned or did not run (no stress file, filtered out, a file before trial counts) "
            "is marked so beside its time; while a proven variant can be used it is never the Use or the Runner-up, "
            "and is listed with the disqualified. Situations: 1 thread; contended, the most threads that fit the "
            f"{logical_cpus} CPUs; oversubscribed, the most threads measured; each at the fewest and the "
            "most of every swept parameter.")
