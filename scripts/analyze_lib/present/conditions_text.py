"""A run's conditions in words (judge/conditions.py decides them): the lines on the report's
first screen, the note beside a recommendation drawn from a quick or filtered run, and the
mark on every section whose figures were taken under load."""

from __future__ import annotations

from ..fmt import fmt_count
from ..judge.conditions import QUIET_CPU_SHARE, RunConditions
from ..judge.evidence import CPU_BOUND_HARNESS, HOST_SPOILED_SHARE, UNMEASURED_STALL_RATE, StallFloor
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
    if not c.filter:
        return "none: every case was run"
    # bench adds its controls (the CPU-bound harness loops) that a filter leaves out, unless --no-controls.
    controls = (" and ".join(f"`{path}`" for path in c.added_controls))
    controls = f", and the controls {controls}" if controls else ""
    return f"`{c.filter}`: only the cases it matches were run{controls}"


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
    """The run's shape and the load average, one line each, for the report's first screen (whether the machine
    was busy is in ``machine_items``)."""
    return (f"**Run:** {_shape(c)}.",
            f"**Filter:** {_filter(c)}.",
            f"**Threads:** {threads_text(c.threads)} on {fmt_count(c.logical_cpus, 'logical CPU')}.",
            f"**Load average (1 minute):** {_load(c)}.")


def _host(spoiled: int, samples: int, recorded: bool) -> str:
    if not recorded:
        return ("no steal figure: the file predates schema 10, or the platform gives none (`/proc/stat`), so the "
                "samples the host spoiled cannot be told")
    return (f"{spoiled:,} of {fmt_count(samples, 'sample')} spoiled, the hypervisor taking at least "
            f"{HOST_SPOILED_SHARE:.0%} of their CPUs' time (`/proc/stat`'s steal, in 10 ms ticks); they count "
            "towards no starvation, unfairness or cliff. Stalls the steal column does not see happen too "
            "(docs/findings/2026-11-29-stalls-on-a-vm.md): the controls below measure them")


def _chance(floor: StallFloor) -> str:
    if not floor.measured:
        return (f"no control was timed (the harness suite's loops), so {UNMEASURED_STALL_RATE:.0%} of any case's "
                "samples are taken to look starved or unfair by chance")
    unfair = (f", and below the fairness line in {floor.unfair.looked:,} of {floor.unfair.samples:,} within the CPUs"
              if floor.unfair.measured else "")
    return (f"the harness loops, which cannot starve, had a thread complete nothing in {floor.starved.looked:,} of "
            f"{fmt_count(floor.starved.samples, 'sample')}{unfair}: a variant is called starved or unfair only "
            "beyond that rate")


def machine_items(cpu_model: str, c: RunConditions, spoiled: int, samples: int, recorded: bool) -> tuple[str, ...]:
    """What the machine was while the run measured, one line each, for the box on the report's first screen: its
    CPU, whether it was busy, the samples the host spoiled (or that nothing says), and how often the run's own
    controls looked starved or unfair by chance (``c.floor``, the whole run's, that the report judges with)."""
    return (f"**Machine:** {cpu_model}, {fmt_count(c.logical_cpus, 'logical CPU')}; more threads than that "
            "oversubscribe it.",
            f"**Busy or free:** {_cpu_share(c)}.",
            f"**The host:** {_host(spoiled, samples, recorded)}.",
            f"**By chance:** {_chance(c.floor)}.")


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
