"""Starved samples (ns_per_op=inf, ops=0) load, and every command handles them deterministically."""

from __future__ import annotations

import json
import math
import re
import warnings

import numpy as np
import pytest

from analyze_lib.judge import stats
from analyze_lib.cli import main
from analyze_lib.fmt import json_number
from analyze_lib.judge.compare import FASTER, SLOWER, UNCHANGED, compare
from analyze_lib.judge.evidence import UNMEASURED_FLOOR, Chance, StallFloor
from analyze_lib.files.loader import load_results
from analyze_lib.present.tables import which_one_tables
from analyze_lib.present.outcome_text import outcome_text
from csvgen import case, write_results

INF = math.inf
FINE = [100.0, 101.0, 102.0, 103.0, 104.0]
ALL_STARVED = [INF] * 5
MOSTLY_STARVED = [100.0, 101.0, INF, INF, INF]   # median starved, U test not significant
ONE_STARVED = [100.0, 101.0, 102.0, 103.0, INF]   # median finite, upper quartile finite

ROLES = "keys=1000;role=write;writers=1"


def _key(variant, threads=2):
    return case("isolation", "roles", variant, threads, ROLES)


BASE = {
    _key("starved-in-head"): FINE,
    _key("starved-in-base"): ALL_STARVED,
    _key("starved-in-both"): ALL_STARVED,
    _key("mostly-starved-head"): FINE,
    _key("one-starved"): FINE,
}
HEAD = {
    _key("starved-in-head"): ALL_STARVED,
    _key("starved-in-base"): FINE,
    _key("starved-in-both"): ALL_STARVED,
    _key("mostly-starved-head"): MOSTLY_STARVED,
    _key("one-starved"): ONE_STARVED,
}


@pytest.fixture()
def pair(tmp_path):
    return (write_results(tmp_path / "base.csv", BASE), write_results(tmp_path / "head.csv", HEAD))


@pytest.fixture(autouse=True)
def no_warnings():
    # NaN from inf - inf, divide by zero: none may escape as a warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def test_statistics_with_starved_samples():
    assert stats.median(ONE_STARVED) == 102.0
    assert stats.median(MOSTLY_STARVED) == INF
    assert stats.quartiles(ONE_STARVED) == (101.0, 103.0)
    assert stats.quartiles(MOSTLY_STARVED) == (101.0, INF)
    assert stats.quartiles([1.0, 2.0, 3.0, INF]) == (1.75, INF)
    assert stats.quartiles(ALL_STARVED) == (INF, INF)
    assert stats.starved_count(MOSTLY_STARVED) == 3
    assert stats.mann_whitney_p(np.array(ALL_STARVED), np.array(ALL_STARVED)) == 1.0
    assert stats.bootstrap_ratio_of_medians(np.array(ALL_STARVED), np.array(FINE)) == (
        stats.RatioEstimate(INF, INF, INF))
    assert stats.bootstrap_ratio_of_medians(np.array(FINE), np.array(ALL_STARVED)) == (
        stats.RatioEstimate(0.0, 0.0, 0.0))
    both = stats.bootstrap_ratio_of_medians(np.array(ALL_STARVED), np.array(ALL_STARVED))
    assert math.isnan(both.ratio) and (both.low, both.high) == (1.0, 1.0)


def test_percentile_matches_numpy_on_finite_values():
    rng = np.random.default_rng(5)
    for n in (1, 2, 5, 15):
        values = rng.lognormal(0, 1, n)
        for q in (2.5, 25, 50, 75, 97.5):
            assert stats.percentile(values, q) == np.percentile(values, q)


def test_compare_verdicts(pair):
    base, head = (load_results(p) for p in pair)
    rows = {r.key.variant: r for r in compare(base.cases, head.cases)}
    expected = {
        "starved-in-head": (SLOWER, "slower (starved in head)", "head"),
        "starved-in-base": (FASTER, "faster (starved in base)", "base"),
        "starved-in-both": (UNCHANGED, "no change (starved in both)", "both"),
        "mostly-starved-head": (UNCHANGED, "no change (starved in head, not significant)", "head"),
        "one-starved": (UNCHANGED, "no change", None),
    }
    assert {v: (r.verdict, outcome_text(r), r.starved) for v, r in rows.items()} == expected
    assert rows["one-starved"].head_starved == 1 and rows["starved-in-head"].head_starved == 5


def test_gate_fails_on_starved_head_and_json_is_strict(pair, capsys):
    assert main(["gate", str(pair[0]), str(pair[1]), "--format", "json"]) == 1
    text = capsys.readouterr().out
    assert "Infinity" not in text and "NaN" not in text
    document = json.loads(text)
    assert document["format_version"] == 6
    cases = {c["variant"]: c for c in document["cases"]}
    head = cases["starved-in-head"]
    assert (head["head_median_ns"], head["ratio"], head["starved"]) == ("inf", "inf", "head")
    assert head["head_starved_samples"] == 5 and head["base_starved_samples"] == 0
    assert cases["starved-in-base"]["ratio"] == 0.0
    assert cases["starved-in-both"]["ratio"] is None
    assert document["gate"]["passed"] is False and document["gate"]["slower"] == 1
    # Starved cases have no ratio to average: only "one-starved" is in the geometric mean.
    assert document["suite_geomean_ratio"]["isolation"]["cases"] == 1
    # One round a side: no interval to resample, null rather than a number.
    assert (document["suite_geomean_ratio"]["isolation"]["ci_low"], document["ci_confidence"]) == (None, 0.99)


def test_text_and_markdown_say_starved(pair, capsys):
    assert main(["compare", str(pair[0]), str(pair[1])]) == 0
    out = capsys.readouterr().out
    # The special values are words where they appear: a starved median, the ratio it gives, no interval.
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("isolation/roles/starved-in")}
    assert re.split(r"\s{2,}", rows["isolation/roles/starved-in-head"].strip())[-5:] == [
        "starved", "∞ (head starved)", "none (a median is starved)", "0.0075", "slower (starved in head)"]
    assert "  0 (base starved)  none (a median is starved)  " in rows["isolation/roles/starved-in-base"]
    assert "  none (both starved)  none (a median is starved)  " in rows["isolation/roles/starved-in-both"]
    assert "4 cases with a starved median" in out
    assert main(["gate", str(pair[0]), str(pair[1])]) == 1
    assert "**slower (starved in head)**" in capsys.readouterr().out


def test_json_number():
    assert (json_number(1.5), json_number(INF), json_number(math.nan)) == (1.5, "inf", None)


def test_report_and_history_with_starved_cases(pair, tmp_path):
    out = tmp_path / "report"
    assert main(["report", str(pair[1]), "--out", str(out)]) == 0
    markdown = (out / "report.md").read_text()
    assert "## Starved samples" in markdown
    assert ("| isolation/roles/starved-in-head threads:2 keys=1000;role=write;writers=1 | 5 of 5 | 0 of 5 | starved |"
            in markdown)
    assert "| 5 (1 starved) | 102 | 101–103 |" in markdown
    assert (out / "isolation-roles-by-threads.png").exists() is False  # one thread count: no chart
    history = tmp_path / "history"
    assert main(["history", str(pair[0]), str(pair[1]), "--out", str(history)]) == 0
    assert "slower (starved in head)" in (history / "history.md").read_text()


def test_charts_draw_starved_points(tmp_path):
    cases = {}
    for threads in (2, 4, 8):
        cases[_key("rwlock", threads)] = ALL_STARVED if threads == 4 else MOSTLY_STARVED if threads == 8 else FINE
        cases[_key("mutex", threads)] = ONE_STARVED
    path = write_results(tmp_path / "run.csv", cases)
    out = tmp_path / "report"
    assert main(["report", str(path), "--out", str(out)]) == 0
    assert (out / "isolation-roles-by-threads.png").stat().st_size > 0


def test_which_one_table_ranks_starved_last(tmp_path):
    path = write_results(tmp_path / "run.csv", {
        _key("rwlock"): ALL_STARVED, _key("mutex"): FINE, _key("nslock"): [200.0] * 5,
        _key("a", 4): ALL_STARVED, _key("b", 4): ALL_STARVED})
    [(name, table)] = which_one_tables(load_results(path).cases, logical_cpus=4, cpu_share=None,
                                       floor=UNMEASURED_FLOOR)
    assert name == "isolation/roles"
    assert table.headers[3:] == ("a", "b", "mutex", "nslock", "rwlock")
    assert table.rows[0][1:] == ("**mutex**", "102", "", "", "**1.00**", "1.96", "starved")
    assert table.rows[1][1:] == ("(all starved)", "starved", "starved", "starved", "", "", "")


def _with_cells(path, line, **cells):
    lines = path.read_text().splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    row = lines[line - 1].rstrip("\n").split(",")
    for column, value in cells.items():
        row[header.index(column)] = value
    lines[line - 1] = ",".join(row) + "\n"
    path.write_text("".join(lines))
    return path


@pytest.mark.parametrize("cells, message", [
    ({"ns_per_op": "inf"}, "ns_per_op is 'inf' but ops is 100000: only a starved sample (ops = 0) "
                           "may have an infinite ns_per_op"),
    ({"ops": "0"}, "ops is 0 but ns_per_op is '100.0': a starved sample (no operation completed) "
                   "must have ns_per_op = inf"),
    ({"ns_per_op": "0"}, "ns_per_op is 0: bench never writes 0 (the smallest real values are about "
                         "0.1 ns), and ratios of medians need positive values"),
    ({"ns_per_op": "-3.5"}, "ns_per_op must be positive: '-3.5'"),
    ({"ns_per_op": "nan"}, "ns_per_op is not a number or 'inf': 'nan'"),
    ({"ns_per_op": "-inf", "ops": "0"}, "ns_per_op is not a number or 'inf': '-inf'"),
    ({"ops": "-1"}, "ops must not be negative: -1"),
])
def test_impossible_metric_values_exit_2(tmp_path, capsys, cells, message):
    path = _with_cells(write_results(tmp_path / "bad.csv", {case(): [100.0] * 5}), 4, **cells)
    assert main(["report", str(path), "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == f"analyze: {path}:4: {message}\n"


# Controls that looked starved in none of 200 samples: a floor of 1 in 202.
CLEAN_CONTROLS = StallFloor(Chance(looked=0, samples=200))
# Controls that looked starved in 20 of 200: two zero samples of six are chance at that rate.
STALLING_CONTROLS = StallFloor(Chance(looked=20, samples=200))


@pytest.mark.parametrize("samples, floor, disqualified", [
    ([[100.0] * 4 + [INF]], CLEAN_CONTROLS, None),  # one sample of five: no evidence (issue 73)
    ([[100.0, 101.0], [INF, 102.0], [103.0, 104.0]], CLEAN_CONTROLS, None),  # one of six, in one round
    ([[100.0, INF], [INF, 102.0], [103.0, 104.0]], CLEAN_CONTROLS,
     "starved in 2 of 6 samples (2 of 3 rounds; the controls looked starved in 0 of 200)"),
    ([[INF, INF, 100.0, 101.0, 102.0]], CLEAN_CONTROLS,
     "starved in 2 of 5 samples (1 of 1 round; the controls looked starved in 0 of 200)"),
    # The same two samples beside controls that stall as often, or beside none (1 in 20 assumed): chance.
    ([[100.0, INF], [INF, 102.0], [103.0, 104.0]], STALLING_CONTROLS, None),
    ([[100.0, INF], [INF, 102.0], [103.0, 104.0]], UNMEASURED_FLOOR, None),
])
def test_a_variant_is_never_disqualified_as_starved_on_one_sample(tmp_path, samples, floor, disqualified):
    """Issue 73: one sample without an operation can be a batch published after the sample's end, or a vCPU the host
    took; a variant is starved only on two such samples or more (and STARVED_SHARE of them), beyond the rate the run's
    controls looked starved at, and the reason says in how many samples and rounds, and what the floor rests on."""
    from analyze_lib.judge.decisions import disqualification, role_rows

    key = case("once", "hit", "os-lock", 8)
    cases = load_results(write_results(tmp_path / "r.csv", {key: samples}, version=9)).cases
    [found] = cases.values()
    assert disqualification(found, role_rows(cases.values()), 2, cpu_share=None, floor=floor) == disqualified



# A run whose file holds its controls, harness/empty/loop at 1 and 2 threads, 100 samples each and none starved (a
# floor of 1 in 202), beside once/hit at 2 threads, where `os-lock` completed nothing in 2 of its 5 samples: beyond
# that floor, but chance at the 1 in 20 assumed where no control was timed (as in the test above).
FLOOR_CONTROLS = {case("harness", "empty", "loop", 1): [1.0] * 100, case("harness", "empty", "loop", 2): [1.0] * 100}
FLOOR_HIT = {case("once", "hit", "os-lock", 2): [INF, INF, 100.0, 101.0, 102.0],
             case("once", "hit", "dispatch-once", 2): [20.0, 21.0, 22.0, 23.0, 24.0]}
# What each of the report's judges says of `os-lock` when it is starved: the decision table (decisions.decide and
# disqualified_anywhere), the which-one table's mark (tables.which_one_tables) and the headline (diagnosis.diagnose).
STARVED_SAYS = ("starved in 2 of 5 samples (1 of 1 round; the controls looked starved in 0 of 200)",
                "| threads:2 | **dispatch-once** | 22.0 | **1.00** | 4.64 ✗ |",
                "| 1 starved case | — | — | starvation beyond chance")


def _report_of(tmp_path, cases: dict, *options: str) -> str:
    """The Markdown ``analyze report`` writes of a version-9 file of ``cases``, given ``options``."""
    tmp_path.mkdir(exist_ok=True)
    path = write_results(tmp_path / "run.csv", cases, version=9)
    out = tmp_path / "report"
    assert main(["report", str(path), "--out", str(out), *options]) == 0
    return (out / "report.md").read_text()


def test_a_report_filtered_past_the_harness_judges_with_the_whole_runs_floor(tmp_path):
    """A report filter that leaves out the harness judges starvation with the floor the run's controls set over the
    whole file, as its machine box states it, not with the rate assumed where no control was timed: the decisions,
    the which-one table and the diagnosis each call `os-lock` starved."""
    markdown = _report_of(tmp_path, {**FLOOR_CONTROLS, **FLOOR_HIT}, "--filter", "^once/")
    assert "2 cases from" in markdown and "## Harness overhead" not in markdown  # the filter left the controls out
    assert "had a thread complete nothing in 0 of 200 samples" in markdown
    assert [said for said in STARVED_SAYS if said not in markdown] == []


def test_the_whole_runs_report_judges_as_its_filtered_report_and_a_run_without_controls_does_not(tmp_path):
    """Negative controls: the same run reported whole, its controls among the cases, says the same of `os-lock`; a
    run that timed no control judges the same samples at the rate assumed (1 in 20), where 2 of 5 is chance."""
    whole = _report_of(tmp_path / "whole", {**FLOOR_CONTROLS, **FLOOR_HIT})
    assert "4 cases from" in whole and "## Harness overhead" in whole
    assert [said for said in STARVED_SAYS if said not in whole] == []
    uncontrolled = _report_of(tmp_path / "uncontrolled", FLOOR_HIT)
    assert "no control was timed" in uncontrolled
    assert [said for said in STARVED_SAYS if said in uncontrolled] == []


def test_a_thread_that_starved_while_the_others_ran_is_listed_with_the_starved_samples(tmp_path):
    # A headline names a case starved beyond chance and leads here: a thread of a 2-thread case completed none while
    # the other ran (thread_ops_min 0), as once/hit/array-tracker at tokens=10000 did in 2 of 5 samples in a quiet
    # full run; the section lists it with those samples, beside the samples with no operation at all.
    cases = {_key("array-tracker", 2): [100.0] * 5, _key("array-tracker", 4): [100.0] * 5}
    ops = dict.fromkeys(cases, (0, 200))
    path = write_results(tmp_path / "run.csv", cases, thread_ops=ops, run={"logical_cpus": "2"})
    out = tmp_path / "report"
    assert main(["report", str(path), "--out", str(out)]) == 0
    section = (out / "report.md").read_text().split("## Starved samples", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"\| isolation/roles/array-tracker threads:2 \S+ \| 0 of 5 \| 5 of 5 \| 100 \|", section), section
    # Control: beyond the CPUs a thread with nothing may have waited for one: not listed.
    assert "array-tracker threads:4" not in section
