"""A run's conditions in words (judge/conditions.py decides them): the lines on the report's
first screen, the note beside a recommendation drawn from a quick or filtered run, and the
mark on every section whose figures were taken under load."""

from __future__ import annotations

from ..fmt import fmt_count
from ..judge.conditions import CPU_BOUND_HARNESS, QUIET_CPU_SHARE, RunConditions
from ..judge.situations import threads_text

NS_PER_MS = 1e6



def _shape(c: RunConditions) -> str:
    if not c.recorded:
        return (f"{fmt_count(c.rounds, 'round')} in the file; its settings (quick or not, samples, sample "
                "length, filter) are not recorded: the file's schema predates them")
    kind = "**quick** (`bench --quick`)" if c.quick else "full (not `--quick`)"
    if c.adaptive:
        return (f"{kind}: rounds adaptive, {c.min_rounds} to {c.rounds} a case, each case stopping once its "
                f"decisions were settled ({_rounds_per_case(c)}); {fmt_count(c.samples, 'sample')} per case and "
                f"round, each at least {c.sample_ns / NS_PER_MS:g} ms, after "
                f"{fmt_count(c.warmup, 'warm-up sample')}")
    return (f"{kind}: {fmt_count(c.rounds, 'round')} of {fmt_count(c.samples, 'sample')} per case, each at "
            f"least {c.sample_ns / NS_PER_MS:g} ms, after {fmt_count(c.warmup, 'warm-up sample')}")


def _rounds_per_case(c: RunConditions) -> str:
    """``18 cases stopped at 5 rounds, 1 at 6, 30 at 10``."""
    return ", ".join(f"{fmt_count(cases, 'case')} stopped at {fmt_count(rounds, 'round')}" if index == 0
                     else f"{cases} at {rounds}" for index, (rounds, cases) in enumerate(c.rounds_per_case))


def _filter(c: RunConditions) -> str:
    if c.filter is None:
        return "not recorded"
    return f"`{c.filter}`: only the cases it matches were run" if c.filter else "none: every case was run"


def _load(c: RunConditions) -> str:
    if c.load_at_start is None:
        return "not recorded"
    return (f"{c.load_at_start:.2f} when the run started (shown only: it counts what ran just before, "
            "a build for one; the samples decide whether the machine was busy)")


def _harness_names() -> str:
    return " and ".join(f"`{'/'.join(name)}`" for name in CPU_BOUND_HARNESS)


def _cpu_share(c: RunConditions) -> str:
    if c.cpu_share is None:
        return (f"not measured: the run has no CPU-bound harness case ({_harness_names()}) within the CPUs, "
                "so this report cannot tell whether the machine was busy")
    got = f"the CPU-bound harness cases got {c.cpu_share:.0%} of their CPUs"
    if not c.busy:
        return f"{got} (at least {QUIET_CPU_SHARE:.0%}: quiet, every thread had its CPU)"
    state = (f"{got}, below {QUIET_CPU_SHARE:.0%}: **taken under load**, other work held the CPUs, so timings "
             "are noisy")
    unjudged = c.fairness_unjudged_threads
    if unjudged:
        state += f"; too few CPUs free to judge fairness at {threads_text(unjudged)}"
    return state


def conditions_items(c: RunConditions) -> tuple[str, ...]:
    """The run's shape, whether the machine was busy (from the samples) and the load average, one
    line each, for the report's first screen."""
    return (f"**Run:** {_shape(c)}.",
            f"**Filter:** {_filter(c)}.",
            f"**Threads:** {threads_text(c.threads)} on {fmt_count(c.logical_cpus, 'logical CPU')}.",
            f"**Busy or free:** {_cpu_share(c)}.",
            f"**Load average (1 minute):** {_load(c)}.")


def load_mark(c: RunConditions) -> str | None:
    """The mark on a section whose figures were taken under load, or None."""
    if not c.busy:
        return None
    return (f"**Taken under load** (the CPU-bound harness cases got {c.cpu_share:.0%} of their CPUs): these "
            "figures may include time spent waiting for a CPU.")


def recommendation_note(c: RunConditions) -> str | None:
    """The note beside a decision table drawn from a quick or filtered run, or None."""
    if not c.narrowed:
        return None
    kinds = [kind for kind, on in (("quick", c.quick), ("filtered", c.filter)) if on]
    what = []
    if c.filter:
        what.append(f"only the variants that `{c.filter}` matched compete")
    if c.quick:
        what.append(f"each from {fmt_count(c.rounds, 'round')} of {fmt_count(c.samples, 'sample')}")
    return (f"**Drawn from a {' and '.join(kinds)} run:** {' and '.join(what)}. A full run may choose "
            "differently.")
