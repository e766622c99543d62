"""A paired run (``--paired``): per round, one fresh ``bench worker`` per build, each started from a binary of
its build linked for that round (round_binaries: what a layout keeps stays out of the evidence); each case visited set
up on both and sampled pair by pair, the builds alternating (paired_plan). The first rounds visit every
case; further rounds visit the cases still coarser than the sequential rule's goals
(analyze_lib.judge.paired.refinement), those working toward the coarsest goal first, cheapest first among
them (paired_plan.cases_to_visit), while the time budget allows. Before each visit both workers are
confined to the case's CPUs (paired_plan.case_cpus: one CPU, the same for both, for a one-thread
case). The first worker to set a case up calibrates it; every later setup of the case, on either
build, is given that plan (``SamplePlans``). Both builds' rows go to their own CSV, written as each case
of a round completes (both files together, signals held off in between), so an interrupted run keeps
whole cases in both; only when the whole comparison has completed are the files marked complete
(``run_complete``). bench's ResultsWriter writes every byte of both files, through the workers (``ResultsFile``).
"""

from __future__ import annotations

import os
import signal
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from analyze_lib.files.schema import CASE_COLUMNS, RUN_COMPLETE
from analyze_lib.judge import paired as paired_rule

from . import paired_plan
from .errors import ComparisonError
from .link_kit import LinkError
from .sides import SIDE_A, SIDE_B
from .round_binaries import round_binaries
from .worker import Worker, WorkerError, WorkerRefusal

METRIC = "ns_per_op"
# How many cases of a round pass between two progress lines.
PROGRESS_EVERY = 100
# Signals held off while a case's rows go to the two files, so that both or neither get them.
HELD_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def case_key(case: dict) -> tuple[str, ...]:
    return tuple(case[column] for column in CASE_COLUMNS)


def case_label(case: dict) -> str:
    params = f" {case['params']}" if case["params"] else ""
    return f"{case['suite']}/{case['benchmark']}/{case['variant']} threads:{case['threads']}{params}"


class ResultsFile:
    """One build's CSV of a paired run: the header its worker gave, then whole cases of rows. Nothing here
    encodes a row: each case's text is what a worker's ``encode`` replied (bench's ResultsWriter.caseText),
    appended byte for byte, and ``run_complete`` is rewritten by a worker's ``complete``
    (ResultsWriter.markRunComplete), so the file is bench's writer's alone."""

    def __init__(self, path: Path):
        self.path = path
        self.columns: list[str] | None = None
        self.rows_written = 0
        self._has_header = False

    def encode(self, encoder: Worker, columns: list[str], records: list[dict]) -> bytes:
        """One case's text for this file, from ``encoder`` (a worker that can write): ``records`` in
        ``columns``' order, after the header when the file has none yet. ``columns`` must be the header of
        the earlier rounds' workers; a worker refuses records without exactly those columns."""
        if self.columns is None:
            self.columns = columns
        elif columns != self.columns:
            raise ComparisonError(f"the workers writing {self.path} gave different headers between rounds")
        return encoder.encode(columns, records, header=not self._has_header)

    def append(self, text: bytes, rows: int) -> None:
        """Append ``text`` (of ``rows`` rows), as ``encode`` gave it, unchanged."""
        with open(self.path, "ab") as handle:
            handle.write(text)
        self._has_header = self._has_header or bool(text)
        self.rows_written += rows

    @property
    def can_be_marked(self) -> bool:
        """Whether the file has rows and its schema a run_complete column to mark."""
        return self.rows_written > 0 and RUN_COMPLETE in (self.columns or [])


def writer_for(workers: dict[str, Worker], name: str) -> Worker:
    """The worker that encodes side ``name``'s rows: its own, or, for a build from before protocol 3, the other
    side's. ComparisonError when neither can write (compare such builds with --abba)."""
    for candidate in (name, paired_plan.other(name)):
        if workers[candidate].can_write:
            return workers[candidate]
    raise ComparisonError("neither build's worker can write results (protocol 3, bench worker's encode and "
                          "complete): builds this old compare with --abba")


@dataclass
class _Ratios:
    """Each case's log ratios (B over A) per round, per role (params), for the sequential rule."""

    by_case: dict = field(default_factory=dict)
    _wanted: dict = field(default_factory=dict)

    def add(self, key: tuple, round_index: int, records_a: list[dict], records_b: list[dict]) -> None:
        roles = self.by_case.setdefault(key, {})
        for a, b in zip(sorted(records_a, key=lambda r: r["params"]), sorted(records_b, key=lambda r: r["params"])):
            rounds = roles.setdefault(a["params"], [])
            while len(rounds) <= round_index:
                rounds.append([])
            rounds[round_index].append(paired_rule.pair_log_ratio(_pair_sample(a), _pair_sample(b)))
        self._wanted.pop(key, None)

    def refinement(self, key: tuple, cases: int, max_rounds: int) -> paired_rule.Refinement:
        """The case's next goal and the rounds it wants (paired_rule.refinement), over its roles: the coarsest
        goal of the roles that can reach theirs, and the most rounds any of them wants; rounds 0 when every
        role has reached the finest, None when none that has not can reach its goal within
        ``max_rounds``. Kept until the case gets new ratios, since each answer resamples the case's
        rounds."""
        cached = self._wanted.get(key)
        if cached is None or cached[0] != (cases, max_rounds):
            cached = (cases, max_rounds), self._project(key, cases, max_rounds)
            self._wanted[key] = cached
        return cached[1]

    def _project(self, key: tuple, cases: int, max_rounds: int) -> paired_rule.Refinement:
        roles = self.by_case.get(key, {})
        if not roles:
            return paired_rule.refinement([], cases=cases, max_rounds=max_rounds)
        wanted = [paired_rule.refinement(rounds, cases=cases, max_rounds=max_rounds) for rounds in roles.values()]
        # A role with rounds to go has a goal (Refinement: goal is None only once rounds is 0).
        reachable = [(role.goal, role.rounds) for role in wanted if role.goal is not None and role.rounds]
        if reachable:
            return paired_rule.Refinement(max(goal for goal, _ in reachable), max(rounds for _, rounds in reachable))
        if all(role.rounds == 0 for role in wanted):
            return paired_rule.Refinement(None, 0)
        return paired_rule.Refinement(max(role.goal for role in wanted if role.goal is not None), None)


class SamplePlans:
    """One sample plan (bench's ``CaseRunner.SamplePlan``, as the worker protocol carries it) per case, for
    both builds: the plan the first worker to set the case up calibrated (its setup reply), given in every
    later setup of the case, so that a visit does not spend most of its time calibrating again, and the two
    builds' samples of a case run the same iterations (or the same windows and batches) in every round: what
    differs in a pair is the code, not how long each side's calibration happened to make its samples. A
    worker that refuses the plan (a build from before plans, or whose case paces otherwise) calibrates its
    own, as does every worker while no plan is known (a first worker whose build gives none).

    The build that calibrated a plan found whether its batches starve one of its own threads; the other build's
    first setup with the plan checks that for its threads (``check_plan``, protocol 4), and where they starve it
    replies batches of one iteration (bench's ``CaseRunner.checked``), which become the case's plan from then
    on."""

    def __init__(self):
        self._plans: dict[tuple, dict] = {}
        # (case key, side) of each side that calibrated the case's plan or checked it.
        self._checked: set[tuple[tuple, str]] = set()

    def set_up(self, worker: Worker, case: dict, sample_ns: int, team_cpus: list[int] | None = None, *,
               side: str) -> bool:
        """Sets ``case`` up on ``worker`` (of build ``side``, which checks the plan on its first setup). True when
        its check changed the case's plan: a worker set up with the plan before must be set up again."""
        key = case_key(case)
        request = {"request": "setup", "case": case, "sample_ns": sample_ns,
                   **({"team_cpus": team_cpus} if team_cpus is not None else {})}
        plan = self._plans.get(key)
        if plan is not None:
            check = worker.can_check_plan and (key, side) not in self._checked
            try:
                reply = worker.request({**request, "plan": plan, **({"check_plan": True} if check else {})})
            except WorkerRefusal:
                pass  # the worker goes on, with nothing set up: calibrate instead
            else:
                if not check:
                    return False
                self._checked.add((key, side))
                changed = reply.get("plan", plan) != plan
                if changed:
                    self._plans[key] = reply["plan"]
                return changed
        reply = worker.request(request)
        if "plan" in reply and key not in self._plans:
            self._plans[key] = reply["plan"]
            self._checked.add((key, side))
        return False


def _pair_sample(record: dict) -> paired_rule.PairSample:
    return paired_rule.PairSample(float(record[METRIC]), float(record["elapsed_ns"]))


def common_cases(listed_a: list[dict], listed_b: list[dict]) -> tuple[list[dict], list[dict], list[dict]]:
    """The cases both builds have (in A's order), those only A has, those only B has."""
    keys_a, keys_b = {case_key(c) for c in listed_a}, {case_key(c) for c in listed_b}
    return ([c for c in listed_a if case_key(c) in keys_b], [c for c in listed_a if case_key(c) not in keys_b],
            [c for c in listed_b if case_key(c) not in keys_a])


def _write_both(files: dict, workers: dict, records: dict) -> None:
    """Both sides' rows of one case, encoded by the workers first, then appended to both files with signals held
    off between the two writes, so that both files get the case or neither does."""
    texts = {name: files[name].encode(writer_for(workers, name), workers[name].columns, records[name])
             for name in (SIDE_A, SIDE_B)}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    try:
        for name in (SIDE_A, SIDE_B):
            files[name].append(texts[name], len(records[name]))
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def run_paired(sides: dict, bench_options: list[str], quick: bool, settings: paired_plan.PairedSettings, seed: int,
               logs: Path, say, elapsed_text, control: bool = False) -> dict[str, ResultsFile]:
    """Measure every case both builds have, paired (``control``: the same-code control, whose few rounds are meant to
    call no case, so no warning says so): ``settings.rounds`` rounds visit every case, then
    further rounds, up to ``settings.max_rounds``, visit the cases still coarser than the sequential
    rule's target that ``paired_plan.cases_to_visit`` picks, coarsest goal first, then cheapest, while the
    time budget lasts. Return the two files, marked complete by the last round's workers. An interruption
    (KeyboardInterrupt, Interrupted) or a failure ends the workers and leaves the files with their
    whole cases, not marked complete."""
    if settings.max_rounds < paired_rule.MIN_CALL_ROUNDS and not control:
        say(f"warning: at most {settings.max_rounds} round(s): a paired case calls a change only from "
            f"{paired_rule.MIN_CALL_ROUNDS}, so this comparison can call none")
    started = time.monotonic()
    files = {name: ResultsFile(side.output) for name, side in sides.items()}
    ratios = _Ratios()
    plans = SamplePlans()
    cases: list[dict] | None = None
    visit_seconds: list[float] = []
    seconds_by_case: dict[tuple, list[float]] = {}
    for round_number in range(1, settings.max_rounds + 1):
        extra = round_number > settings.rounds
        with _round_workers(sides, bench_options, quick, settings, seed, logs, round_number) as workers:
            if cases is None:
                writer_for(workers, SIDE_A)  # builds that cannot write are refused before any case is measured
                settings = _placement_both_can(settings, workers, say)
                cases, only_a, only_b = common_cases(workers[SIDE_A].list_cases(), workers[SIDE_B].list_cases())
                for which, missing in ((sides[SIDE_A].label, only_a), (sides[SIDE_B].label, only_b)):
                    if missing:
                        say(f"warning: {len(missing)} case(s) only in {which}, not compared: "
                            + ", ".join(case_label(c) for c in missing[:5]) + (" ..." if len(missing) > 5 else ""))
                if not cases:
                    raise ComparisonError("the two builds have no case in common to compare")
            visiting, unfinished = (_visiting(cases, ratios, seconds_by_case, settings, started) if extra
                                    else (cases, len(cases)))
            if not visiting:
                say(f"round {round_number}: every case resolves {paired_rule.TARGET_RESOLUTION:g}x or finer")
                _mark_complete(files, workers)  # while this round's workers run: they write the files
                break
            order = paired_plan.case_order(visiting, seed, round_number)
            which = (f"{round_number}/{settings.max_rounds}: visiting {len(order)} of the {unfinished} cases still "
                     f"coarser than {paired_rule.TARGET_RESOLUTION:g}x (those the budget allows), coarsest goal first"
                     if extra
                     else f"{round_number}/{settings.rounds}: {len(order)} cases")
            say(f"round {which}, workers {workers[SIDE_A].pid} and {workers[SIDE_B].pid}, "
                f"elapsed {elapsed_text(time.monotonic() - started)}")
            for index, case in enumerate(order):
                if extra and not _budget_allows(started, settings, visit_seconds):
                    break
                began = time.monotonic()
                _visit(case, round_number, workers, files, ratios, plans, settings, seed)
                visit_seconds.append(time.monotonic() - began)
                seconds_by_case.setdefault(case_key(case), []).append(visit_seconds[-1])
                if (index + 1) % PROGRESS_EVERY == 0:
                    say(f"round {round_number}: {index + 1} of {len(order)} cases, "
                        f"elapsed {elapsed_text(time.monotonic() - started)}")
            if _last_round(round_number, settings, started, visit_seconds, cases, ratios, say):
                _mark_complete(files, workers)
                break
    return files


def _last_round(round_number: int, settings: paired_plan.PairedSettings, started: float, visit_seconds: list[float],
                cases: list[dict], ratios: _Ratios, say) -> bool:
    """Whether round ``round_number``, just visited, is the comparison's last: the most rounds, or a further
    round the time budget no longer allows (which it says)."""
    if round_number == settings.max_rounds:
        return True
    if round_number + 1 <= settings.rounds or _budget_allows(started, settings, visit_seconds):
        return False
    still = _still_coarse(cases, ratios, settings.max_rounds)
    say(f"round {round_number + 1}: the time budget is spent; {still} case(s) still coarser than "
        f"{paired_rule.TARGET_RESOLUTION:g}x")
    return True


def _mark_complete(files: dict[str, ResultsFile], workers: dict[str, Worker]) -> None:
    """Mark both files complete, the whole comparison having completed: each by the worker that writes its
    side (``writer_for``), while the last round's workers are still running. A file with no rows, or of a
    schema without run_complete, stays as it is."""
    for name, file in files.items():
        if file.can_be_marked:
            writer_for(workers, name).complete(file.path)


@contextmanager
def _round_workers(sides: dict, bench_options: list[str], quick: bool, settings: paired_plan.PairedSettings,
                   seed: int, logs: Path, round_number: int) -> Iterator[dict[str, Worker]]:
    """This round's two workers, started in the round's order, each from a binary of its build made for the
    round (round_binaries). Leaving normally, both are asked to quit; leaving by an error or an interruption,
    both are killed. A worker's or a link's failure comes out as a ComparisonError naming its side."""
    builds = {name: (side.binary, side.link) for name, side in sides.items()}
    try:
        with round_binaries(builds, round_number, seed, logs / f"link-round{round_number}.log") as binaries:
            workers: dict[str, Worker] = {}
            try:
                for name in paired_plan.start_order(round_number):
                    side = sides[name]
                    argv = [str(binaries[name]), *paired_plan.worker_arguments(
                        [*bench_options, *side.extra_options], quick, settings.rounds, seed, side.environment)]
                    workers[name] = Worker(f"{name} ({side.label})", argv, side.worktree,
                                           logs / f"worker-round{round_number}-{name}.log")
                yield workers
                for name in (SIDE_A, SIDE_B):
                    workers.pop(name).quit()
            except WorkerError as error:
                raise ComparisonError(str(error)) from None
            finally:
                for worker in workers.values():
                    worker.kill()
    except LinkError as error:
        raise ComparisonError(f"round {round_number}: {error}") from None


def _placement_both_can(settings: paired_plan.PairedSettings, workers: dict[str, Worker],
                        say) -> paired_plan.PairedSettings:
    """``settings``, or under "pinned" with a worker that cannot pin its team (a build before protocol 2), the
    same with "same-cpu": both builds must place their threads alike, or the pairs compare placements."""
    unable = [worker.name for worker in workers.values() if not worker.can_pin_team]
    if settings.placement != "pinned" or not unable:
        return settings
    say(f"warning: the worker of {', '.join(unable)} cannot pin its threads (protocol 1): placement same-cpu "
        "for this comparison, for both builds")
    return replace(settings, placement="same-cpu")


def _budget_allows(started: float, settings: paired_plan.PairedSettings, visit_seconds: list[float]) -> bool:
    per_visit = sum(visit_seconds) / len(visit_seconds) if visit_seconds else 0.0
    return paired_plan.budget_allows_visit(time.monotonic() - started, settings.budget_seconds, per_visit)


def _visiting(cases: list[dict], ratios: _Ratios, seconds_by_case: dict, settings: paired_plan.PairedSettings,
              started: float) -> tuple[list[dict], int]:
    """The cases a further round visits (paired_plan.cases_to_visit), in ``cases``' order, and how many
    cases are still coarser than the finest goal."""
    keys = [case_key(c) for c in cases]
    wanted = {key: ratios.refinement(key, len(cases), settings.max_rounds) for key in keys}
    seconds = {key: statistics.fmean(seconds_by_case.get(key, [0.0])) for key in keys}
    chosen = set(paired_plan.cases_to_visit(wanted, seconds, settings.budget_seconds - (time.monotonic() - started)))
    return [c for c, key in zip(cases, keys) if key in chosen], sum(w.rounds != 0 for w in wanted.values())


def _still_coarse(cases: list[dict] | None, ratios: _Ratios, max_rounds: int) -> int:
    cases = cases or []
    return sum(ratios.refinement(case_key(c), len(cases), max_rounds).rounds != 0 for c in cases)


def _visit(case: dict, round_number: int, workers: dict, files: dict, ratios: _Ratios, plans: SamplePlans,
           settings: paired_plan.PairedSettings, seed: int) -> None:
    """One case in one round: set up on both (with the case's plan, once known),
    ``settings.visit_pairs`` pairs, torn down, rows written."""
    key, label = case_key(case), case_label(case)
    threads, allowed = int(case["threads"]), os.sched_getaffinity(0)
    cpus = paired_plan.case_cpus(threads, round_number, allowed, settings.placement)
    team = paired_plan.team_cpus(threads, round_number, allowed, settings.placement)
    for worker in workers.values():
        worker.confine(cpus)
    firsts = paired_plan.first_sides(seed, round_number, label, settings.visit_pairs)
    # Set up in the order the first pair runs in, which the seed varies from case to case. When the second's check
    # changes the plan, the first is set up again with the new one, so that both sides run the same batches.
    first, second = firsts[0], paired_plan.other(firsts[0])
    plans.set_up(workers[first], case, settings.sample_ns, team, side=first)
    if plans.set_up(workers[second], case, settings.sample_ns, team, side=second):
        workers[first].request({"request": "teardown"})
        plans.set_up(workers[first], case, settings.sample_ns, team, side=first)
    records: dict[str, list[dict]] = {SIDE_A: [], SIDE_B: []}
    for pair, first in enumerate(firsts):
        pair_records = {}
        for name in (first, paired_plan.other(first)):
            pair_records[name] = workers[name].request({
                "request": "sample", "samples": 1, "warmup": settings.warmup, "round": round_number,
                "pair": pair, "pair_order": "first" if name == first else "second"})["records"]
            records[name] += pair_records[name]
        ratios.add(key, round_number - 1, pair_records[SIDE_A], pair_records[SIDE_B])
    for name in (SIDE_A, SIDE_B):
        workers[name].request({"request": "teardown"})
    _write_both(files, workers, records)
