"""A report never recommends a variant that failed a stress check (issue 60): given a stress file, a variant with a
forbidden outcome in any of its checks is disqualified in every situation of its suite, with the check named, in
Markdown and HTML, whatever --filter matched; it stands in no Use or Runner-up cell, no Fastest cell unmarked and no
headline as the one to use. Each test has its negative control: the same timings with a clean stress file, where the
same variant is recommended. Without a stress file the report says once, near the top, that correctness was not
checked."""

from __future__ import annotations

from analyze_lib.cli import main
from csvgen import case, caught_control, outcome, write_results, write_stress

RUN = {"logical_cpus": "2", "run_threads": "1,2,8"}
HARNESS = {case("harness", "empty", "loop", t): 0.3 for t in (1, 2)}
MIXED = "keys=1000;read_pct=100"
# copy-outside (a package's) is the fastest store at every thread count; concurrent-barrier-async, the seeds'
# pattern, the slowest, beyond the avoid line.
STORES = {"copy-outside": 20.0, "mutex": 40.0, "nslock": 60.0, "concurrent-barrier-async": 400.0}
CASES = {**HARNESS, **{case("isolation", "mixed", variant, threads, MIXED): ns * threads
                       for threads in (1, 2, 8) for variant, ns in STORES.items()}}
# A lock brought with Variant.lock joins harness/mutex-pair as well as the isolation suite.
CASES.update({case("harness", "mutex-pair", "copy-outside", t): 9.0 for t in (1, 2)})
ORIGINS = {"copy-outside": "CacheKit"}
CONTROLS = [caught_control("control/isolation/racy-store/lost-writes", forbidden="write-lost")]


def _checks(variant: str, lost: int = 0, module: str = "built-in") -> list[dict]:
    """``variant``'s isolation checks at 1 and 2 threads; ``lost`` forbidden lost writes at 2 threads."""
    rows = []
    for threads in (1, 2):
        for check, seen in (("lost-writes", "no-write-lost"), ("read-your-writes", "read-saw-own-write")):
            rows.append({**outcome(f"isolation/{variant}/{check}", threads, seen), "variant_origin": module})
        if lost and threads == 2:
            rows.append({**outcome(f"isolation/{variant}/lost-writes", threads, "write-lost", "forbidden",
                                   count=lost), "variant_origin": module})
    return rows


def _report(tmp_path, stress_rows: list | None, *options: str) -> tuple[str, str]:
    timings = write_results(tmp_path / "run.csv", CASES, version=6, run=RUN, origins=ORIGINS)
    files = [str(timings)]
    if stress_rows is not None:
        files.append(str(write_stress(tmp_path / "stress.csv", stress_rows, version=4)))
    out = tmp_path / "report"
    assert main(["report", *files, "--out", str(out), *options]) == 0
    return (out / "report.md").read_text(), (out / "report.html").read_text()


def _stress(failing: str | None) -> list[dict]:
    """Every store's checks, ``failing``'s with lost writes; copy-outside's carry its module."""
    rows = []
    for variant in STORES:
        module = ORIGINS.get(variant, "built-in")
        rows += _checks(variant, lost=64 if variant == failing else 0, module=module)
    return rows + CONTROLS


def _decision_rows(markdown: str) -> list[list[str]]:
    """The isolation decision table's rows as cells: benchmark, situation, use, runner-up, avoid, disqualified."""
    table = markdown.split("### Which one to use", 1)[1].split("\n\n")
    rows = next(block for block in table if block.startswith("| Benchmark"))
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in rows.splitlines()[2:]]


def _headlines(markdown: str) -> str:
    return markdown.split("\n**Headlines:**\n", 1)[1].split("\n## ", 1)[0]


def test_a_variant_that_would_win_is_disqualified_in_every_situation_with_its_check_named(tmp_path):
    markdown, html = _report(tmp_path, _stress("copy-outside"))
    rows = _decision_rows(markdown)
    assert len(rows) == 3  # 1 thread, contended, oversubscribed
    for _, situation, use, runner_up, avoid, disqualified in rows:
        assert "copy-outside" not in use + runner_up + avoid, situation
        assert use.startswith("**`mutex`**"), situation
        assert disqualified.startswith("`copy-outside`\u00a0(CacheKit)\u00a0"), situation
        assert ": fastest by median, but failed stress: `lost-writes` (write-lost)" in disqualified, situation
    assert "fastest by median, but failed stress: <code>lost-writes</code> (write-lost)" in html
    # The table of every scenario marks it, not as a plain fastest.
    assert "**copy-outside\u00a0(CacheKit)** ✗" in markdown
    assert "**copy-outside\u00a0(CacheKit)** |" not in markdown


def test_control_the_same_timings_with_clean_checks_recommend_it(tmp_path):
    markdown, _ = _report(tmp_path, _stress(None))
    for _, situation, use, _, _, disqualified in _decision_rows(markdown):
        assert use.startswith("**`copy-outside`\u00a0(CacheKit)**"), situation
        assert "failed stress" not in disqualified
    assert "**copy-outside\u00a0(CacheKit)** |" in markdown


def test_a_variant_that_would_lose_leaves_avoid_for_disqualified(tmp_path):
    seed = "concurrent-barrier-async"
    markdown, _ = _report(tmp_path, _stress(seed))
    for _, situation, use, runner_up, avoid, disqualified in _decision_rows(markdown):
        assert seed not in use + runner_up + avoid, situation
        assert f"`{seed}`\u00a0" in disqualified, situation
        assert "×: failed stress: `lost-writes` (write-lost)" in disqualified, situation
    headlines = _headlines(markdown)
    row = next(line for line in headlines.splitlines() if line.startswith(f"| `{seed}` (isolation) |"))
    assert "| disqualified: failed stress: `lost-writes`, at mixed, " in row
    # Control: clean checks leave it avoided, not disqualified.
    markdown, _ = _report(tmp_path, _stress(None))
    for _, situation, _, _, avoid, disqualified in _decision_rows(markdown):
        assert f"`{seed}`" in avoid and seed not in disqualified, situation


def test_a_seed_that_failed_is_never_the_one_to_use_in_a_headline(tmp_path):
    """The seeds' store made the fastest: clean, the headline says it is the one to use; failed, it does not."""
    # key: (suite, benchmark, variant, threads, …)
    fast = {key: (5.0 * key[3] if key[2] == "concurrent-barrier-async" else ns)
            for key, ns in CASES.items()}
    timings = write_results(tmp_path / "fast.csv", fast, version=6, run=RUN, origins=ORIGINS)
    said = {}
    for failing in (None, "concurrent-barrier-async"):
        stress = write_stress(tmp_path / "stress.csv", _stress(failing), version=4)
        out = tmp_path / f"report-{failing}"
        assert main(["report", str(timings), str(stress), "--out", str(out)]) == 0
        said[failing] = _headlines((out / "report.md").read_text())
    seed = "| `concurrent-barrier-async` (isolation) | "
    assert f"{seed}— | — | the one to use wherever measured within the CPUs" in said[None]
    row = next(line for line in said["concurrent-barrier-async"].splitlines() if line.startswith(seed))
    # (The package's own variant, priced beside the seeds, may be the one to use in its row.)
    assert "the one to use" not in row
    assert "| disqualified: failed stress: `lost-writes`, at mixed, " in row


def test_a_filter_that_matches_no_check_name_still_disqualifies(tmp_path):
    """--filter '^isolation/mixed/' matches the timed cases and none of the check names (isolation/<variant>/...):
    the failure still disqualifies, and the report shows the failed check it names."""
    markdown, _ = _report(tmp_path, _stress("copy-outside"), "--filter", "^isolation/mixed/")
    for _, situation, use, runner_up, _, disqualified in _decision_rows(markdown):
        assert "copy-outside" not in use + runner_up and "failed stress: `lost-writes`" in disqualified, situation
    assert "`isolation/copy-outside/lost-writes`" in _headlines(markdown)


def test_without_a_stress_file_the_report_says_once_that_correctness_was_not_checked(tmp_path):
    markdown, html = _report(tmp_path, None)
    top = markdown.split("## Contents", 1)[0]
    assert markdown.count("Correctness was not checked in this report") == 1
    assert "Correctness was not checked in this report" in top
    assert "Correctness was not checked in this report" in html
    markdown, _ = _report(tmp_path, _stress(None))
    assert "Correctness was not checked" not in markdown


def test_the_brought_in_table_lists_each_variant_once_and_marks_its_failed_check(tmp_path):
    """copy-outside joins harness/mutex-pair and the isolation suite: one row, with both benchmarks and its checks,
    the failed one marked; without a stress file the row says none was given."""
    def listed(markdown: str) -> str:
        return markdown.split("## Variants brought from outside")[1].split("\n## ")[0]

    markdown, _ = _report(tmp_path, _stress("copy-outside"))
    rows = [line for line in listed(markdown).splitlines() if line.startswith("| `copy-outside`")]
    assert rows == ["| `copy-outside` | CacheKit | `harness/mutex-pair` at 1 and 2 threads; `isolation/mixed` at 1, 2 "
                    "and 8 threads | **`lost-writes` FAILED** (write-lost), `read-your-writes` |"]
    markdown, _ = _report(tmp_path, _stress(None))
    assert "| CacheKit | `harness/mutex-pair` at 1 and 2 threads; `isolation/mixed` at 1, 2 and 8 threads | " \
           "`lost-writes`, `read-your-writes` |" in listed(markdown)
    markdown, _ = _report(tmp_path, None)
    assert "| no stress file given |" in listed(markdown)
