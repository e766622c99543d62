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
               "controls caught, the slowest after 0.329 s (`control/isolation/racy-store/torn-reads`).")
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
    assert ("| `wait/throttle/semaphore-limit/limit` | 8 | `no-progress-suspected-deadlock`: suspected deadlock "
            "(no iteration completed within --watchdog) | 1 | 0 |") in markdown


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
