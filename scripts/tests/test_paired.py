"""Paired runs (bench-commits --paired) with fake_bench.py's worker: one fresh worker per build and
round, the cases in a seeded shuffled order, the builds alternating pair by pair (ABBA across pairs),
the sequential rule's seam, the time budget, the rows of both files, and interruption. Also the
sequential rule is tested on known inputs in test_paired_rule.py."""

from __future__ import annotations

import csv
import os
from collections import defaultdict
from pathlib import Path

import pytest

from analyze_lib.files.loader import load_results
from analyze_lib.judge import paired as paired_rule
from bench_commits import paired_plan
from bench_commits.errors import ComparisonError
from bench_commits.link_kit import shuffle_seed
from bench_commits.paired import SamplePlans, _Ratios
from bench_commits.sides import SIDE_A, SIDE_B
from bench_commits.round_binaries import round_binaries, round_binary_path
from bench_commits.worker import WorkerError, WorkerRefusal

from fake_bench import worker_cases
from test_bench_commits import commit, git, invocations, process_alive, results, run

FOUR_CASES = ("--", "--threads", "1,2")


def requests(repo: Path) -> list[dict]:
    """The requests the fake workers logged, in the order they came, each with its worker's side."""
    return [dict(entry["request"], worker=entry["worker"], cpus=entry["cpus"],
                 side=SIDE_A if entry["environment"].endswith("environment-a.json") else SIDE_B)
            for entry in invocations(repo) if "request" in entry]


def rows(path: Path) -> list[dict]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def timing_files(repo: Path) -> list[Path]:
    return [repo / "Results" / name for name in results(repo) if not name.startswith("counts-")]


def visits(log: list[dict]) -> list[tuple[int, str, list[dict]]]:
    """(round, case label, sample requests in order) for each case visit, from the log."""
    found, current = [], None
    for entry in log:
        if entry["request"] == "setup" and entry["side"] == SIDE_A:
            case = entry["case"]
            current = [None, f"{case['suite']}/{case['benchmark']}/{case['variant']} threads:{case['threads']}", []]
            found.append(current)
        elif entry["request"] == "sample":
            current[0] = entry["round"]
            current[2].append(entry)
    return [tuple(visit) for visit in found]


# The plan


def test_case_order_is_fixed_by_the_seed_and_differs_between_rounds():
    cases = list(range(20))
    assert paired_plan.case_order(cases, 7, 1) == paired_plan.case_order(cases, 7, 1)
    assert sorted(paired_plan.case_order(cases, 7, 2)) == cases
    assert paired_plan.case_order(cases, 7, 1) != paired_plan.case_order(cases, 7, 2)
    assert paired_plan.case_order(cases, 7, 1) != paired_plan.case_order(cases, 8, 1)


def test_first_sides_alternate_from_a_seeded_start():
    for label in ("harness/spin/loop threads:1", "once/hit/lock threads:4"):
        firsts = paired_plan.first_sides(3, 1, label, 6)
        assert firsts[1::2] == [paired_plan.other(firsts[0])] * 3 and firsts[0::2] == [firsts[0]] * 3
        assert paired_plan.first_sides(3, 1, label, 6) == firsts
    starts = {paired_plan.first_sides(3, round_number, "x", 1)[0] for round_number in range(1, 20)}
    assert starts == {SIDE_A, SIDE_B}, "the seed picks either side to start"


def test_the_budget_allows_a_further_visit_only_while_it_fits():
    assert paired_plan.budget_allows_visit(elapsed=90, budget=100, seconds_per_visit=10)
    assert not paired_plan.budget_allows_visit(elapsed=91, budget=100, seconds_per_visit=10)
    assert not paired_plan.budget_allows_visit(elapsed=0, budget=0, seconds_per_visit=1)


def test_the_worker_started_first_alternates_from_round_to_round():
    assert [paired_plan.start_order(r) for r in (1, 2, 3)] == [(SIDE_A, SIDE_B), (SIDE_B, SIDE_A), (SIDE_A, SIDE_B)]


def test_settings_defaults_and_overrides():
    quick = paired_plan.settings(True)
    assert (quick.rounds, quick.max_rounds, quick.visit_pairs, quick.sample_ns) == (
        paired_plan.QUICK_ROUNDS, paired_plan.QUICK_MAX_ROUNDS, paired_plan.QUICK_VISIT_PAIRS,
        int(paired_plan.DEFAULT_SAMPLE_MS * 1_000_000))
    chosen = paired_plan.settings(False, rounds=7, max_rounds=3, visit_pairs=30, sample_ms=0.5, budget_minutes=2)
    assert (chosen.rounds, chosen.max_rounds, chosen.visit_pairs, chosen.sample_ns, chosen.budget_seconds) == \
        (7, 7, 30, 500_000, 120.0), "max rounds never below rounds"


def test_one_thread_cases_get_one_cpu_in_turn_and_others_all_cpus():
    cpus = {0, 1, 2}
    assert [paired_plan.case_cpus(1, r, cpus, "same-cpu") for r in (1, 2, 3, 4)] == [{0}, {1}, {2}, {0}]
    assert paired_plan.case_cpus(2, 1, cpus, "same-cpu") == cpus
    assert paired_plan.case_cpus(1, 1, cpus, "free") == cpus
    assert paired_plan.case_cpus(1, 2, cpus, "pinned") == {1} and paired_plan.case_cpus(2, 1, cpus, "pinned") == cpus
    with pytest.raises(ComparisonError, match="unknown placement"):
        paired_plan.case_cpus(1, 1, cpus, "nowhere")


def test_pinned_teams_take_every_cpu_in_a_rotation_by_round():
    cpus = {0, 1, 2}
    assert [paired_plan.team_cpus(2, r, cpus, "pinned") for r in (1, 2, 3, 4)] == \
        [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]]
    assert paired_plan.team_cpus(1, 1, cpus, "pinned") is None, "a one-thread case is confined, not pinned"
    assert paired_plan.team_cpus(2, 1, cpus, "same-cpu") is None and paired_plan.team_cpus(8, 1, cpus, "free") is None


# The provisional sequential rule


def test_each_round_starts_one_fresh_worker_per_build(repo):
    base = git(repo, "rev-parse", "HEAD")
    head = commit(repo, "head", {"SPEED": "1.0\n"})
    assert run(repo, base, "HEAD", "--paired", "--rounds", "3", "--max-rounds", "3", "--visit-pairs", "2",
               "--no-count", "--seed", "11", *FOUR_CASES) in (0, 4)
    workers = [call for call in invocations(repo) if "argv" in call and "worker" in call["argv"]]
    assert len(workers) == 6
    for call in workers:
        argv = call["argv"]
        assert argv[-1] == "worker" and argv[:2] == ["--threads", "1,2"]
        assert argv[argv.index("--rounds") + 1] == "3" and argv[argv.index("--seed") + 1] == "11"
    assert sorted(call["commit"] for call in workers) == sorted([base] * 3 + [head] * 3)
    log = requests(repo)
    assert len({entry["worker"] for entry in log}) == 6, "fresh processes every round"
    by_worker = defaultdict(list)
    for entry in log:
        by_worker[entry["worker"]].append(entry["request"])
    for sequence in by_worker.values():
        assert sequence[-1] == "quit"
        assert sequence.count("setup") == sequence.count("teardown") == 4


def test_each_worker_runs_from_a_link_of_its_build_made_for_its_round_and_removed_after_it(repo):
    # HEAD against itself: one build, yet every worker a link of its own, its sections in an order of its own.
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "3", "--max-rounds", "3", "--no-count",
               "--seed", "11", *FOUR_CASES) in (0, 4)
    workers = [call for call in invocations(repo) if "argv" in call and "worker" in call["argv"]]
    programs = [Path(call["program"]) for call in workers]
    assert len(workers) == 6 and len(set(programs)) == 6, "a file of its own for each worker"
    built = {program.parent / "bench" for program in programs}
    assert len(built) == 1 and next(iter(built)).name == "bench", "each link lies beside the build"
    by_name = {round_binary_path(Path("bench"), side, round_number).name: shuffle_seed(11, round_number, side)
               for side in (SIDE_A, SIDE_B) for round_number in (1, 2, 3)}
    assert {Path(call["program"]).name: int(call["link"]) for call in workers} == by_name, \
        "each linked with the section order of its side and round"
    assert len(set(by_name.values())) == 6
    assert len({len(str(program)) for program in programs}) == 1, "paths of one length"
    assert not any(program.exists() for program in programs), "removed when the round ends"


def test_a_kept_build_is_linked_again_from_its_kept_objects(repo, capsys):
    for _ in range(2):
        assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "2", "--max-rounds", "2", "--no-count",
                   "--seed", "12", *FOUR_CASES) in (0, 4)
    assert "reused the build of base" in capsys.readouterr().err
    workers = [call for call in invocations(repo) if "argv" in call and "worker" in call["argv"]]
    # The second run's worktree has no objects (its build was restored, not made): the kept kit linked it.
    assert len(workers) == 8 and all(call["link"] for call in workers), "every round of both runs linked afresh"


@pytest.mark.parametrize("fault, why", [
    # A build that prints no link line (not SwiftPM's).
    ("FAKE_BUILD_NO_LINK_LINE", "no link line"),
    # A kit whose link fails: found by the one link tried before the rounds, not in round 1.
    ("FAKE_LINK_FAILS", "linking .bench-link-check failed"),
])
def test_a_build_without_a_kit_that_links_runs_from_copies_and_says_why(repo, monkeypatch, capsys, fault, why):
    monkeypatch.setenv(fault, "1")
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "3", "--max-rounds", "3", "--no-count",
               "--seed", "11", *FOUR_CASES) in (0, 4)
    workers = [call for call in invocations(repo) if "argv" in call and "worker" in call["argv"]]
    assert len({call["program"] for call in workers}) == 6 and {call["link"] for call in workers} == {""}
    assert f"from a copy of its build, not from a fresh link: {why}" in capsys.readouterr().err


def test_round_binaries_are_removed_when_the_round_fails(tmp_path):
    binary = tmp_path / "bench"
    binary.write_text("#!/bin/sh\n")
    with pytest.raises(RuntimeError):
        with round_binaries({SIDE_A: (binary, None), SIDE_B: (binary, None)}, 7, 11, tmp_path / "log") as made:
            assert made[SIDE_A] != made[SIDE_B] and all(path.read_text() == "#!/bin/sh\n" for path in made.values())
            raise RuntimeError("a worker died")
    assert [path.name for path in tmp_path.iterdir()] == ["bench"]


def test_rounds_visit_the_cases_in_the_seeded_order(repo):
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "3", "--max-rounds", "3", "--visit-pairs", "1",
               "--no-count", "--seed", "11", *FOUR_CASES) in (0, 4)
    log = requests(repo)
    cases = worker_cases(["--threads", "1,2"])  # as the fake workers list them
    for round_number in (1, 2, 3):
        expected = [f"{c['suite']}/{c['benchmark']}/{c['variant']} threads:{c['threads']}"
                    for c in paired_plan.case_order(cases, 11, round_number)]
        assert [label for r, label, _ in visits(log) if r == round_number] == expected


def test_pairs_alternate_abba_and_both_files_record_them(repo):
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "2", "--max-rounds", "2", "--visit-pairs", "3",
               "--no-count", "--seed", "5", *FOUR_CASES) in (0, 4)
    for round_number, label, samples in visits(requests(repo)):
        firsts = paired_plan.first_sides(5, round_number, label, 3)
        expected = []
        for pair, first in enumerate(firsts):
            expected += [(first, pair, "first"), (paired_plan.other(first), pair, "second")]
        assert [(s["side"], s["pair"], s["pair_order"]) for s in samples] == expected
        assert all(s["samples"] == 1 and s["warmup"] == paired_plan.WARMUP_SAMPLES and s["round"] == round_number
                   for s in samples)
    file_a, file_b = timing_files(repo)
    rows_a, rows_b = rows(file_a), rows(file_b)
    assert len(rows_a) == len(rows_b) == 2 * 4 * 3
    def key(row: dict) -> tuple:
        return row["round"], row["suite"], row["benchmark"], row["variant"], row["threads"], row["sample"]

    assert sorted(map(key, rows_a)) == sorted(map(key, rows_b))
    assert {row["round"] for row in rows_a} == {"1", "2"}
    assert {row["sample"] for row in rows_a} == {"0", "1", "2"}
    for a, b in zip(sorted(rows_a, key=key), sorted(rows_b, key=key)):
        assert a["pair"] == b["pair"] == a["sample"]
        assert {a["pair_order"], b["pair_order"]} == {"first", "second"}
        assert a["run_complete"] == b["run_complete"] == "true"
    for path in (file_a, file_b):
        assert load_results(path).incomplete is None


def setups_by_case(repo: Path) -> dict[str, list[dict]]:
    """Each case's setup requests, in order."""
    found = defaultdict(list)
    for entry in requests(repo):
        if entry["request"] == "setup":
            found["/".join(entry["case"].values())].append(entry)
    return found


def test_the_first_worker_to_set_a_case_up_calibrates_it_for_every_later_setup(repo):
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "3", "--max-rounds", "3", "--visit-pairs", "1",
               "--no-count", "--seed", "7", *FOUR_CASES) in (0, 4)
    setups = setups_by_case(repo)
    assert len(setups) == 4
    first_sides = set()
    for entries in setups.values():
        assert len(entries) == 3 * 2
        first, later = entries[0], entries[1:]
        first_sides.add(first["side"])
        assert "plan" not in first
        # The fake's calibrated plan is its pid: that of the worker that set the case up first.
        assert all(entry["plan"] == {"lockstep": {"iterations": first["worker"]}} for entry in later)
    assert first_sides == {SIDE_A, SIDE_B}, "which side calibrates follows the seeded setup order"


@pytest.mark.parametrize("starves", [True, False])
def test_the_other_build_checks_the_plan_once_and_a_plan_it_changes_is_both_builds(repo, starves):
    base = git(repo, "rev-parse", "HEAD")
    commit(repo, "head", {"STARVES" if starves else "NOTES": "1\n"})
    assert run(repo, base, "HEAD", "--paired", "--rounds", "3", "--max-rounds", "3", "--visit-pairs", "1",
               "--no-count", "--seed", "7", *FOUR_CASES) in (0, 4)
    setups = setups_by_case(repo)
    assert {entries[0]["side"] for entries in setups.values()} == {SIDE_A, SIDE_B}, "each side calibrates a case"
    for label, entries in setups.items():
        first = entries[0]
        checks = [entry for entry in entries if entry.get("check_plan")]
        # The side that did not calibrate checks once, at its first setup; the calibrating side never does.
        assert len(checks) == 1 and checks[0]["side"] != first["side"] and checks[0] is entries[1], label
        changed = starves and first["side"] == SIDE_A  # only the head starves, and only a plan it did not make
        later = entries[2:]
        if changed:
            # The base, set up with its own plan before the head's check, is set up again with batches of one.
            assert len(entries) == 3 * 2 + 1, label
            assert later[0]["side"] == first["side"] and "check_plan" not in later[0]
        else:
            assert len(entries) == 3 * 2, label
        ones = {"timed": {"batches": [1] * int(first["case"]["threads"]), "window": 100_000_000}}
        expected = ones if changed else checks[0]["plan"]
        assert all(entry["plan"] == expected for entry in later), label


def test_a_build_that_refuses_plans_calibrates_its_own(repo):
    base = git(repo, "rev-parse", "HEAD")
    commit(repo, "head", {"NO_PLANS": "1\n"})
    assert run(repo, base, "HEAD", "--paired", "--rounds", "2", "--max-rounds", "2", "--visit-pairs", "1",
               "--no-count", "--seed", "7", *FOUR_CASES) in (0, 4)
    for entries in setups_by_case(repo).values():
        old = [entry for entry in entries if entry["side"] == SIDE_B]
        # Each of B's setups after A's plan is known: refused with the plan, then taken without.
        plain = [entry for entry in old if "plan" not in entry]
        assert len(plain) == 2
        new = [entry for entry in entries if entry["side"] == SIDE_A]
        assert ["plan" in entry for entry in new] == [False, True], "the new build calibrates once, and keeps its plan"
    assert len(timing_files(repo)) == 2
    for path in timing_files(repo):
        assert len(rows(path)) == 2 * 4


class _PlanStub:
    """A worker that answers a setup without a plan, and fails one with a plan as it is told."""

    can_check_plan = False

    def __init__(self, failure: Exception):
        self.failure, self.asked = failure, []

    def request(self, request: dict) -> dict:
        self.asked.append("plan" in request)
        if "plan" in request:
            raise self.failure
        return {"ok": "setup", "plan": {"lockstep": {"iterations": 3}}}


def test_a_refused_plan_is_set_up_without_one_and_a_failed_worker_is_not_asked_again():
    case = worker_cases(["--threads", "1"])[0]
    plans = SamplePlans()
    plans.set_up(_PlanStub(WorkerRefusal("x")), case, 8_000_000, side=SIDE_A)  # calibrates: the plan is now known
    refusing = _PlanStub(WorkerRefusal("refused"))
    plans.set_up(refusing, case, 8_000_000, side=SIDE_B)
    assert refusing.asked == [True, False]
    dead = _PlanStub(WorkerError("ended"))
    with pytest.raises(WorkerError, match="ended"):
        plans.set_up(dead, case, 8_000_000, side=SIDE_B)
    assert dead.asked == [True], "a worker that died or hung is out of step: no second request"


def test_further_rounds_visit_only_the_cases_the_rule_finds_coarse(repo, monkeypatch):
    asked = []

    def refinement(log_ratios_by_round, **_):
        asked.append([len(r) for r in log_ratios_by_round])
        return paired_rule.Refinement(1.10, max(4 - len(log_ratios_by_round), 0))

    monkeypatch.setattr(paired_rule, "refinement", refinement)
    # --all: HEAD against itself runs the same code, whose comparison would time only its first rounds.
    assert run(repo, "HEAD", "HEAD", "--paired", "--all", "--rounds", "2", "--max-rounds", "9", "--visit-pairs", "2",
               "--no-count", "--seed", "5", "--", "--filter", "^harness/spin", "--threads", "1") in (0, 4)
    assert [(round_number, len(samples) // 2) for round_number, _, samples in visits(requests(repo))] == \
        [(1, 2), (2, 2), (3, 2), (4, 2)]
    assert asked == [[2, 2], [2, 2, 2], [2, 2, 2, 2]], "asked before each further round, with each round's ratios"


def test_a_case_is_projected_again_only_once_it_has_new_ratios(monkeypatch):
    asked = []
    monkeypatch.setattr(paired_rule, "refinement",
                        lambda rounds, **_: asked.append(len(rounds)) or paired_rule.Refinement(1.10, len(rounds)))
    ratios = _Ratios()
    record = {"params": "", "ns_per_op": "10", "elapsed_ns": "8000000"}
    ratios.add(("spin",), 0, [record], [record])
    assert ratios.refinement(("spin",), 500, 40) == ratios.refinement(("spin",), 500, 40) == (1.10, 1)
    assert asked == [1], "the second question reads the kept answer"
    ratios.add(("spin",), 1, [record], [record])
    assert ratios.refinement(("spin",), 500, 40).rounds == 2 and asked == [1, 2], "new ratios are projected again"


def test_a_case_of_several_roles_works_toward_the_coarsest_goal_any_role_can_reach(monkeypatch):
    by_role = {1: paired_rule.Refinement(1.05, 3), 2: paired_rule.Refinement(1.10, 8),
               3: paired_rule.Refinement(2.0, None)}
    monkeypatch.setattr(paired_rule, "refinement", lambda rounds, **_: by_role[len(rounds[0])])

    def case_refinement():
        ratios = _Ratios()
        ratios.by_case[("roles",)] = {f"role={n}": [[0.0] * n] for n in by_role}
        return ratios.refinement(("roles",), 500, 40)

    assert case_refinement() == (1.10, 8), "the role that cannot reach 2x is not waited for"
    by_role[2] = paired_rule.Refinement(None, 0)
    assert case_refinement() == (1.05, 3)
    by_role[1] = paired_rule.Refinement(None, 0)
    assert case_refinement() == (2.0, None), "no role can reach its goal"
    by_role[3] = paired_rule.Refinement(None, 0)
    assert case_refinement() == (None, 0)


def test_further_rounds_stop_at_the_maximum_and_at_the_budget(repo, monkeypatch):
    monkeypatch.setattr(paired_rule, "refinement", lambda rounds, **_: paired_rule.Refinement(1.10, 1))
    spin = ("--no-count", "--", "--filter", "^harness/spin", "--threads", "1")
    assert run(repo, "HEAD", "HEAD", "--paired", "--all", "--rounds", "1", "--max-rounds", "3", *spin) in (0, 4)
    assert [round_number for round_number, _, _ in visits(requests(repo))] == [1, 2, 3]
    (repo.parent / "bench.log").unlink()
    assert run(repo, "HEAD", "HEAD", "--paired", "--all", "--rounds", "2", "--max-rounds", "5", "--budget", "0",
               *spin) in (0, 4)
    assert [round_number for round_number, _, _ in visits(requests(repo))] == [1, 2], "the first rounds run whole"


def test_further_rounds_visit_the_cases_the_plan_picks_with_their_costs(repo, monkeypatch):
    picked = []

    def cases_to_visit(wanted, seconds_per_visit, budget_left):
        picked.append((dict(wanted), dict(seconds_per_visit), budget_left))
        return [next(iter(wanted))]

    monkeypatch.setattr(paired_rule, "refinement", lambda rounds, **_: paired_rule.Refinement(1.10, 1))
    monkeypatch.setattr(paired_plan, "cases_to_visit", cases_to_visit)
    assert run(repo, "HEAD", "HEAD", "--paired", "--all", "--rounds", "2", "--max-rounds", "3", "--no-count",
               *FOUR_CASES) in (0, 4)
    wanted, seconds, budget = picked[0]
    assert len(wanted) == 4 and set(wanted.values()) == {(1.10, 1)}
    assert set(seconds) == set(wanted) and all(value > 0 for value in seconds.values())
    assert 0 < budget <= paired_plan.DEFAULT_BUDGET_MINUTES * 60
    third = [label for round_number, label, _ in visits(requests(repo)) if round_number == 3]
    assert len(third) == 1, "only the case the plan picked"


def goals(**cases):
    return {case: paired_rule.Refinement(*wanted) for case, wanted in cases.items()}


def test_the_cheapest_goals_are_visited_first_within_the_budget():
    wanted = goals(a=(1.10, 10), b=(1.10, 2), c=(1.10, None), d=(None, 0), e=(1.10, 3))
    seconds = {"a": 1.0, "b": 1.0, "c": 0.1, "d": 0.1, "e": 1.0}
    assert paired_plan.cases_to_visit(wanted, seconds, budget_left=5.0) == ["b", "e"]
    assert paired_plan.cases_to_visit(wanted, seconds, budget_left=4.9) == ["b"]
    assert paired_plan.cases_to_visit(wanted, seconds, budget_left=15.0) == ["a", "b", "e"]


def test_the_coarsest_goal_is_visited_first_even_when_it_costs_more():
    """A case working toward 1.10x is taken before one refining 1.05x to 1.03x, however cheap that is; the
    same costs toward one goal (the test above) go cheapest first."""
    wanted = goals(fine=(1.03, 1), coarse=(1.10, 4), doubling=(2.0, 3))
    seconds = {"fine": 1.0, "coarse": 1.0, "doubling": 1.0}
    assert paired_plan.cases_to_visit(wanted, seconds, budget_left=7.0) == ["coarse", "doubling"]
    assert paired_plan.cases_to_visit(wanted, seconds, budget_left=4.0) == ["fine", "doubling"], \
        "a goal that does not fit leaves the budget to the next"
    assert paired_plan.cases_to_visit(wanted, seconds, budget_left=8.0) == ["fine", "coarse", "doubling"]


def test_when_no_goal_fits_every_unfinished_case_is_visited():
    """The negative control: a budget too small for any goal still spends what is left on all of them."""
    wanted = goals(a=(1.10, 10), b=(2.0, None), c=(None, 0))
    assert paired_plan.cases_to_visit(wanted, {"a": 1.0, "b": 1.0, "c": 1.0}, budget_left=5.0) == ["a", "b"]
    assert paired_plan.cases_to_visit(goals(c=(None, 0)), {"c": 1.0}, budget_left=5.0) == []


def test_the_gate_is_judged_at_the_alpha_asked_for(repo, capsys):
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "2", "--max-rounds", "2", "--no-count",
               "--alpha", "0.001", *FOUR_CASES) in (0, 4)
    out = capsys.readouterr().out
    assert "gated at alpha 0.001" in out and "Holm's procedure over all paired cases at 0.001" in out
    # The negative control: by default the gate's own alpha, which the shape does not repeat.
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "2", "--max-rounds", "2", "--no-count",
               *FOUR_CASES) in (0, 4)
    out = capsys.readouterr().out
    assert "gated at alpha" not in out and "Holm's procedure over all paired cases at 0.01 " in out


def test_the_report_names_the_paired_shape(repo, capsys):
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "2", "--max-rounds", "2", "--visit-pairs", "2",
               "--sample-time", "0.5", "--no-count", "--seed", "5", *FOUR_CASES) in (0, 4)
    out = capsys.readouterr().out
    assert ("paired: 2–2 rounds of worker pairs, 2 pair(s) a case and round, samples of 0.5 ms, placement pinned, "
            "seed 5") in out
    assert {entry["sample_ns"] for entry in requests(repo) if entry["request"] == "setup"} == {500_000}


@pytest.mark.parametrize("placement", ["same-cpu", "free"])
def test_both_workers_measure_a_one_thread_case_on_the_same_cpu(repo, placement):
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "2", "--max-rounds", "2", "--no-count",
               "--placement", placement, *FOUR_CASES) in (0, 4)
    allowed = sorted(os.sched_getaffinity(0))
    setups = [entry for entry in requests(repo) if entry["request"] == "setup"]
    one_thread = {entry["round_cpus"] for entry in _with_round(setups) if entry["case"]["threads"] == "1"}
    several = {tuple(entry["cpus"]) for entry in setups if entry["case"]["threads"] != "1"}
    assert several == {tuple(allowed)}, "cases of more threads run free"
    if placement == "free":
        assert one_thread == {(1, tuple(allowed)), (2, tuple(allowed))}
    else:
        expected = {(1, (allowed[0],)), (2, (allowed[1 % len(allowed)],))}
        assert one_thread == expected, "one CPU, the same for both workers, in turn by round"


def test_pinned_gives_both_workers_the_same_team_cpus_and_a_one_thread_case_one_cpu(repo):
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "2", "--max-rounds", "2", "--no-count",
               "--placement", "pinned", *FOUR_CASES) in (0, 4)
    allowed = sorted(os.sched_getaffinity(0))
    setups = _with_round([entry for entry in requests(repo) if entry["request"] == "setup"])
    several = {(entry["round_cpus"][0], entry["side"], tuple(entry["team_cpus"]))
               for entry in setups if entry["case"]["threads"] != "1"}
    rotated = allowed[1:] + allowed[:1]
    assert several == {(1, SIDE_A, tuple(allowed)), (1, SIDE_B, tuple(allowed)),
                       (2, SIDE_A, tuple(rotated)), (2, SIDE_B, tuple(rotated))}
    one_thread = [entry for entry in setups if entry["case"]["threads"] == "1"]
    assert one_thread and all("team_cpus" not in entry and len(entry["cpus"]) == 1 for entry in one_thread)


def test_pinned_against_a_build_that_cannot_pin_places_both_as_same_cpu(repo, capsys):
    base = git(repo, "rev-parse", "HEAD")
    commit(repo, "head", {"NO_PLANS": "1\n"})
    assert run(repo, base, "HEAD", "--paired", "--rounds", "2", "--max-rounds", "2", "--no-count",
               "--placement", "pinned", *FOUR_CASES) in (0, 4)
    assert "cannot pin its threads (protocol 1): placement same-cpu for this comparison" in capsys.readouterr().err
    setups = [entry for entry in requests(repo) if entry["request"] == "setup"]
    assert setups and not any("team_cpus" in entry for entry in setups), "neither build pins: they place alike"
    assert len(timing_files(repo)) == 2


def _with_round(setups: list[dict]) -> list[dict]:
    """Each setup with (its round, its CPUs): the round counted by the fresh workers, two a round."""
    workers = list(dict.fromkeys(entry["worker"] for entry in setups))
    return [dict(entry, round_cpus=(workers.index(entry["worker"]) // 2 + 1, tuple(entry["cpus"])))
            for entry in setups]


# Interruption and failure


def test_an_interrupted_run_keeps_whole_cases_in_both_files_and_ends_its_workers(repo, monkeypatch):
    # A worker's 5th sample request comes in the 3rd case visit of round 1 (2 pairs a visit): the first two
    # visits are whole in both files, the third in neither.
    monkeypatch.setenv("FAKE_WORKER_SIGNAL_AFTER", "5")
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "2", "--max-rounds", "2", "--visit-pairs", "2",
               "--no-count", "--seed", "5", *FOUR_CASES) == 143
    file_a, file_b = timing_files(repo)
    rows_a, rows_b = rows(file_a), rows(file_b)
    assert len(rows_a) == len(rows_b) == 2 * 2
    assert {row["round"] for row in rows_a + rows_b} == {"1"}
    assert {row["run_complete"] for row in rows_a + rows_b} == {"false"}
    assert load_results(file_a).incomplete and load_results(file_b).incomplete
    workers = {entry["worker"] for entry in requests(repo)}
    assert len(workers) == 4 - 2, "round 2 never started"
    assert not any(process_alive(pid) for pid in workers)
    assert len(git(repo, "worktree", "list").splitlines()) == 1


def test_a_worker_that_dies_is_a_failure_naming_its_side(repo, monkeypatch, capsys):
    monkeypatch.setenv("FAKE_WORKER_DIE_AFTER", "3")
    assert run(repo, "HEAD", "HEAD", "--paired", "--rounds", "1", "--no-count", *FOUR_CASES) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "the worker of" in err and "ended (exit 3)" in err and "fake worker: dying as asked" in err


# Options


@pytest.mark.parametrize("argv, message", [
    (("--abba", "--rounds", "3"), "--rounds goes with paired runs, not --abba"),
    (("--abba", "--sample-time", "8"), "--sample-time goes with paired runs, not --abba"),
    (("--abba", "--placement", "free"), "--placement goes with paired runs, not --abba"),
    (("--paired", "--abba"), "--paired and --abba are two ways to compare"),
    (("--paired", "--placement", "nowhere"), "invalid choice: 'nowhere'"),
    (("--pairs", "3"), "--pairs counts whole rounds a side, with --abba; paired runs take --rounds"),
    (("--paired", "--", "--sample-time", "3"), "--sample-time is set by bench-commits --paired"),
    (("--paired", "--", "--samples", "3"), "--samples is set by bench-commits --paired"),
    (("--paired", "--alpha", "1"), "must be between 0 and 1: '1'"),
])
def test_paired_options_are_checked(repo, capsys, argv, message):
    assert run(repo, "HEAD", "HEAD", *argv) == 2
    assert message in capsys.readouterr().err
    assert invocations(repo) == []


def test_the_gate_check_runs_its_comparisons_paired(repo, capsys):
    assert run(repo, "--check-gate", "--paired", "--rounds", "1", "--max-rounds", "1", "--visit-pairs", "1",
               "--seed", "3", "--", "--filter", "^harness/spin", "--threads", "1") in (0, 1)
    workers = [call["argv"] for call in invocations(repo) if "argv" in call]
    assert len(workers) == 3 * 2 and all(argv[-1] == "worker" for argv in workers)
    scales = sorted(argv[argv.index("--spin-scale") + 1] for argv in workers if "--spin-scale" in argv)
    assert scales == ["1.00", "1.00", "1.10", "1.25"]
    out, err = capsys.readouterr()
    assert "Three comparisons, each paired: 1–1 rounds of worker pairs" in out
    assert "seed 3; three comparisons, each paired: 1–1 rounds" in err and "None" not in err
    assert len(timing_files(repo)) == 6


def test_a_quick_paired_gate_check_plants_three_and_one_and_a_quarter(repo, capsys):
    assert run(repo, "--check-gate", "--quick", "--paired", "--rounds", "1", "--max-rounds", "1", "--seed", "3",
               "--", "--filter", "^harness/spin", "--threads", "1") in (0, 1)
    workers = [call["argv"] for call in invocations(repo) if "argv" in call]
    scales = sorted(argv[argv.index("--spin-scale") + 1] for argv in workers if "--spin-scale" in argv)
    assert scales == ["1.00", "1.00", "1.25", "3.00"]
    assert "spin ×3" in capsys.readouterr().out


def test_a_planted_check_runs_only_the_planted_comparison(repo, capsys):
    assert run(repo, "--check-gate", "--paired", "--plant", "1.05", "--rounds", "1", "--max-rounds", "1",
               "--seed", "3", "--", "--filter", "^harness/spin", "--threads", "1") in (0, 1)
    workers = [call["argv"] for call in invocations(repo) if "argv" in call]
    assert len(workers) == 2
    assert sorted(argv[argv.index("--spin-scale") + 1] for argv in workers) == ["1.00", "1.05"]
    out, err = capsys.readouterr()
    assert "One comparison, paired" in out and "| spin ×1.05 |" in out and "A/A" not in out
    assert len(timing_files(repo)) == 2


@pytest.mark.parametrize("argv, message", [
    (("HEAD", "HEAD", "--plant", "1.10"), "--plant goes with --check-gate"),
    (("--check-gate", "--plant", "1"), "a slowdown factor above 1"),
    (("--check-gate", "--plant", "0.9"), "a slowdown factor above 1"),
])
def test_plant_is_checked(repo, capsys, argv, message):
    assert run(repo, *argv) == 2
    assert message in capsys.readouterr().err
    assert invocations(repo) == []


def test_paired_is_the_default(repo):
    assert run(repo, "HEAD", "HEAD", "--no-count", "--rounds", "1", "--max-rounds", "1", "--visit-pairs", "1",
               "--", "--filter", "^harness/spin") in (0, 4)
    launched = [call["argv"] for call in invocations(repo) if "argv" in call]
    assert launched and all("worker" in argv for argv in launched)
