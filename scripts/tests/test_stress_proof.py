"""The report never recommends what was not proven (issue 72): a variant whose stress checks made fewer trials than
their minimum, were abandoned or never ran is marked `not proven`, and while a proven variant can be used in a
situation it is never the Use, the Runner-up or a headline's variant to use instead; where none is proven the ranking
stands and the Use is marked. The issue's throttle (a package's check-then-increment race, 2 iterations of its
check) is the fixture; each test has its negative control, the same files with the variant proven. A variant a
package brought is named with its module in the headlines too, and a built-in one is not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyze_lib.cli import main
from analyze_lib.files.loader import load_stress
from analyze_lib.judge.stress import NO_STRESS_FILE, NO_TRIAL_COUNTS, NOT_IN_FILE, NOTHING_PROVEN, judge_proof
from csvgen import STRESS_MINIMUM, case, caught_control, outcome, write_results, write_stress

FIXTURES = Path(__file__).resolve().parent / "fixtures"
RUN = {"logical_cpus": "2", "run_threads": "1,2"}
HARNESS = {case("harness", "empty", "loop", t): 0.3 for t in (1, 2)}
RACY = "racy-throttle"
MODULE = "ThrottleKit"
# The package's racy throttle is the fastest in each of the 4 throttle situations (limit 1 and 8, work 0 and 1000,
# at 1 thread); operation-queue-limit next, semaphore-limit (a seed pattern) 2x that.
THROTTLES = {RACY: 50.0, "operation-queue-limit": 100.0, "semaphore-limit": 200.0}
CASES = {**HARNESS, **{case("wait", "throttle", variant, 1, f"limit={limit};tasks=256;work={work}"): ns
                       for variant, ns in THROTTLES.items() for limit in (1, 8) for work in (0, 1000)}}
CONTROL = caught_control("control/wait/throttle/check-then-increment/limit", threads=1,
                         forbidden="in-flight-above-limit", kind="racy", trials=500)


def _stress(racy_trials: int, abandoned: bool = False) -> list[dict]:
    """Every throttle's limit check at 1 and 2 threads, the racy throttle's with ``racy_trials`` trials (the
    issue's 2 iterations made 2) against the minimum, its module on its rows; with ``abandoned``, its check at 2
    threads abandoned by the watchdog."""
    rows = []
    for variant in THROTTLES:
        for threads in (1, 2):
            racy = variant == RACY
            row = outcome(f"wait/throttle/{variant}/limit", threads, "in-flight-within-limit",
                          iterations=2 if racy else 1000, trials=racy_trials if racy else 100000)
            rows.append({**row, "variant_origin": MODULE if racy else "built-in"})
    if abandoned:
        rows.append({**outcome(f"wait/throttle/{RACY}/limit", 2, "no-progress-suspected-deadlock", "forbidden",
                               count=1, iterations=2, trials=racy_trials), "variant_origin": MODULE})
    return rows + [CONTROL]


def _report(tmp_path, stress_rows: list | None, version: int = 4, name: str = "report") -> str:
    files = [str(write_results(tmp_path / "run.csv", CASES, version=6, run=RUN, origins={RACY: MODULE}))]
    if stress_rows is not None:
        files.append(str(write_stress(tmp_path / f"{name}.csv", stress_rows, version=version)))
    out = tmp_path / name
    assert main(["report", *files, "--out", str(out)]) == 0
    return (out / "report.md").read_text()


def _decision_rows(markdown: str) -> list[list[str]]:
    """The wait decision table's rows as cells: benchmark, situation, use, runner-up, avoid, disqualified."""
    blocks = markdown.split("### Which one to use", 1)[1].split("\n\n")
    table = next(block for block in blocks if block.startswith("| Benchmark"))
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in table.splitlines()[2:]]


def _headline_rows(markdown: str) -> list[list[str]]:
    """The headline table's rows as cells: pattern, use instead, how much faster, why."""
    table = markdown.split("\n**Headlines:**\n", 1)[1].split("\n\n")[0].strip()
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in table.splitlines()[2:]]


def test_a_variant_not_proven_is_never_recommended_while_a_proven_one_is(tmp_path):
    markdown = _report(tmp_path, _stress(racy_trials=2))
    rows = _decision_rows(markdown)
    assert len(rows) == 4  # limit 1 and 8, work 0 and 1000, at 1 thread
    for _, situation, use, runner_up, avoid, disqualified in rows:
        assert RACY not in use + runner_up + avoid, situation
        assert use.startswith("**`operation-queue-limit`** ") and "not proven" not in use, situation
        assert re.fullmatch(r"`semaphore-limit`\u00a0[12]\.\d\d× \[[\d.]+,\u00a0[\d.]+\]", runner_up), situation
        assert disqualified == (f"`{RACY}`\u00a0({MODULE})\u00a00.50×: fastest by median, but not proven: `limit` "
                                "made 2 of 1,000 trials at 1 thread (short at 2 threads too)"), situation
    for pattern, instead, _, _ in _headline_rows(markdown):
        assert RACY not in instead, pattern
    assert ["`semaphore-limit` (wait)", "`operation-queue-limit`"] in [row[:2] for row in _headline_rows(markdown)]


def test_control_the_same_files_with_the_variant_proven_recommend_it(tmp_path):
    markdown = _report(tmp_path, _stress(racy_trials=STRESS_MINIMUM))
    for _, situation, use, runner_up, _, disqualified in _decision_rows(markdown):
        assert use.startswith(f"**`{RACY}`\u00a0({MODULE})** ") and "not proven" not in use, situation
        assert runner_up.startswith("`operation-queue-limit`\u00a0") and disqualified == "—", situation
    assert ["`semaphore-limit` (wait)", f"`{RACY}`\u00a0({MODULE})"] in [row[:2] for row in _headline_rows(markdown)]


def test_an_abandoned_check_leaves_its_variant_out_of_every_recommendation(tmp_path):
    """An abandoned check is a forbidden outcome (the watchdog's) as well as a check not proven: disqualified."""
    markdown = _report(tmp_path, _stress(racy_trials=STRESS_MINIMUM, abandoned=True))
    for _, situation, use, runner_up, avoid, disqualified in _decision_rows(markdown):
        assert RACY not in use + runner_up + avoid, situation
        assert "failed stress: `limit` (no-progress-suspected-deadlock)" in disqualified, situation


@pytest.mark.parametrize("version", [3, 4])
def test_where_no_variant_is_proven_the_ranking_stands_and_the_use_is_marked(tmp_path, version):
    """A stress file without the throttles' checks (4), and one that predates trial counts (3): none is proven, so
    the fastest is the Use, marked, and so is the runner-up."""
    rows = [outcome("once/dispatch-once/race", 1, "block-ran-once")] if version == 4 else _stress(STRESS_MINIMUM)
    markdown = _report(tmp_path, rows, version=version)
    for _, situation, use, runner_up, _, disqualified in _decision_rows(markdown):
        assert use.startswith(f"**`{RACY}`\u00a0({MODULE})** ") and use.endswith(" ns per task, not proven"), situation
        assert runner_up.startswith("`operation-queue-limit`\u00a0") and runner_up.endswith(", not proven")
        assert disqualified == "—", situation
    assert ["`semaphore-limit` (wait)", f"`{RACY}`\u00a0({MODULE}), not proven"] in [
        row[:2] for row in _headline_rows(markdown)]


def test_without_a_stress_file_every_recommended_variant_is_marked_once(tmp_path):
    markdown = _report(tmp_path, None)
    assert markdown.count("Correctness was not checked in this report") == 1
    for _, situation, use, runner_up, _, _ in _decision_rows(markdown):
        assert use.count("not proven") == runner_up.count("not proven") == 1, situation


def test_brought_variants_are_marked_in_the_headlines_and_built_in_ones_are_not(tmp_path):
    """Each kind of headline that names a variant: a failed check (of the package's throttle), a seed's variant to
    use instead, a starved case. The built-in ones in the same rows carry no module."""
    rows = _stress(racy_trials=STRESS_MINIMUM)
    rows.append({**outcome(f"wait/throttle/{RACY}/limit", 1, "in-flight-above-limit", "forbidden", count=3,
                           iterations=2, trials=STRESS_MINIMUM), "variant_origin": MODULE})
    failed = _headline_rows(_report(tmp_path, rows, name="failed"))
    assert failed[0][0] == f"`wait/throttle/{RACY}/limit`\u00a0({MODULE})"
    proven = _headline_rows(_report(tmp_path, _stress(racy_trials=STRESS_MINIMUM), name="proven"))
    assert [row[:2] for row in proven if "semaphore-limit" in row[0]] == [
        ["`semaphore-limit` (wait)", f"`{RACY}`\u00a0({MODULE})"]]
    # A stress file alone: its own variant_origin names the module.
    stress = write_stress(tmp_path / "alone.csv", rows, version=4)
    assert main(["report", str(stress), "--out", str(tmp_path / "alone")]) == 0
    alone = _headline_rows((tmp_path / "alone" / "report.md").read_text())
    assert alone[0][0] == f"`wait/throttle/{RACY}/limit`\u00a0({MODULE})"
    # Negative control: a built-in variant's failed check carries no module.
    built_in = [{**row, "variant_origin": "built-in"} for row in rows]
    stress = write_stress(tmp_path / "built-in.csv", built_in, version=4)
    assert main(["report", str(stress), "--out", str(tmp_path / "built-in")]) == 0
    assert _headline_rows((tmp_path / "built-in" / "report.md").read_text())[0][0] == f"`wait/throttle/{RACY}/limit`"


def test_a_starved_brought_case_is_named_with_its_module(tmp_path):
    starved = {**CASES, case("wait", "throttle", RACY, 1, "limit=1;tasks=256;work=0"): [float("inf")] * 15}
    path = write_results(tmp_path / "starved.csv", starved, version=6, run=RUN, origins={RACY: MODULE})
    assert main(["report", str(path), "--out", str(tmp_path / "report")]) == 0
    # The headline counts the starved cases and names them in its fold (HTML), each with its module.
    names = [row[0] for row in _headline_rows((tmp_path / "report" / "report.md").read_text())]
    assert "1 starved case" in names
    html = (tmp_path / "report" / "report.html").read_text()
    assert f"<code>wait/throttle/{RACY}</code>\u00a0({MODULE}) limit=1, tasks=256, work=0 threads:1" in html


# The rule itself (judge/stress.judge_proof), on the files bench wrote.

def test_the_v4_file_proves_its_variants_in_every_benchmark_of_their_family():
    proof = judge_proof(load_stress(FIXTURES / "bench-stress-v4.csv").results.values())
    assert proof.unproven("once", "race", "dispatch-once") is None
    assert proof.unproven("isolation", "mixed", "mutex") is None
    assert proof.unproven("isolation", "mixed", "nslock") == NOT_IN_FILE


def test_a_file_before_trial_counts_proves_nothing():
    proof = judge_proof(load_stress(FIXTURES / "bench-stress-v3.csv").results.values())
    assert proof.unproven("once", "hit", "lazy-static") == NO_TRIAL_COUNTS
    assert NOTHING_PROVEN.unproven("once", "hit", "lazy-static") == judge_proof(None).unproven(
        "once", "hit", "lazy-static") == NO_STRESS_FILE


def test_a_pattern_check_proves_its_variant_in_that_pattern_only(tmp_path):
    """wait/handoff/semaphore/… checks the handoff's semaphore, not the fan-out's variant of the same id."""
    rows = [outcome("wait/handoff/semaphore/no-lost-wake-up", t, "round-trips-completed") for t in (1, 2)]
    proof = judge_proof(load_stress(write_stress(tmp_path / "s.csv", rows, version=4)).results.values())
    assert proof.unproven("wait", "handoff", "semaphore") is None
    assert proof.unproven("wait", "fan-out", "semaphore") == NOT_IN_FILE


def test_one_slot_below_its_minimum_leaves_its_variant_not_proven(tmp_path):
    rows = [outcome("isolation/mutex/lost-writes", 1, "key-holds-its-last-write", trials=5000, minimum=4000),
            outcome("isolation/mutex/lost-writes", 2, "key-holds-its-last-write", trials=3999, minimum=4000)]
    proof = judge_proof(load_stress(write_stress(tmp_path / "s.csv", rows, version=4)).results.values())
    assert proof.unproven("isolation", "mixed", "mutex") == "`lost-writes` made 3,999 of 4,000 trials at 2 threads"
    # Negative control: at its minimum, it is proven.
    rows[1] = outcome("isolation/mutex/lost-writes", 2, "key-holds-its-last-write", trials=4000, minimum=4000)
    proof = judge_proof(load_stress(write_stress(tmp_path / "s.csv", rows, version=4)).results.values())
    assert proof.unproven("isolation", "mixed", "mutex") is None


def test_the_brought_in_table_marks_a_check_short_of_its_minimum(tmp_path):
    def listed(markdown: str) -> str:
        return next(line for line in markdown.split("## Variants brought from outside")[1].splitlines()
                    if line.startswith(f"| `{RACY}` |"))

    assert listed(_report(tmp_path, _stress(racy_trials=2), name="short")).endswith("| `limit` not proven |")
    # Negative control: at its minimum.
    assert listed(_report(tmp_path, _stress(racy_trials=STRESS_MINIMUM), name="proven")).endswith("| `limit` |")


def test_several_slots_short_are_summed_up_after_the_first(tmp_path):
    rows = [outcome("isolation/mutex/lost-writes", t, "key-holds-its-last-write", trials=10, minimum=4000)
            for t in (1, 2, 4)]
    rows += [outcome("isolation/mutex/torn-reads", 1, "reads-saw-whole-models", trials=0, minimum=1)]
    proof = judge_proof(load_stress(write_stress(tmp_path / "s.csv", rows, version=4)).results.values())
    assert proof.unproven("isolation", "roles", "mutex") == (
        "`lost-writes` made 10 of 4,000 trials at 1 thread (short at 2 and 4 threads too; 1 other check short)")


def test_the_first_paragraph_names_the_timed_variants_the_stress_file_has_no_check_of(tmp_path):
    markdown = _report(tmp_path, [outcome("once/dispatch-once/race", 1, "block-ran-once")], name="other")
    first = markdown.split("\n\n")[1]
    assert first.endswith(f"**Not in the stress file, so not proven:** `operation-queue-limit` (wait), "
                          f"`{RACY}`\u00a0({MODULE}) (wait), `semaphore-limit` (wait); the decision tables mark them "
                          "and recommend none over a proven variant.")
    # Negative control: a stress file with every throttle's check (one of them short of its minimum, which the
    # verdict names instead).
    assert "Not in the stress file" not in _report(tmp_path, _stress(racy_trials=2), name="all")


def test_a_seed_passed_over_as_not_proven_says_so_in_its_headline(tmp_path):
    """A stress file with operation-queue-limit's checks alone: the seed semaphore-limit is not proven, and its
    headline says so beside the proven variant to use instead."""
    rows = [outcome("wait/throttle/operation-queue-limit/limit", t, "in-flight-within-limit") for t in (1, 2)]
    markdown = _report(tmp_path, rows, name="seed")
    [seed] = [row for row in _headline_rows(markdown) if row[0] == "`semaphore-limit` (wait)"]
    assert seed[1] == "`operation-queue-limit`" and seed[3].startswith("not proven at throttle, 1 thread")
    # Negative control: with its checks too, it is priced as slower.
    rows += [outcome("wait/throttle/semaphore-limit/limit", t, "in-flight-within-limit") for t in (1, 2)]
    [seed] = [row for row in _headline_rows(_report(tmp_path, rows, name="both")) if row[0].startswith("`semaphore")]
    assert seed[1] == "`operation-queue-limit`" and seed[3].startswith("on the CPU at throttle, 1 thread")
