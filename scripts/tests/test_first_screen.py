"""A first screen a person takes in at a glance (issue 62): the headlines are a table, one row each (pattern, what
to use instead, how much faster, why), no row longer than HEADLINE_ROW_MAX, each row's details one click away
(folded in HTML, a link to its section in Markdown); and the HTML's first screen holds the run's conditions, that
table and one chart, the seed patterns' cost against threads. Synthetic files; each check with a negative control."""

from __future__ import annotations

import math
import re

from analyze_lib.cli import main
from analyze_lib.present.chart_plan import SEED_CHART_FILE
from analyze_lib.present.headlines_text import HEADLINE_HEADERS, HEADLINE_ROW_MAX
from csvgen import caught_control, case, outcome, write_results, write_stress

RUN = {"logical_cpus": "2", "run_threads": "1,2,4,8"}
HARNESS = {case("harness", "empty", "loop", t): 0.3 for t in (1, 2)}
MIXED = {
    **{case("isolation", "mixed", "mutex", t, "keys=1000;read_pct=0"): c
       for t, c in ((1, 45.0), (2, 100.0), (4, 111.0), (8, 25095.0))},
    **{case("isolation", "mixed", "nslock", t, "keys=1000;read_pct=0"): c
       for t, c in ((1, 55.0), (2, 150.0), (4, 190.0), (8, 263.0))},
    **{case("isolation", "mixed", "concurrent-barrier-async", t, "keys=1000;read_pct=0"): c
       for t, c in ((1, 400.0), (2, 1000.0), (4, 1100.0), (8, 1200.0))},
}
ONCE = {case("once", "hit", variant, t, "tokens=1000"): cost * t
        for variant, cost in (("dispatch-once", 30.0), ("atomic-flag", 1.0), ("array-tracker", 400.0))
        for t in (1, 2, 4, 8)}
CONVOY = {case("isolation", "mixed", "mutex", 8, "keys=1000;read_pct=0"): {"voluntary": 1.15, "utilisation": 0.1,
                                                                          "kernel_share": 0.44}}
STARVED = {case("isolation", "mixed", "nslock", 2, "keys=1000;read_pct=0"): [math.inf] * 12 + [180.0] * 3}
STRESS = [outcome("isolation/mutex/no-torn-read", 4, "consistent"), caught_control("control/isolation/torn"),
          outcome("isolation/nslock/no-torn-read", 4, "torn-read", "forbidden", count=3)]


def _report(tmp_path, cases: dict, stress: list | None = None) -> tuple[str, str]:
    path = write_results(tmp_path / "run.csv", {**HARNESS, **cases}, version=6, run=RUN, signals=CONVOY)
    files = [str(path)] + ([str(write_stress(tmp_path / "stress.csv", stress))] if stress else [])
    assert main(["report", *files, "--out", str(tmp_path / "report")]) == 0
    return (tmp_path / "report" / "report.md").read_text(), (tmp_path / "report" / "report.html").read_text()


def _headlines(markdown: str) -> list[str]:
    """The lines between the headlines' title and the machine's box below them, blank ones left out."""
    region = markdown.split("\n**Headlines:**\n", 1)[1].split("\n**The machine:**", 1)[0]
    return [line for line in region.splitlines() if line.strip()]


def _not_rows(lines: list[str]) -> list[str]:
    """Lines of the headlines that are neither a row of their table nor the chart below it."""
    return [line for line in lines if not line.startswith("| ") and not line.startswith("![")]


def _rows(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("| ")][2:]


def test_every_headline_is_a_table_row(tmp_path):
    lines = _headlines(_report(tmp_path, {**MIXED, **ONCE, **STARVED}, STRESS)[0])
    assert lines[0] == "| " + " | ".join(HEADLINE_HEADERS) + " |"
    assert _not_rows(lines) == []
    rows = _rows(lines)
    # One row for each: the failed check, the starved cases (one row saying how many, their list further down), the
    # cliffs and each seed pattern, most serious first.
    assert rows[0].startswith("| `isolation/nslock/no-torn-read` | ")
    assert rows[1].startswith("| 1 starved case | ")
    assert any(row.startswith("| `mutex` at 8 threads (isolation/mixed, keys=1000, read_pct=0) | ") for row in rows)
    for seed in ("`concurrent-barrier-async` (isolation)", "`array-tracker` (once)", "`dispatch-once` (once)"):
        assert sum(row.startswith(f"| {seed} | ") for row in rows) == 1, seed
    # Each row has the four cells and leads to its section.
    for row in rows:
        assert len(re.split(r"(?<!\\)\|", row.strip().strip("|"))) == 4, row
        assert re.search(r"\(\[more\]\(#[\w-]+\)\) \|$", row), row


def test_control_a_headline_as_a_paragraph_is_caught():
    lines = ["| Pattern | Use instead | How much faster | Why |", "| --- | --- | ---: | --- |",
             "| `x` (once) | `y` | 2× | convoy ([more](#once)) |",
             "- **Seed patterns in wait**, at worst against the one to use: `semaphore`: 83.9× …"]
    assert _not_rows(lines) == [lines[3]]


def test_every_headline_row_is_short(tmp_path):
    # The longest names the issue met: a cliff with three params, a disqualified seed, a starved case, a check.
    roles = {case("isolation", "roles", v, t, f"keys=1000;role={r};writers=1"): cost
             for v, read, write in (("mutex", 100.0, 100.0), ("concurrent-barrier-async", 8000.0, 80.0))
             for t in (2, 8) for r, cost in (("read", read * t), ("write", write * t))}
    markdown, _ = _report(tmp_path, {**MIXED, **ONCE, **STARVED, **roles}, STRESS)
    rows = _rows(_headlines(markdown))
    assert len(rows) >= 6
    assert [row for row in rows if len(row) > HEADLINE_ROW_MAX] == []
    # Control: the paragraph a headline used to be (the seeds of wait, issue 62: about 900 characters) is not.
    assert len("- **Seed patterns in wait**, at worst against the one to use: " + "x" * 840) > HEADLINE_ROW_MAX


def _first_screen(html: str) -> str:
    start = html.index('<section id="first-screen">')
    end = html.index("<nav", start)
    return html[start:end]


def test_the_seed_chart_is_on_the_first_screen_with_the_conditions_and_the_headlines(tmp_path):
    _, html = _report(tmp_path, {**MIXED, **ONCE})
    first = _first_screen(html)
    assert first.rstrip().endswith("</section>")
    assert "<strong>Busy or free:</strong>" in first and "<th class=\"l\">Pattern</th>" in first
    assert re.search(r'<section id="at-a-glance">.*<table.*</table>\s*<img alt="Seed patterns vs threads '
                     r'\(1, 2, 4, 8\)" src="data:image/png;base64,', first, re.S)
    # The only image of the first screen, and its rows fold their details.
    assert first.count("<img") == 1 and first.count("<details><summary>") >= 3
    assert (tmp_path / "report" / SEED_CHART_FILE).is_file()


def test_control_without_a_seed_pattern_behind_there_is_no_seed_chart(tmp_path):
    # Only the recommended seed (atomic-flag is no seed) and the variants that are not seeds: no line to draw.
    cases = {k: v for k, v in {**MIXED, **ONCE}.items() if k[2] not in ("concurrent-barrier-async", "dispatch-once",
                                                                         "array-tracker")}
    _, html = _report(tmp_path, cases)
    assert "<img" not in _first_screen(html)
    assert not (tmp_path / "report" / SEED_CHART_FILE).exists()


def test_the_first_screen_answers_what_to_use_with_its_cost_and_the_seed_beside_it(tmp_path):
    # Issue 73: per benchmark the variant to use within the CPUs, its ns/op with the interval, the seed's beside.
    markdown, _ = _report(tmp_path, {**MIXED, **ONCE})
    answer = markdown.split("\n**What to use within the CPUs**", 1)[1].split("\n**Headlines:**", 1)[0]
    rows = {line.split(" | ")[0].strip("| "): line for line in answer.splitlines() if line.startswith("| ")}
    # atomic-flag 2 ns/op at 2 threads; array-tracker 800 (400×) and dispatch-once 60 (30×), each with its noise.
    assert re.fullmatch(r"\| once/hit \| 2 threads \| `atomic-flag`, not proven \| 2\.\d\d \[\d\.\d\d, \d\.\d\d\] \| "
                        r"`array-tracker` [78]\d\d ns, [34]\d\d×<br>`dispatch-once` [56]\d\.\d ns, [23]\d\.\d× \|",
                        rows["once/hit"]), rows["once/hit"]
    assert rows["isolation/mixed"].startswith("| isolation/mixed | 2 threads | `mutex`, not proven | ")
    # It comes before the headlines, which come before the machine's box.
    assert markdown.index("**What to use within the CPUs**") < markdown.index("**Headlines:**") < markdown.index(
        "**The machine:**") < markdown.index("## Contents")
    # Negative control: a family without a seed pattern measured has nothing beside its pick.
    no_seed = {k: v for k, v in MIXED.items() if k[2] != "concurrent-barrier-async"}
    markdown, _ = _report(tmp_path, no_seed)
    assert re.search(r"\| isolation/mixed \| 2 threads \| `mutex`, not proven \| [\d.]+ \[[\d.]+, [\d.]+\] \| — \|",
                     markdown)


def test_the_machines_box_says_what_the_host_spoiled_and_what_the_controls_show(tmp_path):
    key = case("isolation", "mixed", "mutex", 2, "keys=1000;read_pct=0")
    loop = case("harness", "empty", "loop", 2)
    cases = {**MIXED, loop: 0.3}
    stolen = write_results(tmp_path / "v10.csv", cases, version=10, run=RUN, signals={key: {"steal": 0.5}})
    assert main(["report", str(stolen), "--out", str(tmp_path / "v10")]) == 0
    box = (tmp_path / "v10" / "report.md").read_text().split("\n**The machine:**", 1)[1].split("\n## ", 1)[0]
    assert "- **The host:** 15 of " in box and "spoiled" in box
    assert "**By chance:** the harness loops, which cannot starve, had a thread complete nothing in 0 of 15 samples" \
        in box
    # Negative control: a file before schema 10 says the host's share cannot be told.
    old = write_results(tmp_path / "v6.csv", cases, version=6, run=RUN)
    assert main(["report", str(old), "--out", str(tmp_path / "v6")]) == 0
    assert "- **The host:** no steal figure" in (tmp_path / "v6" / "report.md").read_text()


def test_a_packages_own_variant_is_priced_and_drawn_beside_the_seeds_marked_as_its(tmp_path):
    # Issue 73: a user's variants get the seeds' treatment on the first screen, named with their module.
    ticket = {case("isolation", "mixed", "ticket-lock", t, "keys=1000;read_pct=0"): c
              for t, c in ((1, 50.0), (2, 900.0), (4, 950.0), (8, 1000.0))}
    path = write_results(tmp_path / "run.csv", {**HARNESS, **MIXED, **ticket}, version=6, run=RUN, signals=CONVOY,
                         origins={"ticket-lock": "FlowKit"})
    assert main(["report", str(path), "--out", str(tmp_path / "report")]) == 0
    rows = _rows(_headlines((tmp_path / "report" / "report.md").read_text()))
    assert any(row.startswith("| `ticket-lock`\u00a0(FlowKit) (isolation) | `mutex`") for row in rows), rows
    html = (tmp_path / "report" / "report.html").read_text()
    assert "Seed patterns and your variants vs threads (1, 2, 4, 8)" in html
    # Negative control: without the package's variant, the chart is the seeds' alone.
    _, html = _report(tmp_path, MIXED)
    assert "Seed patterns vs threads (1, 2, 4, 8)" in html and "your variants" not in html


def test_a_variant_in_two_suites_is_named_once_and_one_thread_is_singular(tmp_path):
    # Issue 73: a brought lock joins isolation and harness/mutex-pair; the summary named it twice, and a case timed
    # at one thread read "at 1 threads".
    from analyze_lib.files.loader import load_results
    from analyze_lib.present.origin_marks import brought_in_rows

    lock = {case("isolation", "counter", "ticket-lock", 1): 4.4, case("harness", "mutex-pair", "ticket-lock", 1): 4.4,
            case("isolation", "counter", "mutex", 1): 15.0}
    origins = {"ticket-lock": "FlowKit"}
    path = write_results(tmp_path / "run.csv", {**HARNESS, **lock}, version=6, run=RUN, origins=origins)
    assert main(["report", str(path), "--out", str(tmp_path / "report")]) == 0
    markdown = (tmp_path / "report" / "report.md").read_text()
    assert "marked with their module in the tables: `ticket-lock` from FlowKit." in markdown
    [row] = brought_in_rows({("isolation", "ticket-lock"): "FlowKit", ("harness", "ticket-lock"): "FlowKit"},
                            list(load_results(path).cases), None)
    assert row[2] == "`harness/mutex-pair` at 1 thread; `isolation/counter` at 1 thread"


def test_a_runner_up_the_data_cannot_tell_from_the_pick_is_named_beside_it(tmp_path):
    # The first screen named one variant where the runner-up's factor interval held 1 (once/hit at 2 threads in a full
    # run: atomic-flag, dispatch-once-inline ≈1.01× [1.00, 1.03]); it now names both, as the decision table's ≈ does.
    inline = {case("once", "hit", "dispatch-once-inline", t, "tokens=1000"): 1.0 * t for t in (1, 2, 4, 8)}
    markdown, _ = _report(tmp_path, {**ONCE, **inline})
    answer = markdown.split("\n**What to use within the CPUs**", 1)[1].split("\n**Headlines:**", 1)[0]
    [row] = [line for line in answer.splitlines() if line.startswith("| once/hit |")]
    tie = r"≈1\.\d\d× \[\d\.\d\d,\s\d\.\d\d\] \(not told apart\), not proven"
    assert re.match(rf"\| once/hit \| 2 threads \| `(atomic-flag|dispatch-once-inline)`, not proven, or "
                    rf"`(atomic-flag|dispatch-once-inline)`\s{tie} \|", row), row
    # Control: a runner-up 1.5× the pick, its interval clear of 1, is not named beside it.
    slower = {key: cost * 1.5 for key, cost in inline.items()}
    markdown, _ = _report(tmp_path, {**ONCE, **slower})
    assert re.search(r"\| once/hit \| 2 threads \| `atomic-flag`, not proven \| ", markdown)
    assert "Runner-up" in markdown and re.search(r"`dispatch-once-inline`.1\.[45]\d×", markdown)
