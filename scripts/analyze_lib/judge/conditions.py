"""Under what conditions a timing run was made, and what they allow a report to judge.

``run_conditions`` reads a loaded timing file's run settings (``--quick``, rounds, samples,
sample length, ``--filter``, ``--threads``) and its load average; ``RunConditions.busy``
says whether the machine was busy, and ``fairness_not_judged`` whether a thread that did
little can be blamed on the variant: only when every thread had a CPU to itself. Files older
than schema 3 record no run settings and no load: what they do not record is None, such a run
is not called busy, and its fairness is judged as before (threads within the CPUs).

The load average is recorded once, when the run started (``load_avg_1m``); nothing in the
file records it at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..files.model import ResultsFile

# Busy: a 1-minute load average at or above this many runnable threads per logical CPU when
# the run started, so other work competed for the cores. The same bar as bench's own warning
# (Swift NoiseCheck.loadWarning: at or above the logical CPUs).
BUSY_LOAD_PER_CPU = 1.0
# Fairness at T threads is judged only when the load average at the start left T CPUs free,
# give or take this much of one (a quiet machine's load is rarely 0): with fewer CPUs free, a
# thread that never ran in a sample waited for a CPU, which is not the variant's unfairness.
FAIRNESS_LOAD_SLACK = 0.5
OVERSUBSCRIBED_REASON = "more threads than CPUs"


@dataclass(frozen=True)
class RunConditions:
    """How one timing run was made: its settings as ``bench`` recorded them (None where the
    file's schema predates them), the thread counts and rounds its cases hold, and the load."""

    logical_cpus: int
    threads: tuple[int, ...]
    rounds: int
    quick: bool | None = None
    filter: str | None = None
    samples: int | None = None
    warmup: int | None = None
    sample_ns: int | None = None
    load_at_start: float | None = None

    @property
    def recorded(self) -> bool:
        """Whether the file records its run settings (schema 3 and later)."""
        return self.quick is not None

    @property
    def busy(self) -> bool:
        """Whether other work competed for the cores when the run started (False when the
        load is not recorded)."""
        return self.load_at_start is not None and self.load_at_start >= BUSY_LOAD_PER_CPU * self.logical_cpus

    @property
    def fairness_unjudged_threads(self) -> tuple[int, ...]:
        """The thread counts measured that fit the CPUs but at which the load left too few
        CPUs free to judge fairness."""
        return tuple(t for t in self.threads if 1 < t <= self.logical_cpus
                     and fairness_not_judged(t, self.logical_cpus, self.load_at_start) is not None)

    @property
    def narrowed(self) -> bool:
        """Whether the run was quick or filtered: its recommendations rest on fewer samples
        or fewer variants than a full run's."""
        return bool(self.quick) or bool(self.filter)


def run_conditions(results: ResultsFile) -> RunConditions:
    """The conditions of ``results``' run, from its run-level columns and its cases."""
    run = results.run
    cases = results.cases.values()
    return RunConditions(
        logical_cpus=results.logical_cpus,
        threads=tuple(sorted({c.key.threads for c in cases})),
        rounds=run.get("run_rounds") or max((c.round_count for c in cases), default=1),
        quick=run.get("run_quick"), filter=run.get("run_filter"), samples=run.get("run_samples"),
        warmup=run.get("run_warmup"), sample_ns=run.get("run_sample_ns"),
        load_at_start=run.get("load_avg_1m"))


def fairness_not_judged(threads: int, logical_cpus: int, load: float | None) -> str | None:
    """Why fairness cannot be judged at ``threads`` threads, or None when it can (or, at one
    thread, has nothing to judge). A thread that waited for a CPU, because there were more
    threads than CPUs or because other work held them (``load``, the load average when the
    run started; None when unknown, then judged), did little without the variant being unfair."""
    if threads <= 1:
        return None
    if threads > logical_cpus:
        return OVERSUBSCRIBED_REASON
    if load is not None and load + threads > logical_cpus + FAIRNESS_LOAD_SLACK:
        return f"the machine was busy: load {load:.2f} on {logical_cpus} CPUs"
    return None
