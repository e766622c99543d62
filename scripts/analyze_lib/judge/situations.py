"""A benchmark's situations, read from its own cases: which thread counts stand for "one
thread", "contended" and "oversubscribed", which parameter values are the situations the
decisions cover, and which param goes on a chart's x axis.

Everything is derived from the CSV (the params that vary, the thread counts measured, the
machine's logical CPUs) except ``NOTES`` below: the few facts a results file does not carry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..files.model import Case, Params, ParamValue, format_params

THREADS = "threads"
# The param that splits one case into one row per role of its threads (``role=read`` /
# ``role=write``); the CSV schema defines it for every suite.
ROLE_PARAM = "role"


@dataclass(frozen=True)
class Notes:
    """What the CSV does not say about a benchmark: what one operation is (bench already
    divides by it), which variants are baselines to subtract, not choices, and which are the
    seed patterns (the posts this project starts from, docs/suites.md), whose cost against the
    best alternative the report's headlines state."""
    operation: str = "op"
    baselines: tuple[str, ...] = ()
    seeds: tuple[str, ...] = ()


# Suites that measure the harness itself: the floor under every number, a table only.
FLOOR_SUITES = frozenset({"harness"})
# The seed patterns per family, as docs/suites.md describes them: once's `[String]` tracker (and
# its #file:#function:#line convenience) and dispatch_once singleton; the isolation queue
# (reads sync, writes async barrier); the waits of seeds 001, 003 and 004.
_ONCE_SEEDS = ("array-tracker", "dispatch-once")
NOTES: dict[tuple[str, str], Notes] = {
    ("once", "hit"): Notes(seeds=_ONCE_SEEDS + ("auto-token",)),
    ("once", "first"): Notes(seeds=_ONCE_SEEDS),
    ("once", "race"): Notes(baselines=("barrier-only",), seeds=_ONCE_SEEDS),
    ("isolation", "mixed"): Notes(seeds=("concurrent-barrier-async",)),
    ("isolation", "roles"): Notes(seeds=("concurrent-barrier-async",)),
    ("wait", "fan-out"): Notes(operation="task", seeds=("semaphore", "group-wait", "group-notify", "operation-queue")),
    ("wait", "throttle"): Notes(operation="task", seeds=("semaphore-limit", "serial-worker")),
    ("wait", "handoff"): Notes(operation="round trip"),
}


def notes(suite: str, benchmark: str) -> Notes:
    """The benchmark's entry in NOTES (defaults: an operation is an op, no baselines)."""
    return NOTES.get((suite, benchmark), Notes())


def metric(suite: str, benchmark: str) -> str:
    """``ns/op``, or ``ns per task`` where one operation is a task."""
    operation = notes(suite, benchmark).operation
    return "ns/op" if operation == "op" else f"ns per {operation}"


def param_values(cases: Iterable[Case], name: str) -> list[ParamValue | None]:
    """The distinct values of param ``name`` among ``cases``, sorted (None where absent)."""
    found = {case.key.params_dict.get(name) for case in cases}
    return sorted(found, key=lambda v: (v is None, not isinstance(v, (int, float)), v if v is not None else 0))


def varying_params(cases: list[Case]) -> list[str]:
    """The params that take more than one value among ``cases``, by name."""
    names = sorted({k for case in cases for k, _ in case.key.params})
    return [n for n in names if len(param_values(cases, n)) > 1]


def constant_params(cases: list[Case]) -> Params:
    """The (name, value) params every case shares (e.g. ``keys=1000``)."""
    varying = set(varying_params(cases))
    first = cases[0].key.params if cases else ()
    return tuple((k, v) for k, v in first if k not in varying)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def x_param(cases: list[Case]) -> str | None:
    """The chart's x axis: the numeric param with the most distinct values (ties broken
    by name), or None when no numeric param varies (x is then threads)."""
    ranked = []
    for name in varying_params(cases):
        values = param_values(cases, name)
        if all(_is_number(v) for v in values):
            ranked.append((-len(values), name))
    return min(ranked)[1] if ranked else None


def threads_text(counts: Iterable[int]) -> str:
    """``1 thread``, ``1 and 2 threads``, ``1, 2 and 4 threads``."""
    counts = sorted(set(counts))
    if counts == [1]:
        return "1 thread"
    names = [str(c) for c in counts]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{joined} threads"


def thread_label(threads: int, logical_cpus: int) -> str:
    """``1 thread``, ``2 threads (contended)`` within the CPUs, ``8 threads (oversubscribed)`` beyond them."""
    if threads == 1:
        return "1 thread"
    return f"{threads} threads ({'contended' if threads <= logical_cpus else 'oversubscribed'})"


def thread_situations(counts: Iterable[int], logical_cpus: int) -> list[tuple[str, int]]:
    """The thread counts a decision is made at, with their names: one thread; contended,
    the most threads that still fit the CPUs; oversubscribed, the most threads measured.
    Only the situations that were measured."""
    counts = sorted(set(counts))
    fitting = [t for t in counts if 1 < t <= logical_cpus]
    over = [t for t in counts if t > logical_cpus]
    chosen = [1] if 1 in counts else []
    chosen += fitting[-1:] + over[-1:]
    return [(thread_label(t, logical_cpus), t) for t in chosen]


def chart_threads(counts: Iterable[int], logical_cpus: int) -> list[int]:
    """The thread counts a chart against a param shows, a panel each: one thread, and the
    most threads that still fit the CPUs; the fewest measured when none fits."""
    counts = sorted(set(counts))
    chosen = [t for t in counts if t == 1]
    fitting = [t for t in counts if 1 < t <= logical_cpus]
    if fitting:
        chosen.append(fitting[-1])
    return chosen or counts[:1]


def situation_params(combinations: Iterable[Params]) -> list[Params]:
    """The param combinations a decision table covers: those in which every numeric param
    is at its smallest or largest value among the measured combinations that agree on the
    other params (the fewest and the most tokens; no work and 1 µs of work at the one batch
    size that has both). Non-numeric params (roles) are all kept. Sorted as measured."""
    combinations = list(dict.fromkeys(combinations))
    kept = []
    for combo in combinations:
        extreme = True
        for name, value in combo:
            if not _is_number(value):
                continue
            others = {k: v for k, v in combo if k != name}
            peers = [dict(c)[name] for c in combinations
                     if {k: v for k, v in c if k != name} == others and _is_number(dict(c).get(name))]
            if value not in (min(peers), max(peers)):
                extreme = False
        if extreme:
            kept.append(combo)
    return kept


def params_label(params: Params) -> str:
    """``tokens=1, work=0`` (readable in a sentence; empty for none)."""
    return format_params(params).replace(";", ", ")
