"""The comparison of two runs: per case, ratio of medians, CI, p-value and verdict.

``compare()`` is the pure core (samples in, rows out) that the gate, history and
scripts/simulate_gate.py all use; ``build_comparison()`` adds what a report of two
files needs: filtering, one-sided cases, per-suite geometric means and warnings.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Mapping, Union

import numpy as np

from .errors import AnalyzeError
from .model import Case, CaseKey, ResultsFile, filter_cases
from .schema import RUN_SETTING_COLUMNS, RUN_SETTINGS_SINCE_VERSION
from .stats import (
    Modes,
    benjamini_hochberg,
    bootstrap_ratio_of_medians,
    find_modes,
    hierarchical_ratio,
    median_of_round_medians,
    noise_floor,
    round_medians,
    split_by_round,
    geometric_mean,
    mann_whitney_p,
    median,
    rounds_to_reach,
    smallest_p,
    starved_count,
)

DEFAULT_THRESHOLD_PERCENT = 5.0
DEFAULT_ALPHA = 0.01

SLOWER = "slower"
FASTER = "faster"
UNCHANGED = "unchanged"
VERDICT_ORDER = (SLOWER, FASTER, UNCHANGED)
# Not a verdict but an outcome: too few samples for p < alpha, so the case was not judged
# (its verdict is UNCHANGED). Counted apart from the verdicts.
UNDETECTABLE = "undetectable"
# Not verdicts either: a case with rounds whose own noise floor reaches the smallest
# change the gate calls (see noise_floor_rule) is UNSTABLE and not gated. Counted only
# when present, so comparisons without rounds report exactly what they always did.
UNSTABLE = "unstable"
# A case whose samples on either side fall in two levels (stats.find_modes) is BIMODAL:
# a median between two levels describes neither, so it is not gated; each level's
# median and share are reported, level by level when both sides are bimodal.
BIMODAL = "bimodal"
OUTCOME_ORDER = VERDICT_ORDER + (BIMODAL, UNSTABLE, UNDETECTABLE)
ALWAYS_COUNTED = VERDICT_ORDER + (UNDETECTABLE,)
UNDETECTABLE_TEXT = "undetectable (too few samples)"
UNDETECTABLE_ROUNDS_TEXT = "undetectable (too few rounds)"

# Rounds (bench --rounds N: N fresh processes). When both sides have at least
# ROUNDS_MIN_FOR_ROUND_STATS rounds, a case is judged on the between-round evidence: a
# Mann-Whitney U test on the round medians (exact), decided for all such cases together with
# Benjamini-Hochberg at false discovery rate alpha (decide_by_rounds), and a change of at least
# the threshold; the ratio of the medians of round medians is reported with a hierarchical
# bootstrap CI. A case whose U test cannot reach alpha even alone (2/C(n+m, n) > alpha: fewer
# than MIN_GATE_ROUNDS rounds a side at the default alpha) is undetectable.
ROUNDS_MIN_FOR_ROUND_STATS = 2
# The fewest rounds a side (equal sides) whose U test can reach the default alpha 0.01: 2/C(10, 5) = 0.0079.
MIN_GATE_ROUNDS = 5
LONE_CHANGE_NOTE = ("{count} of {cases} cases undetectable (too few rounds): among {cases} cases decided together a "
                    "change in one case alone is called only at p <= {level:.2g} (alpha / {cases}), and the U test "
                    "on {base} and {head} rounds reaches {best:.2g} at best; run at least {needed} rounds a side "
                    "(bench --rounds {needed}) or compare fewer cases (--filter)")
ONE_PROCESS_NOTE = ("samples from one process cannot show between-process variance: {count} compared on "
                    "one round a side, so the U test treats them as independent and may call "
                    "process-to-process noise a change (run bench --rounds N, N >= " + str(MIN_GATE_ROUNDS) + ", and 10 "
                    "to call a change in one case among ~500)")

# Which side's median is starved (inf: at least half its samples completed no operation).
STARVED_HEAD = "head"
STARVED_BASE = "base"
STARVED_BOTH = "both"

# Tolerance so a change of exactly the threshold (2.2 / 2.0 = 1.1000000000000001) counts.
_RATIO_EPSILON = 1e-9

# Run metadata that must match for timings to be comparable, with a reader's name.
COMPARABLE_RUN_FIELDS = (
    ("host", "host"),
    ("cpu_model", "CPU model"),
    ("logical_cpus", "logical CPU count"),
    ("swift_version", "Swift version"),
    ("build", "build"),
    ("allocator", "allocator"),
    ("schema_version", "schema version"),
)

# How a warning names each run setting (schema.RUN_SETTING_COLUMNS): bench's option or
# what it sets.
RUN_SETTING_LABELS = {
    "run_samples": "samples per case",
    "run_warmup": "warm-up samples",
    "run_sample_ns": "least sample duration in ns",
    "run_quick": "--quick",
    "run_filter": "--filter",
    "run_threads": "--threads",
    "run_rounds": "rounds",
    "run_spin_scale": "--spin-scale",
}

Samples = Union[Case, np.ndarray]


@dataclass(frozen=True)
class CompareRow:
    """One case compared: head/base ratio of medians (> 1 means head is slower).

    ``verdict`` is SLOWER or FASTER only when p < alpha and the change is at least the
    threshold; ``alpha_reachable`` is False when the sample counts make p < alpha
    impossible (the case is undetectable): it is then never judged, always UNCHANGED.

    Medians may be ``inf`` (starved, see stats): the ratio is then ``inf`` (starved in
    head), 0 (starved in base) or NaN (starved in both, never a change).
    """

    key: CaseKey
    base_n: int
    head_n: int
    base_median: float
    head_median: float
    ratio: float
    ci_low: float
    ci_high: float
    p_value: float
    verdict: str
    alpha_reachable: bool
    base_starved: int = 0
    head_starved: int = 0
    # Rounds (fresh processes) per side; ``by_rounds`` when the row was judged on
    # between-round evidence (both sides have at least ROUNDS_MIN_FOR_ROUND_STATS rounds).
    base_rounds: int = 1
    head_rounds: int = 1
    by_rounds: bool = False
    # The noise floor of each side (stats.noise_floor: the change factor its own rounds
    # show between halves; NaN with one round), and whether the case is UNSTABLE.
    base_floor: float = math.nan
    head_floor: float = math.nan
    unstable: bool = False
    # Each side's two levels when its samples are bimodal (stats.Modes), else None.
    base_modes: Modes | None = None
    head_modes: Modes | None = None

    @property
    def bimodal(self) -> bool:
        """True when either side's samples fall in two levels (not gated)."""
        return self.base_modes is not None or self.head_modes is not None

    @property
    def noise_floor(self) -> float:
        """The larger side's noise floor (NaN when neither side has 2 rounds)."""
        floors = [f for f in (self.base_floor, self.head_floor) if not math.isnan(f)]
        return max(floors) if floors else math.nan

    @property
    def starved(self) -> str | None:
        """STARVED_HEAD, STARVED_BASE or STARVED_BOTH when a median is starved, else None."""
        return starved_side(self.base_median, self.head_median)

    @property
    def outcome(self) -> str:
        """The verdict, or UNSTABLE (noise floor reaches the threshold), or UNDETECTABLE
        when the sample or round counts could never decide it."""
        if self.bimodal:
            return BIMODAL
        if self.unstable:
            return UNSTABLE
        return self.verdict if self.alpha_reachable else UNDETECTABLE

    @property
    def verdict_text(self) -> str:
        """The verdict in words: ``1.32× slower``, ``1.10× faster``, ``no change``, with
        a starved median ``slower (starved in head)`` and the like, or
        ``undetectable (too few samples)``."""
        if self.bimodal:
            return bimodal_text(self.base_modes, self.head_modes, self.base_median, self.head_median)
        if self.unstable:
            return f"unstable (not gated): noise floor {self.noise_floor:.2f}×"
        if not self.alpha_reachable:
            return UNDETECTABLE_ROUNDS_TEXT if self.by_rounds else UNDETECTABLE_TEXT
        return verdict_text(self.ratio, self.verdict, self.starved)


def starved_side(base_median: float, head_median: float) -> str | None:
    """Which side's median is infinite (starved), or None when both are finite."""
    if math.isinf(base_median) and math.isinf(head_median):
        return STARVED_BOTH
    if math.isinf(head_median):
        return STARVED_HEAD
    if math.isinf(base_median):
        return STARVED_BASE
    return None


def verdict_text(ratio: float, verdict: str, starved: str | None = None) -> str:
    """``1.32× slower`` / ``1.10× faster`` / ``no change`` for a head/base ratio.

    A starved median has no factor: ``slower (starved in head)``, ``faster (starved in
    base)``, ``no change (starved in both)``, or ``no change (starved in head, not
    significant)`` when the U test does not separate the sides.
    """
    if starved == STARVED_BOTH:
        return "no change (starved in both)"
    if starved is not None:
        if verdict == UNCHANGED:
            return f"no change (starved in {starved}, not significant)"
        return f"{verdict} (starved in {starved})"
    if verdict == SLOWER:
        return f"{ratio:.2f}× slower"
    if verdict == FASTER:
        return f"{1 / ratio:.2f}× faster"
    return "no change"


def _level_text(modes: Modes | None, single: float) -> str:
    if modes is None:
        return f"one level {single:.3g}"
    return (f"{modes.low_median:.3g} ({modes.low_share:.0%}) / "
            f"{modes.high_median:.3g} ({modes.high_share:.0%})")


def bimodal_text(base: Modes | None, head: Modes | None, base_median: float = math.nan,
                 head_median: float = math.nan) -> str:
    """``bimodal (not gated): base 500 (60%) / 1.6e+03 (40%); head ...`` and, when both
    sides are bimodal, the level-by-level ratios (head/base of each level's median)."""
    text = f"bimodal (not gated): base {_level_text(base, base_median)}; head {_level_text(head, head_median)}"
    if base is not None and head is not None:
        text += (f"; levels head/base {head.low_median / base.low_median:.2f} and "
                 f"{head.high_median / base.high_median:.2f}")
    return text


def _with_modes(row: CompareRow, a: np.ndarray, b: np.ndarray) -> CompareRow:
    """``row`` with each side's levels; a bimodal case is never judged (UNCHANGED).

    A case with a starved median is never bimodal: the starved side completed no operation
    in most of its samples, slower than either level of the other side, so the starved rule
    judges it (verdict_text), and no level of the starved side is there to show."""
    if row.starved is not None:
        return row
    base_modes, head_modes = find_modes(a), find_modes(b)
    if base_modes is None and head_modes is None:
        return row
    return replace(row, base_modes=base_modes, head_modes=head_modes, verdict=UNCHANGED)


def _samples(value: Samples) -> np.ndarray:
    return value.ns_per_op if isinstance(value, Case) else np.asarray(value, dtype=float)


def judge(ratio: float, p_value: float, threshold: float, alpha: float) -> str:
    """SLOWER/FASTER when p < alpha and the change factor is at least 1 + threshold/100.

    The factor is symmetric: 1.10× slower (ratio 1.1) and 1.10× faster (ratio 1/1.1)
    are equally large changes. A ratio of ``inf`` (starved in head) is slower, 0 (starved
    in base) faster and NaN (starved in both) unchanged, each when significant.
    """
    return judge_change(ratio, threshold) if p_value < alpha else UNCHANGED


def judge_change(ratio: float, threshold: float) -> str:
    """SLOWER/FASTER when the change factor is at least 1 + threshold/100, for a case already found
    significant (a starved side counts: ``inf`` slower, 0 faster)."""
    if math.isnan(ratio):
        return UNCHANGED
    minimum_factor = 1 + threshold / 100
    if ratio >= minimum_factor - _RATIO_EPSILON:
        return SLOWER
    if ratio == 0 or 1 / ratio >= minimum_factor - _RATIO_EPSILON:
        return FASTER
    return UNCHANGED


def _round_groups(value: Samples) -> list[np.ndarray]:
    """A side's samples split by round (one group when it has no rounds)."""
    if isinstance(value, Case):
        return split_by_round(value.ns_per_op, value.round_ids)
    return [np.asarray(value, dtype=float)]


def compare_rounds(key: CaseKey, base: list[np.ndarray], head: list[np.ndarray],
                   threshold: float = DEFAULT_THRESHOLD_PERCENT,
                   alpha: float = DEFAULT_ALPHA) -> CompareRow:
    """Compare one case on between-round evidence: ``base`` and ``head`` are lists of
    rounds (arrays of ns/op). Each round is summarized by its median; the ratio is of the
    medians of round medians, its CI a hierarchical bootstrap at confidence 1 - alpha;
    ``p_value`` is an exact Mann-Whitney U test on the round medians. The verdict is this case's
    alone; compare() decides all cases together (decide_by_rounds)."""
    a, b = np.concatenate(base), np.concatenate(head)
    estimate = hierarchical_ratio(head, base, confidence=1 - alpha)
    reachable = smallest_p(len(base), len(head)) <= alpha
    p_value = mann_whitney_p(round_medians(base), round_medians(head))
    base_floor, head_floor = noise_floor(base), noise_floor(head)
    # Alone (compare() decides all cases together, decide_by_rounds): significant at alpha and large enough.
    verdict = judge_change(estimate.ratio, threshold) if reachable and p_value <= alpha else UNCHANGED
    unstable = verdict == UNCHANGED and is_unstable(max(base_floor, head_floor), threshold)
    return _with_modes(CompareRow(
        key=key,
        base_n=int(a.size),
        head_n=int(b.size),
        base_median=median_of_round_medians(base),
        head_median=median_of_round_medians(head),
        ratio=estimate.ratio,
        ci_low=estimate.low,
        ci_high=estimate.high,
        p_value=p_value,
        verdict=verdict,
        alpha_reachable=reachable,
        base_starved=starved_count(a),
        head_starved=starved_count(b),
        base_rounds=len(base),
        head_rounds=len(head),
        by_rounds=True,
        base_floor=base_floor,
        head_floor=head_floor,
        unstable=unstable,
    ), a, b)


def is_unstable(floor: float, threshold: float) -> bool:
    """True when a noise floor reaches the smallest change the gate calls.

    The gate *resolves* a change when it is at least the threshold factor
    1 + threshold/100 (smaller ones are "no change" by design). A case whose floor, the
    change factor that 5% of the splits of one side's own rounds into halves reach with no
    change at all, is at least that factor cannot tell a change the gate would call from
    its process-to-process noise: it is unstable and not gated.
    """
    return not math.isnan(floor) and floor >= 1 + threshold / 100 - _RATIO_EPSILON


def compare_samples(key: CaseKey, base: Samples, head: Samples,
                    threshold: float = DEFAULT_THRESHOLD_PERCENT,
                    alpha: float = DEFAULT_ALPHA) -> CompareRow:
    """Compare one case's base and head samples (ns/op, lower is better).

    When both sides have rounds (Case with at least ROUNDS_MIN_FOR_ROUND_STATS rounds each)
    the case is judged by compare_rounds; otherwise on the pooled samples (U test and a
    bootstrap over samples), as for one process a side.
    """
    base_groups, head_groups = _round_groups(base), _round_groups(head)
    if min(len(base_groups), len(head_groups)) >= ROUNDS_MIN_FOR_ROUND_STATS:
        return compare_rounds(key, base_groups, head_groups, threshold, alpha)
    a, b = _samples(base), _samples(head)
    estimate = bootstrap_ratio_of_medians(b, a)
    p_value = mann_whitney_p(a, b)
    # Decided by the exact test's smallest p: with ties scipy's asymptotic p can undercut
    # it (3 tied values a side give 0.047 where no ordering is rarer than 0.1).
    reachable = smallest_p(a.size, b.size) < alpha
    return _with_modes(CompareRow(
        key=key,
        base_n=int(a.size),
        head_n=int(b.size),
        base_median=median(a),
        head_median=median(b),
        ratio=estimate.ratio,
        ci_low=estimate.low,
        ci_high=estimate.high,
        p_value=p_value,
        verdict=judge(estimate.ratio, p_value, threshold, alpha) if reachable else UNCHANGED,
        alpha_reachable=reachable,
        base_starved=starved_count(a),
        head_starved=starved_count(b),
        base_rounds=len(base_groups),
        head_rounds=len(head_groups),
    ), a, b)


def compare(base: Mapping[CaseKey, Samples], head: Mapping[CaseKey, Samples],
            threshold: float = DEFAULT_THRESHOLD_PERCENT,
            alpha: float = DEFAULT_ALPHA) -> list[CompareRow]:
    """Compare every case present on both sides; rows in case order.

    Pure and deterministic: the same samples always give the same rows.
    """
    common = sorted(set(base) & set(head), key=CaseKey.sort_key)
    rows = [compare_samples(k, base[k], head[k], threshold, alpha) for k in common]
    return decide_by_rounds(rows, threshold, alpha)


def decide_by_rounds(rows: list[CompareRow], threshold: float, alpha: float) -> list[CompareRow]:
    """The verdicts of the rows judged by rounds, decided together: a case is slower or faster when the U
    test on its round medians is significant after Benjamini-Hochberg over all those cases at false
    discovery rate ``alpha``, and its change is at least the threshold. Hundreds of cases tested at alpha
    each would flag about alpha x cases of them on a same-commit pair; this flags none in 1 - alpha of such
    pairs. A case not called whose noise floor reaches the threshold is unstable.

    Among m cases, Benjamini-Hochberg calls one case whose change is alone only at p <= alpha/m. A case
    whose round counts cannot give so small a p (lone_change_level) is undetectable, not judged: a gate
    that could catch a regression only when many cases regress together would pass the usual one unseen."""
    # A bimodal case is not judged (its verdict stays UNCHANGED): its outcome is BIMODAL.
    candidates = [index for index, row in enumerate(rows) if row.by_rounds and not row.bimodal]
    level = lone_change_level(len(candidates), alpha)
    decided = list(rows)
    for index in candidates:
        row = rows[index]
        if row.alpha_reachable and not can_call_alone(row, level):
            decided[index] = replace(row, alpha_reachable=False, verdict=UNCHANGED,
                                     unstable=is_unstable(row.noise_floor, threshold))
    judged = [index for index in candidates if decided[index].alpha_reachable]
    significant = benjamini_hochberg([rows[index].p_value for index in judged], alpha)
    for index, is_significant in zip(judged, significant):
        row = rows[index]
        verdict = judge_change(row.ratio, threshold) if is_significant else UNCHANGED
        decided[index] = replace(row, verdict=verdict,
                                 unstable=verdict == UNCHANGED and is_unstable(row.noise_floor, threshold))
    return decided


def lone_change_level(cases: int, alpha: float) -> float:
    """The p-value a change in one case alone must reach among ``cases`` cases decided together:
    Benjamini-Hochberg's first step, alpha / cases."""
    return alpha / max(cases, 1)


def can_call_alone(row: CompareRow, level: float) -> bool:
    """Whether the row's round counts can give the p-value ``level`` a lone change needs."""
    return smallest_p(row.base_rounds, row.head_rounds) <= level


@dataclass
class Comparison:
    """Two files compared: rows (slower first, worst first), one-sided cases, warnings."""

    base: ResultsFile
    head: ResultsFile
    threshold: float
    alpha: float
    rows: list[CompareRow]
    base_only: list[CaseKey] = field(default_factory=list)
    head_only: list[CaseKey] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # What the reader should know about how cases were judged (not a problem with the
    # input): e.g. that samples from one process cannot show between-process variance.
    notes: list[str] = field(default_factory=list)

    @property
    def by_rounds(self) -> bool:
        """True when any row was judged on between-round evidence."""
        return any(row.by_rounds for row in self.rows)

    @property
    def counts(self) -> dict[str, int]:
        """Number of rows per outcome (the verdicts and UNDETECTABLE), each present
        (possibly 0); an undetectable case is not counted as unchanged."""
        counted = Counter(row.outcome for row in self.rows)
        return {outcome: counted.get(outcome, 0) for outcome in OUTCOME_ORDER
                if outcome in ALWAYS_COUNTED or counted.get(outcome)}

    @property
    def unstable(self) -> list[CompareRow]:
        """The rows whose noise floor reaches the threshold (not gated)."""
        return [row for row in self.rows if row.outcome == UNSTABLE]

    @property
    def bimodal(self) -> list[CompareRow]:
        """The rows whose samples fall in two levels on either side (not gated)."""
        return [row for row in self.rows if row.bimodal]

    @property
    def undetectable(self) -> list[CompareRow]:
        """The rows whose sample (or round) counts can never decide them (not judged);
        an unstable row is counted as unstable, not here."""
        return [row for row in self.rows if row.outcome == UNDETECTABLE]

    @property
    def slower(self) -> list[CompareRow]:
        """The rows whose outcome is SLOWER: what ``counts`` counts as slower, and what the gate
        fails on (one rule, CompareRow.outcome)."""
        return [row for row in self.rows if row.outcome == SLOWER]

    @property
    def suite_geomeans(self) -> dict[str, tuple[float, int]]:
        """Per suite: geometric mean of the head/base ratios and the number of cases in it.

        Cases with a starved median (ratio inf, 0 or undefined) are left out of both; see
        ``starved_rows``. A suite with only such cases has a NaN mean and 0 cases.
        """
        by_suite: dict[str, list[float]] = {}
        for row in self.rows:
            ratios = by_suite.setdefault(row.key.suite, [])
            if row.starved is None:
                ratios.append(row.ratio)
        return {s: (geometric_mean(r), len(r)) for s, r in sorted(by_suite.items())}

    @property
    def starved_rows(self) -> list[CompareRow]:
        """Rows whose base or head median is starved (inf)."""
        return [row for row in self.rows if row.starved is not None]


def _row_order(row: CompareRow) -> tuple:
    rank = OUTCOME_ORDER.index(row.outcome)
    # Starved in head (ratio inf) sorts first among slower, starved in base (0) first
    # among faster; NaN never reaches here as a change.
    severity = -row.ratio if row.verdict == SLOWER else row.ratio if row.verdict == FASTER else 0
    return (rank, severity, row.key.sort_key())


def _setting_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


def _records_settings(results: ResultsFile) -> bool:
    return all(column in results.run for column in RUN_SETTING_COLUMNS)


def run_warnings(base: ResultsFile, head: ResultsFile, names=("base", "head")) -> list[str]:
    """Warnings about runs whose timings are not comparable (machine, build, run
    settings, ...); ``names`` are what the messages call the two runs."""
    warnings = []
    for name, label in COMPARABLE_RUN_FIELDS:
        if base.run[name] != head.run[name]:
            warnings.append(
                f"different {label}: {names[0]} {base.run[name]!r}, {names[1]} {head.run[name]!r}; "
                "timings may not be comparable")
    if _records_settings(base) and _records_settings(head):
        for column in RUN_SETTING_COLUMNS:
            before, after = base.run[column], head.run[column]
            if before != after:
                warnings.append(
                    f"different run setting {RUN_SETTING_LABELS[column]} ({column}): "
                    f"{names[0]} {_setting_text(before)}, {names[1]} {_setting_text(after)}; "
                    "timings may not be comparable")
    for side, results in zip(names, (base, head)):
        if results.run["build"] != "release":
            warnings.append(
                f"{side} is a {results.run['build']!r} build: timings are not representative")
    return warnings


def unknown_settings_warnings(base: ResultsFile, head: ResultsFile,
                              names=("base", "head")) -> list[str]:
    """A warning when either file predates recorded run settings (schema < 3), so that
    a comparison never implies it checked them."""
    known = (_records_settings(base), _records_settings(head))
    if all(known):
        return []
    if not any(known):
        versions = sorted({base.schema_version, head.schema_version})
        return [f"run settings unknown: neither file records them (schema version "
                f"{' and '.join(map(str, versions))}; version {RUN_SETTINGS_SINCE_VERSION} does), "
                "so they cannot be checked to match"]
    unknown, other = (0, 1) if not known[0] else (1, 0)
    version = (base, head)[unknown].schema_version
    return [f"run settings of {names[unknown]} unknown: schema version {version} does not record "
            f"them (version {RUN_SETTINGS_SINCE_VERSION} does), so they cannot be checked against "
            f"{names[other]}'s"]


def _file_warnings(base: ResultsFile, head: ResultsFile) -> list[str]:
    """What the loader worked around in either file (each names its file), once each."""
    return list(dict.fromkeys(base.warnings + head.warnings))


def _sample_warnings(rows: list[CompareRow], alpha: float) -> list[str]:
    undecided = [r for r in rows if r.outcome == UNDETECTABLE]
    unreachable = Counter((r.base_n, r.head_n) for r in undecided if not r.by_rounds)
    few_rounds = Counter((r.base_rounds, r.head_rounds) for r in undecided if r.by_rounds)
    return [
        f"{count} case(s) have {n_base} base and {n_head} head rounds: the U test on round medians "
        f"can reach p = {smallest_p(n_base, n_head):.3g} at best, not alpha {alpha:g} (about "
        f"{MIN_GATE_ROUNDS} rounds a side at 0.01), so they can never be called slower or faster (run "
        "bench with more --rounds)"
        for (n_base, n_head), count in sorted(few_rounds.items())
    ] + [
        f"{count} case(s) have {n_base} base and {n_head} head samples: the smallest "
        f"possible p is {smallest_p(n_base, n_head):.3g}, not below alpha {alpha:g}, "
        "so they can never be called slower or faster (run more samples)"
        for (n_base, n_head), count in sorted(unreachable.items())
    ]


def matched_cases(base, head, pattern):
    """Both files' cases whose name matches ``pattern`` (timing or counts files alike), then the keys only base
    has and the keys only head has, sorted.

    Raises AnalyzeError (naming both files) when no case is on both sides.
    """
    base_cases = filter_cases(base.cases, pattern)
    head_cases = filter_cases(head.cases, pattern)
    if not set(base_cases) & set(head_cases):
        what = "no case matching --filter" if pattern is not None else "no case"
        raise AnalyzeError(f"{base.path}, {head.path}: {what} in common")
    return (base_cases, head_cases,
            sorted(set(base_cases) - set(head_cases), key=CaseKey.sort_key),
            sorted(set(head_cases) - set(base_cases), key=CaseKey.sort_key))


def build_comparison(base: ResultsFile, head: ResultsFile,
                     threshold: float = DEFAULT_THRESHOLD_PERCENT,
                     alpha: float = DEFAULT_ALPHA, pattern=None) -> Comparison:
    """Compare two loaded files, keeping only cases whose name matches ``pattern``.

    Raises AnalyzeError (naming both files) when no case is on both sides.
    """
    base_cases, head_cases, base_only, head_only = matched_cases(base, head, pattern)
    rows = compare(base_cases, head_cases, threshold, alpha)
    rows.sort(key=_row_order)
    return Comparison(
        base=base,
        head=head,
        threshold=threshold,
        alpha=alpha,
        rows=rows,
        base_only=base_only,
        head_only=head_only,
        warnings=(_file_warnings(base, head) + run_warnings(base, head)
                  + unknown_settings_warnings(base, head) + _sample_warnings(rows, alpha)),
        notes=_round_notes(rows, alpha),
    )


def _round_notes(rows: list[CompareRow], alpha: float) -> list[str]:
    """The notes on how cases were judged: those compared on one process's samples (no between-round
    evidence), and those with too few rounds to be called alone among all the cases decided together."""
    notes = []
    pooled = sum(1 for row in rows if not row.by_rounds)
    if pooled:
        notes.append(ONE_PROCESS_NOTE.format(count=f"{pooled} case{'s' if pooled != 1 else ''}"))
    by_rounds = [row for row in rows if row.by_rounds]
    level = lone_change_level(len(by_rounds), alpha)
    short = [row for row in by_rounds if not can_call_alone(row, level)]
    if short:
        fewest = min(short, key=lambda row: min(row.base_rounds, row.head_rounds))
        notes.append(LONE_CHANGE_NOTE.format(
            count=len(short), cases=len(by_rounds), level=level, base=fewest.base_rounds, head=fewest.head_rounds,
            best=smallest_p(fewest.base_rounds, fewest.head_rounds), needed=rounds_to_reach(level)))
    return notes


def finite_or_none(value: float) -> float | None:
    """``value`` for JSON: None in place of NaN or infinity."""
    return value if math.isfinite(value) else None


JSON_INFINITY = "inf"


def json_number(value: float) -> float | str | None:
    """``value`` for JSON, which has no infinity or NaN: a finite value as is, ``inf``
    (a starved median, or a ratio with one) as the string ``"inf"`` (the CSV's own
    spelling), NaN (undefined, e.g. the ratio of two starved medians) as null."""
    if math.isnan(value):
        return None
    if math.isinf(value):
        return JSON_INFINITY if value > 0 else "-" + JSON_INFINITY
    return value
