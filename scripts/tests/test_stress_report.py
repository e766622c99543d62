"""report with a stress file (bench stress), alone or beside timing and counts files: the
verdict leads (forbidden outcomes in variants as failures, or "0 forbidden outcomes in N
checks"), then the negative controls (one never caught: "check lost its teeth"), then every
check's outcomes per thread count."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyze_lib.cli import main
from analyze_lib.files.loader import load_stress
from analyze_lib.judge.stress import judge_stress
from csvgen import (
    case,
    caught_control,
    clean_stress_rows,
    once_hit_counts,
    outcome,
    write_counts,
    write_results,
    write_stress,
)

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "bench-stress-v1.csv"
WINDOW = "isolation/serial-async-write/write-window"
UNCAUGHT = "control/isolation/barrierless/exclusivity"


def _report(paths, out: Path, *options) -> str:
    assert main(["report", *map(str, paths), "--out", str(out), *options]) == 0
    return (out / "report.md").read_text()


def _headings(markdown: str, level: str = "## ") -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith(level)]


def _summary(markdown: str) -> str:
    """The report's first paragraph, under its title."""
    return markdown.split("\n\n")[1]


def test_the_file_bench_stress_wrote_reports_clean(tmp_path):
    markdown = _report([FIXTURE], tmp_path / "report")
    assert markdown.startswith("# DispatchBench report: bench-stress-v1\n\nStress checks from ")
    verdict = ("**0 forbidden outcomes in 4 checks** (28,274 iterations at 1 and 2 threads). All 8 negative "
               "controls caught, the slowest after 0.329 s (`control/isolation/racy-store/torn-reads`). "
               "**This file predates trial counts** (stress_schema_version 1): it proves no variant, so the report "
               "recommends none over another for being proven.")
    assert _summary(markdown).endswith(verdict)
    assert f"\n\n{verdict}\n\n" in markdown  # again at the top of its section
    assert _headings(markdown) == ["## Contents", "## Stress checks", "## Environment"]
    assert _headings(markdown, "### ") == ["### Negative controls", "### Every check's outcomes"]
    assert ("| `control/isolation/racy-store/torn-reads` | 4 | yes | 0.329 s | 1 | "
            "`read-saw-half-applied-write` 575,193 |") in markdown
    assert ("| `once/array-tracker/race` | iterations |  | 2,840 in 0.50 s | 232 in 0.50 s |\n"
            "|  | `block-ran-once` | acceptable | 284,000 | 23,200 |") in markdown
    assert "<details><summary>wait: 2 checks, no forbidden outcome</summary>" in markdown
    assert "FAILED" not in markdown and "lost its teeth**" not in markdown


def test_html_has_the_stress_section(tmp_path):
    out = tmp_path / "report"
    _report([FIXTURE], out)
    html = (out / "report.html").read_text()
    assert '<h2 id="stress-checks">Stress checks</h2>' in html
    assert '<a href="#negative-controls">Negative controls</a>' in html
    assert "<strong>0 forbidden outcomes in 4 checks</strong>" in html
    assert '<td class="l"><code>control/wait/throttle/signal-early/limit</code></td>' in html


@pytest.fixture
def failing(tmp_path):
    """A run whose write-window check saw a forbidden outcome at 2 threads and whose
    barrierless control was never caught in its 10 s."""
    rows = clean_stress_rows()
    rows.insert(5, outcome(WINDOW, 2, "write-returned-before-applied-sync", "forbidden", count=3))
    rows.append(outcome(UNCAUGHT, 4, "reads-overlapped", count=123456, iterations=52000, seconds=10.0))
    return write_stress(tmp_path / "stress.csv", rows)


def test_a_forbidden_outcome_in_a_variant_is_a_failure_at_the_top(failing, tmp_path):
    markdown = _report([failing], tmp_path / "report")
    failed = f"**FAILED: forbidden outcomes in 1 of 2 checks** (`{WINDOW}`)."
    assert failed in _summary(markdown)
    headings = _headings(markdown, "### ")
    assert headings[0] == "### Failures: forbidden outcomes in variants"
    assert ("| Check | Threads | Forbidden outcome | Count | Iterations |\n"
            "| --- | ---: | --- | ---: | ---: |\n"
            f"| `{WINDOW}` | 2 | `write-returned-before-applied-sync` | 3 | 1,000 |") in markdown
    # In the outcomes table, bold where seen and 0 where the check ran without seeing it.
    assert "|  | `write-returned-before-applied-sync` | **forbidden** | 0 | **3** |" in markdown
    assert "<summary>isolation: 1 check, 1 with forbidden outcomes</summary>" in markdown
    html = (tmp_path / "report" / "report.html").read_text()
    assert f"<strong>FAILED: forbidden outcomes in 1 of 2 checks</strong> (<code>{WINDOW}</code>)" in html


def test_a_control_never_caught_lost_its_teeth(failing, tmp_path):
    markdown = _report([failing], tmp_path / "report")
    teeth = (f"**1 of 3 negative controls never caught: its check lost its teeth** (`{UNCAUGHT}` threads:4).")
    assert teeth in _summary(markdown)
    assert (f"| `{UNCAUGHT}` | 4 | **no: check lost its teeth** | never, in 10.000 s | 52,000 | none |"
            in markdown)
    assert "| `control/once/unsynced-tracker/race` | 4 | yes | 0.002 s | 1 | `block-ran-more-than-once` 7 |" in markdown


def test_forbidden_outcomes_of_controls_are_catches_not_failures(tmp_path):
    path = write_stress(tmp_path / "stress.csv", clean_stress_rows())
    verdict = judge_stress(load_stress(path).results)
    assert verdict.passed and verdict.failures == () and verdict.uncaught == ()
    assert (len(verdict.controls), verdict.checks) == (2, ("once/lazy-static/race", WINDOW))
    assert "**0 forbidden outcomes in 2 checks**" in _report([path], tmp_path / "report")


def test_a_suspected_deadlock_is_a_failure_named_as_such(tmp_path):
    rows = [outcome("wait/throttle/semaphore-limit/limit", 8, "no-progress-suspected-deadlock", "forbidden",
                    count=1, iterations=0, seconds=10.0), caught_control("control/wait/throttle/signal-early/limit")]
    markdown = _report([write_stress(tmp_path / "stuck.csv", rows)], tmp_path / "report")
    assert ("| `wait/throttle/semaphore-limit/limit` | 8 | `no-progress-suspected-deadlock`: abandoned: suspected "
            "deadlock (no progress within --watchdog) | 1 | 0 |") in markdown
    assert ("**Abandoned by the watchdog** as suspected deadlocks (no progress within --watchdog): "
            "`wait/throttle/semaphore-limit/limit` at 8 threads.") in markdown


def test_no_controls_says_nothing_shows_the_checks_can_fail(tmp_path):
    rows = [r for r in clean_stress_rows() if r["is_control"] == "false"]
    markdown = _report([write_stress(tmp_path / "plain.csv", rows)], tmp_path / "report")
    assert "No negative controls (`bench stress --no-controls`, or filtered out)" in markdown
    assert "### Negative controls" not in markdown


def test_stress_beside_timing_and_counts_in_any_order(tmp_path):
    timing = write_results(tmp_path / "run.csv", {case("once", "hit", v, 1, "tokens=1"): m
                                                  for v, m in (("dispatch-once", 1.0), ("lock", 18.0))}, version=3)
    counts = write_counts(tmp_path / "counts.csv", once_hit_counts(tokens=(1, 10)))
    stress = write_stress(tmp_path / "stress.csv", clean_stress_rows())
    markdown = _report([stress, timing, counts], tmp_path / "a")
    assert markdown == _report([timing, counts, stress], tmp_path / "b")
    # The timing file leads, as it does beside a counts file.
    assert markdown.startswith("# DispatchBench report: run\n\n2 cases from ")
    headings = _headings(markdown)
    assert headings.index("## Stress checks") == headings.index("## Counts per operation") + 1
    assert "| Field | Timings | Counts | Stress |" in markdown
    assert f"Stress checks from `{stress}`: **0 forbidden outcomes in 2 checks**" in _summary(markdown)


def test_filter_applies_to_check_names(tmp_path, failing):
    markdown = _report([failing], tmp_path / "report", "--filter", "^once/|unsynced")
    assert "**0 forbidden outcomes in 1 check** (2,000 iterations at 1 and 2 threads)" in markdown
    assert WINDOW not in markdown and UNCAUGHT not in markdown
    markdown = _report([failing], tmp_path / "none", "--filter", "^nothing")
    assert "No stress check matches the filter." in markdown


@pytest.mark.parametrize("argv, message", [
    (["report", "{s}", "{s}"], "are both stress files: report takes at most one timing file, one counts file "
                               "and one stress file"),
    (["compare", "{s}", "{s}"], "compare takes timing or counts files; this is a stress file (bench stress)"),
    (["gate", "{s}", "{s}"], "gate takes timing or counts files; this is a stress file (bench stress)"),
    (["export", "{s}", "--format", "github"], "export takes timing or counts files"),
])
def test_commands_that_cannot_use_a_stress_file_say_so(tmp_path, capsys, argv, message):
    stress = str(write_stress(tmp_path / "stress.csv", clean_stress_rows()))
    assert main([a.format(s=stress) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_unknown_version_fails_the_report(tmp_path, capsys):
    path = write_stress(tmp_path / "v9.csv", clean_stress_rows(), version=9)
    assert main(["report", str(path), "--out", str(tmp_path / "r")]) == 2
    assert "unknown stress_schema_version 9" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


# Version 4: trials against the minimum, racy controls, the watchdog's abandoned and slow checks (issue 72).

RACY_CONTROL = "control/wait/throttle/check-then-increment/limit"
TICKET = "isolation/ticket-lock/mutual-exclusion"


def _v4_rows(racy_trials: int = 2, racy_caught_after: int = 400) -> list[dict]:
    """A package's throttle whose check made ``racy_trials`` trials at 1 and 2 threads against a minimum of 1,000,
    a built-in throttle well above it, a ticket lock slow at 8 threads (2 iterations longer than the watchdog), and
    the throttle's racy control caught after ``racy_caught_after`` trials."""
    rows = []
    for threads in (1, 2):
        rows.append({**outcome("wait/throttle/racy-throttle/limit", threads, "in-flight-within-limit", iterations=2,
                               trials=racy_trials), "variant_origin": "ThrottleKit"})
        rows.append(outcome("wait/throttle/semaphore-limit/limit", threads, "in-flight-within-limit"))
    rows += [outcome(TICKET, 8, "section-ran-alone", iterations=3, trials=3, minimum=1),
             outcome(TICKET, 8, "iteration-slower-than-watchdog", "acceptable-interesting", count=2, iterations=3,
                     trials=3, minimum=1),
             caught_control(RACY_CONTROL, threads=1, forbidden="in-flight-above-limit", kind="racy",
                            trials=racy_caught_after)]
    return rows


def _section(markdown: str, heading: str) -> str:
    return markdown.split(f"\n### {heading}\n", 1)[1].split("\n### ", 1)[0]


def test_checks_below_their_minimum_are_shown_not_proven(tmp_path):
    markdown = _report([write_stress(tmp_path / "short.csv", _v4_rows(), version=4)], tmp_path / "short")
    assert ("**1 check not proven** (fewer trials than its minimum: `wait/throttle/racy-throttle/limit`\u00a0"
            "(ThrottleKit) at 1 and 2 threads): the report never recommends its variant over a proven one.") \
        in _summary(markdown)
    short = _section(markdown, "Not proven: checks below their minimum trials")
    assert ("| `wait/throttle/racy-throttle/limit`\u00a0(ThrottleKit) | 2 | **2 (minimum 1,000)** | 2 | 0.50 s |"
            in short)
    assert "semaphore-limit" not in short
    # In the outcomes, each thread count's trials beside the minimum, marked where below it.
    assert ("|  | trials |  | **2 (minimum 1,000): not proven** | **2 (minimum 1,000): not proven** |" in markdown)
    assert "|  | trials |  | 100,000 (minimum 1,000) | 100,000 (minimum 1,000) |" in markdown
    # Negative control: the same check at its minimum.
    markdown = _report([write_stress(tmp_path / "enough.csv", _v4_rows(racy_trials=1000), version=4)],
                       tmp_path / "enough")
    assert "not proven**" not in markdown and ": not proven" not in markdown and "### Not proven" not in markdown
    assert "|  | trials |  | 1,000 (minimum 1,000) | 1,000 (minimum 1,000) |" in markdown


def test_a_racy_control_caught_beyond_its_minimum_says_the_check_fell_short(tmp_path):
    markdown = _report([write_stress(tmp_path / "weak.csv", _v4_rows(racy_caught_after=2400), version=4)],
                       tmp_path / "weak")
    assert (f"**1 racy control caught only beyond its check's minimum, or not at all** (`{RACY_CONTROL}` at 1 "
            "thread): in this "
            "run the check fell short of the power its minimum assumes, so a variant with such a race could have "
            "passed it; not a run failure.") in _summary(markdown)
    assert (f"| `{RACY_CONTROL}` | racy | 1 | yes | 0.002 s | **2,400 (minimum 1,000): beyond the minimum: the "
            "check's power fell short in this run** | 1 | `in-flight-above-limit` 7 |") in markdown
    assert "FAILED" not in markdown and "lost its teeth**" not in markdown  # not a run failure
    # Negative control: caught within the minimum.
    markdown = _report([write_stress(tmp_path / "strong.csv", _v4_rows(), version=4)], tmp_path / "strong")
    assert "beyond" not in markdown
    assert ("The racy control was caught within its check's minimum trials: the check has the power its minimum "
            "assumes.") in _summary(markdown)
    assert f"| `{RACY_CONTROL}` | racy | 1 | yes | 0.002 s | 400 (minimum 1,000) | 1 |" in markdown


def test_a_slow_check_is_named_slow_not_stuck(tmp_path):
    markdown = _report([write_stress(tmp_path / "slow.csv", _v4_rows(), version=4)], tmp_path / "slow")
    assert (f"Slow, not stuck (iterations longer than --watchdog while the threads advanced): `{TICKET}` at 8 "
            "threads.") in _summary(markdown)
    assert f"| `{TICKET}` | 8 | 2 | 3 | 0.50 s |" in _section(markdown, "Slow, not stuck")
    assert "FAILED" not in markdown and "Abandoned" not in markdown
    # Negative control: without its slow iterations.
    rows = [r for r in _v4_rows() if r["outcome"] != "iteration-slower-than-watchdog"]
    markdown = _report([write_stress(tmp_path / "quick.csv", rows, version=4)], tmp_path / "quick")
    assert "Slow, not stuck" not in markdown


def test_a_file_before_trial_counts_says_it_proves_nothing(tmp_path):
    markdown = _report([FIXTURE], tmp_path / "report")
    assert "**This file predates trial counts** (stress_schema_version 1): it proves no variant" in markdown
    assert "|  | trials |" not in markdown and "| Kind |" not in markdown
    # Negative control: a file with them.
    markdown = _report([write_stress(tmp_path / "v4.csv", _v4_rows(racy_trials=1000), version=4)], tmp_path / "v4")
    assert "predates" not in markdown


def test_a_check_that_failed_below_its_minimum_is_named_failed_not_also_not_proven(tmp_path):
    """A check that showed a forbidden outcome ends at it (bench stops the slot there): it failed, which says more
    than too few trials, and the report names it once, as a failure. The control: the same check below its minimum
    with nothing forbidden is not proven."""
    failed = [{**outcome("wait/throttle/racy-throttle/limit", 1, "in-flight-above-limit", "forbidden", iterations=1,
                         trials=48), "variant_origin": "ThrottleKit"}]
    markdown = _report([write_stress(tmp_path / "failed.csv", failed, version=4)], tmp_path / "failed")
    assert "FAILED" in _summary(markdown)
    assert "not proven" not in _summary(markdown) and "### Not proven" not in markdown
    clean = [{**outcome("wait/throttle/racy-throttle/limit", 1, "in-flight-within-limit", iterations=1, trials=48),
              "variant_origin": "ThrottleKit"}]
    markdown = _report([write_stress(tmp_path / "short.csv", clean, version=4)], tmp_path / "short")
    assert "### Not proven" in markdown


def test_a_racy_control_never_caught_is_named_and_is_no_failure(tmp_path):
    """A racy control is caught as often as chance has it (on a busy machine less often): never caught, it is named as
    the check's power falling short, and the run is no failure; the control: a deterministic control never caught
    is one (its check lost its teeth)."""
    rows = [outcome("wait/throttle/semaphore-limit/limit", 1, "in-flight-within-limit"),
            outcome(RACY_CONTROL, 1, "in-flight-within-limit", kind="racy")]
    markdown = _report([write_stress(tmp_path / "missed.csv", rows, version=4)], tmp_path / "missed")
    assert (f"**1 racy control caught only beyond its check's minimum, or not at all** (`{RACY_CONTROL}` at 1 "
            "thread)") in _summary(markdown)
    assert "lost its teeth" not in _summary(markdown) and "FAILED" not in _summary(markdown)
    rows[1] = outcome("control/wait/throttle/signal-early/limit", 1, "in-flight-within-limit", kind="deterministic")
    markdown = _report([write_stress(tmp_path / "lost.csv", rows, version=4)], tmp_path / "lost")
    assert "lost its teeth" in _summary(markdown)


def test_the_outcomes_say_what_a_trial_and_a_thread_count_mean_to_each_check(tmp_path):
    """Issue 72: what a thread count means to a check (the handoff's pair beside spinning threads, a throttle's
    limit) is said in the report as in --list-checks: version 5 writes it with each check; version 4 did not."""
    rows = [outcome("isolation/mutex/lost-writes", t, "key-holds-its-last-write") for t in (1, 2)]
    markdown = _report([write_stress(tmp_path / "v5.csv", rows, version=5)], tmp_path / "v5")
    assert "|  | what it counts | a trial is one write; N threads: N writers |  |  |" in markdown
    markdown = _report([write_stress(tmp_path / "v4.csv", rows, version=4)], tmp_path / "v4")
    assert "what it counts" not in markdown
