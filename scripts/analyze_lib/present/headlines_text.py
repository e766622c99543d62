"""The report's headlines (judge/headlines.py chooses them) as a table a person takes in at a glance: one row
per failed stress check, starved case, cliff and seed pattern, each saying the pattern, what to use instead, how
much faster that is and, in a word or two, why; the full sentence (figures and cause) is one click away, folded
in HTML, and the row links to the section that holds it in Markdown. A variant a package brought is named with its
module (origin_marks), and the variant to use instead is marked ``not proven`` when the stress file does not prove
it (proof_marks: it is the one to use only where no variant is proven)."""

from __future__ import annotations

from ..files.model import check_parts
from ..fmt import fmt_multiple
from ..judge.decisions import Elsewhere, Standing, Unproven
from ..judge.headlines import CliffCost, Headlines, SeedCost
from .diagnosis_text import cause_text, cliff_text
from .doc import Table
from .origin_marks import NO_ORIGINS, Origins, marked, variant_module
from .proof_marks import NOT_PROVEN, proof_mark

HEADLINE_HEADERS = ("Pattern", "Use instead", "How much faster", "Why")
# The columns' shares of the table's width in HTML (the why folds its details, so it gets the most).
HEADLINE_WIDTHS = (30, 21, 11, 38)
# The longest a headline row may be, in characters of its Markdown line: one line a person reads at once.
HEADLINE_ROW_MAX = 200
# The sections the rows lead to (their headings' texts), besides each family's own.
STRESS_SECTION = "Stress checks"
STARVED_SECTION = "Starved samples"
NONE = "—"


def _words(text: str) -> str:
    """A cause's name, without its figures: ``convoy`` of ``convoy: 1.15 switches …``."""
    return text.split(":", 1)[0]


def _place(cost_situation: str) -> str:
    """A situation without its params and parentheses: ``2 threads`` of ``2 threads (contended), tokens=1``."""
    return cost_situation.split(",", 1)[0].split(" (", 1)[0]


def _times(ratio: float | None) -> str:
    return f"{fmt_multiple(ratio)}×" if ratio is not None and ratio > 1 else NONE


def _case(key, origins: Origins) -> str:
    params = f" {key.params_text.replace(';', ', ')}" if key.params else ""
    return marked(f"`{key.filter_name}`", variant_module(origins, key.suite, key.variant)) + params


def _variant(suite: str, variant: str, origins: Origins) -> str:
    """```variant```, or ```variant``` (MyBench) for one a package brought."""
    return marked(f"`{variant}`", variant_module(origins, suite, variant))


def _instead(suite: str, use: Standing, origins: Origins) -> str:
    """The variant to use instead, named with its module and marked when not proven."""
    return _variant(suite, use.variant, origins) + proof_mark(use.proven)


def _seed_row(cost: SeedCost, origins: Origins = NO_ORIGINS) -> tuple[tuple[str, str, str, str], str]:
    seed = _variant(cost.suite, cost.variant, origins)
    name = f"{seed} ({cost.suite})"
    use = cost.decision.use
    if cost.recommended:
        mark = proof_mark(use.proven) if use is not None else ""
        return (name, NONE, NONE, f"the one to use wherever measured within the CPUs{mark}"), \
            f"{seed}: the one to use wherever it was measured within the CPUs{mark}."
    where = f"{cost.decision.benchmark}, {cost.decision.situation}"
    factor = cost.standing.factor.ratio if cost.standing is not None and cost.standing.factor else None
    cause = f"; {cause_text(cost.diagnosis)}" if cost.diagnosis is not None else ""
    at = f"at {cost.decision.benchmark}, {_place(cost.decision.situation)}"
    instead = _instead(cost.suite, use, origins) if use else NONE
    if isinstance(cost.reason, Unproven):
        # Passed over where a proven variant can be used: the reason (which check fell short) is in the fold.
        why = f"{NOT_PROVEN} {at}"
        detail = f"{seed}: passed over at {where} ({cost.reason}){cause}."
    elif isinstance(cost.reason, Elsewhere):
        # Disqualified for what it did in another situation: name that one, not the situation it is priced at.
        why = f"disqualified: {cost.reason.split(' (', 1)[0]} at {cost.reason.rsplit(' at ', 1)[-1]}"
        detail = f"{seed}: disqualified ({cost.reason}){cause}."
    elif cost.reason is not None:
        why = f"disqualified: {cost.reason.split(' (', 1)[0]}, {at}"
        detail = f"{seed}: disqualified at {where} ({cost.reason}){cause}."
    else:
        why = f"{_words(cause_text(cost.diagnosis)) if cost.diagnosis else 'slower'} {at}"
        detail = f"{seed}: {_times(factor)} {instead} at {where}{cause}."
    return (name, instead, _times(factor), why), detail


def _cliff_row(cost: CliffCost, origins: Origins = NO_ORIGINS) -> tuple[tuple[str, str, str, str], str]:
    cliff, key = cost.cliff, cost.cliff.key
    params = f" ({key.params_text.replace(';', ', ')})" if key.params else ""
    use = cost.decision.use if cost.decision is not None else None
    other = use is not None and use.variant != key.variant
    factor = cost.standing.factor.ratio if other and cost.standing and cost.standing.factor else None
    factor_text = "starved" if cliff.factor == float("inf") else f"{fmt_multiple(cliff.factor)}×"
    why = f"cliff {factor_text} from {cliff.before} to {cliff.at} threads: {_words(cause_text(cliff.diagnosis))}"
    where = f"{key.suite}/{key.benchmark}" + (f", {key.params_text.replace(';', ', ')}" if key.params else "")
    name = _variant(key.suite, key.variant, origins)
    row = (f"{name} at {cliff.at} threads ({where})",
           _instead(key.suite, use, origins) if other and use else NONE, _times(factor), why)
    return row, f"{name} ({key.suite}/{key.benchmark}{params}): {cliff_text(cliff)}."


def _check(check: str, origins: Origins) -> str:
    """A stress check's name, with the module that brought its variant."""
    family, _, variant, _ = check_parts(check)
    return marked(f"`{check}`", variant_module(origins, family, variant))


def headline_table(h: Headlines, origins: Origins = NO_ORIGINS) -> Table:
    """One row per headline, most serious first (stress failures, starved cases, the steepest cliffs, the seed
    patterns), each folding its full sentence and leading to the section that holds the rest. ``origins``: the
    modules that brought variants, (suite, variant) -> module (the stress file's too), named beside them."""
    rows: list[tuple[str, ...]] = []
    folds: list[tuple[str, str]] = []
    for check in h.failed_checks:
        name = _check(check, origins)
        rows.append((name, NONE, NONE, "**forbidden outcome** in a stress check: incorrect"))
        folds.append((f"{name} observed an outcome its contract forbids.", STRESS_SECTION))
    if h.starved_total:
        # The list is further down (issue 73: starved cases opened the first screen, most of them artifacts then);
        # here one row says how many, naming the first few.
        named = ", ".join(f"{_case(d.key, origins)} threads:{d.key.threads}" for d in h.starved)
        more = f" and {h.starved_total - len(h.starved)} more" if h.starved_total > len(h.starved) else ""
        rows.append((f"{h.starved_total} starved case{'s' if h.starved_total != 1 else ''}", NONE, NONE,
                     "starvation beyond chance"))
        folds.append((f"Starved beyond what the run's controls show: {named}{more}; each with its samples.",
                      STARVED_SECTION))
    for cost in h.cliffs:
        row, detail = _cliff_row(cost, origins)
        rows.append(row)
        folds.append((detail, cost.cliff.key.suite))
    for seed in h.seeds:
        row, detail = _seed_row(seed, origins)
        rows.append(row)
        folds.append((f"Seed pattern, at worst against the one to use: {detail}", seed.suite))
    return Table(HEADLINE_HEADERS, tuple(rows), "llrl", HEADLINE_WIDTHS, folds=tuple(folds))
