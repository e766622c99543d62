"""The report opens with headlines generated from the data (issue 55): after the lines on how the
run was made and before the contents, the stress failures, the starved cases, the steepest cliffs
with their causes and what each seed pattern costs; and the decision tables name the cause beside
each avoided variant. Synthetic files, each headline with a negative control."""

from __future__ import annotations

import math

from analyze_lib.cli import main
from csvgen import caught_control, case, outcome, write_results, write_stress

RUN = {"logical_cpus": "2", "run_threads": "1,2,4,8"}
HARNESS = {case("harness", "empty", "loop", t): 0.3 for t in (1, 2)}
# The issue's mutex (a convoy at 8 threads) beside nslock, and the seeds' concurrent queue with barriers.
MIXED = {
    **{case("isolation", "mixed", "mutex", t, "read_pct=0"): c for t, c in ((1, 45.0), (2, 100.0), (4, 111.0),
                                                                          (8, 25095.0))},
    **{case("isolation", "mixed", "nslock", t, "read_pct=0"): c for t, c in ((1, 55.0), (2, 150.0), (4, 190.0),
                                                                           (8, 263.0))},
    **{case("isolation", "mixed", "concurrent-barrier-async", t, "read_pct=0"): c
       for t, c in ((1, 400.0), (2, 1000.0), (4, 1100.0), (8, 1200.0))},
}
CONVOY = {case("isolation", "mixed", "mutex", 8, "read_pct=0"): {"voluntary": 1.15, "utilisation": 0.1,
                                                                "kernel_share": 0.44}}


def _report(tmp_path, cases: dict, signals: dict | None = None, stress_rows: list | None = None) -> tuple[str, str]:
    path = write_results(tmp_path / "run.csv", {**HARNESS, **cases}, version=6, run=RUN, signals=signals)
    files = [str(path)]
    if stress_rows is not None:
        files.append(str(write_stress(tmp_path / "stress.csv", stress_rows)))
    assert main(["report", *files, "--out", str(tmp_path / "report")]) == 0
    return ((tmp_path / "report" / "report.md").read_text(), (tmp_path / "report" / "report.html").read_text())


def _headlines(markdown: str) -> str:
    """The headlines ('' when the report has none): the list after their title, before the contents."""
    if "\n**Headlines:**\n" not in markdown:
        return ""
    return markdown.split("\n**Headlines:**\n", 1)[1].split("\n## ", 1)[0]


def _row(headlines: str, pattern: str) -> str:
    """The headline table's row whose pattern cell starts with ``pattern``."""
    return next(line for line in headlines.splitlines() if line.startswith(f"| {pattern}"))


def test_the_report_opens_with_the_steepest_cliff_and_its_cause(tmp_path):
    markdown, html = _report(tmp_path, MIXED, CONVOY)
    # After the lines on how the run was made and what to use, before the machine's box and the contents.
    before, after = markdown.split("\n**Headlines:**\n", 1)
    assert "**Run:**" in before and "**What to use within the CPUs**" in before and "## Contents" not in before
    assert after.index("**Busy or free:**") < after.index("## Contents")
    # A row: the pattern, what to use instead (nslock, recommended at 8 threads: not proven, no stress file was
    # given), how much faster, why; and a link to the family's section, whose cliffs give the figures.
    row = _row(_headlines(markdown), "`mutex` at 8 threads (isolation/mixed, read_pct=0) |")
    assert row.startswith("| `mutex` at 8 threads (isolation/mixed, read_pct=0) | `nslock`, not proven | 9")
    assert row.endswith("× | cliff 226× from 4 to 8 threads: convoy ([more](#isolation)) |")
    assert ("`mixed/mutex` read_pct=0: cliff between 4 and 8 threads (226×): convoy: 1.15 switches and 2.2 µs in "
            "the kernel per op") in markdown
    # In HTML the row folds the whole sentence, one click away.
    assert ("<details><summary>cliff 226× from 4 to 8 threads: convoy</summary><code>mutex</code> "
            "(isolation/mixed (read_pct=0)): cliff between 4 and 8 threads (226×): convoy: 1.15 switches and 2.2 µs "
            "in the kernel per op.") in html


def test_an_avoided_variant_is_named_with_its_cause(tmp_path):
    markdown, _ = _report(tmp_path, MIXED, CONVOY)
    row = next(line for line in markdown.splitlines() if line.startswith("| mixed | 8 threads (oversubscribed)"))
    assert "`mutex`\u00a0" in row and "(convoy: 1.15 switches and 2.2 µs in the kernel per op)" in row
    # The same variant, not a convoy (its switches gone), is not called one.
    markdown, _ = _report(tmp_path, MIXED, {k: {**v, "voluntary": 0.001} for k, v in CONVOY.items()})
    row = next(line for line in markdown.splitlines() if line.startswith("| mixed | 8 threads (oversubscribed)"))
    assert "`mutex`\u00a0" in row and "convoy" not in row


def test_a_line_without_a_jump_makes_no_cliff_headline(tmp_path):
    # Negative control: mutex grows 2× at most per thread count.
    flat = {key: (value if key[2] != "mutex" else 45.0 * 2 ** math.log2(key[3])) for key, value in MIXED.items()}
    headlines = _headlines(_report(tmp_path, flat)[0])
    assert "cliff " not in headlines and "| `concurrent-barrier-async` (isolation) |" in headlines


def test_a_seed_pattern_is_priced_against_the_one_to_use(tmp_path):
    headlines = _headlines(_report(tmp_path, MIXED, CONVOY)[0])
    line = _row(headlines, "`concurrent-barrier-async` (isolation) |")
    # No stress file was given: the one to use is not proven.
    assert line.startswith("| `concurrent-barrier-async` (isolation) | `mutex`, not proven | 9.") or line.startswith(
        "| `concurrent-barrier-async` (isolation) | `mutex`, not proven | 10.")
    # Each of its 2 threads spends 5× its one-thread time per op (400 → 1,000 ns/op): contended (issue 73).
    assert line.endswith("× | contended at mixed, 2 threads ([more](#isolation)) |")


def test_a_run_without_seed_patterns_has_no_seed_headline(tmp_path):
    # Negative control: the same run without the seed variant.
    cases = {k: v for k, v in MIXED.items() if k[2] != "concurrent-barrier-async"}
    assert "(isolation) |" not in _headlines(_report(tmp_path, cases, CONVOY)[0])


STRESS_OK = [outcome("isolation/mutex/no-torn-read", 4, "consistent"), caught_control("control/isolation/torn")]


def test_a_forbidden_stress_outcome_leads_the_headlines(tmp_path):
    rows = STRESS_OK + [outcome("isolation/nslock/no-torn-read", 4, "torn-read", "forbidden", count=3)]
    headlines = _headlines(_report(tmp_path, MIXED, CONVOY, rows)[0])
    first = headlines.strip().splitlines()[2]
    assert first == ("| `isolation/nslock/no-torn-read` | — | — | **forbidden outcome** in a stress check: incorrect "
                     "([more](#stress-checks)) |")
    # Negative control: every check passed.
    assert "forbidden outcome" not in _headlines(_report(tmp_path, MIXED, CONVOY, STRESS_OK)[0])


def test_a_starved_case_is_a_headline(tmp_path):
    starved = case("isolation", "mixed", "nslock", 2, "read_pct=0")
    markdown, html = _report(tmp_path, {**MIXED, starved: [math.inf] * 12 + [180.0] * 3}, CONVOY)
    headlines = _headlines(markdown)
    # One row says how many, and leads to their list further down; the HTML folds their names.
    assert "| 1 starved case | — | — | starvation beyond chance ([more](#starved-samples)) |" in headlines
    assert ("Starved beyond what the run's controls show: <code>isolation/mixed/nslock</code> read_pct=0 threads:2"
            in html)
    # Negative control: the same run, nothing starved.
    assert "starvation" not in _headlines(_report(tmp_path, MIXED, CONVOY)[0])
