"""compare and gate on counts files: exact judgement in both directions, the gate's exit
codes, the renderers, and the usage errors of mixing kinds or options."""

from __future__ import annotations

import json

import pytest

from analyze_lib.cli import main
from analyze_lib.judge.counts_compare import (
    BETTER,
    FEWER,
    MORE,
    UNCHANGED,
    WORSE,
    compare_counts,
    judge_allocations,
    judge_instructions,
)
from analyze_lib.exit_codes import EXIT_INCOMPLETE, EXIT_PASSED, EXIT_REGRESSION
from analyze_lib.files.loader import load_counts
from analyze_lib.present.counts_render import counts_change_text
from csvgen import case, write_counts, write_results

EXIT_BAD_INPUT = 2


# The judgement itself: exact, a tolerance, both directions.

def test_instructions_beyond_the_tolerance_are_a_change_either_way():
    assert judge_instructions(100.0, 102.0, 1.0) == MORE      # +2% at 1%
    assert judge_instructions(100.0, 100.5, 1.0) is None      # +0.5% at 1%
    assert judge_instructions(100.0, 98.0, 1.0) == FEWER      # -2%
    assert judge_instructions(100.0, 99.5, 1.0) is None
    assert judge_instructions(100.0, 101.0, 1.0) is None      # exactly 1% is within it
    assert judge_instructions(100.0, 101.01, 1.0) == MORE
    assert judge_instructions(100.0, 100.0, 0.0) is None
    assert judge_instructions(100.0, 100.0001, 0.0) == MORE   # 0: any difference
    assert judge_instructions(100.0, 102.0, 5.0) is None


def test_allocations_of_at_least_the_tolerance_are_a_change_either_way():
    assert judge_allocations(0.0, 1.0, 0.01) == MORE
    assert judge_allocations(1.0, 0.0, 0.01) == FEWER
    assert judge_allocations(0.0, 0.01, 0.01) == MORE          # at least 0.01 counts
    assert judge_allocations(0.0, 0.005, 0.01) is None
    assert judge_allocations(2.0, 1.995, 0.01) is None
    assert judge_allocations(0.0, 0.0001, 0.0) == MORE         # 0: any difference
    assert judge_allocations(0.5, 0.5, 0.0) is None


# Fixture files: one case per kind of change, instructions and allocations per op.
BASE = {
    case(variant="same"): (100.0, 1.0),
    case(variant="two-percent-more"): (100.0, 0.0),
    case(variant="half-percent-more"): (100.0, 0.0),
    case(variant="three-percent-fewer"): (100.0, 0.0),
    case(variant="allocates-now"): (100.0, 0.0),
    case(variant="allocates-no-more"): (100.0, 1.0),
}
HEAD = {
    case(variant="same"): (100.0, 1.0),
    case(variant="two-percent-more"): (102.0, 0.0),
    case(variant="half-percent-more"): (100.5, 0.0),
    case(variant="three-percent-fewer"): (97.0, 0.0),
    case(variant="allocates-now"): (100.0, 1.0),
    case(variant="allocates-no-more"): (100.0, 0.0),
}
VERDICTS = {
    "same": (UNCHANGED, "no change"),
    "two-percent-more": (WORSE, "more instructions (+2.0%)"),
    "half-percent-more": (UNCHANGED, "no change"),
    "three-percent-fewer": (BETTER, "fewer instructions (-3.0%)"),
    "allocates-now": (WORSE, "more allocations (+1.000/op)"),
    "allocates-no-more": (BETTER, "fewer allocations (-1.000/op)"),
}


def _files(tmp_path, base=BASE, head=HEAD, base_run=None, head_run=None):
    return (write_counts(tmp_path / "base-counts.csv", base, run=base_run),
            write_counts(tmp_path / "head-counts.csv", head, run=head_run))


def _run(tmp_path, capsys, command, *options, base=BASE, head=HEAD, fmt="text"):
    b, h = _files(tmp_path, base, head)
    code = main([command, str(b), str(h), "--format", fmt, *options])
    return code, capsys.readouterr().out


def test_verdicts_on_known_counts(tmp_path):
    b, h = _files(tmp_path)
    rows = compare_counts(load_counts(b).cases, load_counts(h).cases)
    assert {row.key.variant: (row.verdict, counts_change_text(row)) for row in rows} == VERDICTS


def test_a_case_with_more_of_one_and_fewer_of_the_other_is_worse(tmp_path):
    b, h = _files(tmp_path, {case(): (100.0, 0.0)}, {case(): (90.0, 1.0)})
    [row] = compare_counts(load_counts(b).cases, load_counts(h).cases)
    assert (row.instructions, row.allocations, row.verdict) == (FEWER, MORE, WORSE)
    assert counts_change_text(row) == "fewer instructions (-10.0%); more allocations (+1.000/op)"


def test_compare_text_output_exact(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, "compare")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "DispatchBench counts comparison"
    assert lines[2] == ("head: 0123456 on bench-1 (Test CPU @ 3.0GHz, 4 CPUs), release, Swift 6.0.3, "
                        "2026-11-21T23:45:01Z")
    assert lines[4:11] == [
        "Case                                    Base instr/op  Head instr/op   Ratio  Base allocs/op  Head allocs/op"
        "  Difference  Verdict",
        "once/hit/allocates-now threads:1               100.00         100.00  1.0000           0.000           1.000"
        "      +1.000  more allocations (+1.000/op)",
        "once/hit/two-percent-more threads:1            100.00         102.00  1.0200           0.000           0.000"
        "           0  more instructions (+2.0%)",
        "once/hit/allocates-no-more threads:1           100.00         100.00  1.0000           1.000           0.000"
        "      -1.000  fewer allocations (-1.000/op)",
        "once/hit/three-percent-fewer threads:1         100.00          97.00  0.9700           0.000           0.000"
        "           0  fewer instructions (-3.0%)",
        "once/hit/half-percent-more threads:1           100.00         100.50  1.0050           0.000           0.000"
        "           0  no change",
        "once/hit/same threads:1                        100.00         100.00  1.0000           1.000           1.000"
        "           0  no change",
    ]
    assert lines[12].startswith("2 worse, 2 better, 2 unchanged. Counts are exact")
    assert "more than 1% of base or its allocations per op by at least 0.01, either way" in lines[12]


def test_gate_fails_on_worse_cases_and_names_the_better_ones(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, "gate", fmt="md")
    assert code == EXIT_REGRESSION
    assert "**Gate: FAILED, 2 cases worse (more instructions or allocations per op)**" in out
    assert "> Also: 2 cases better (fewer instructions or allocations per op: check why)" in out
    assert "| Case | Base instr/op | Head instr/op | Ratio | Base allocs/op | Head allocs/op | Difference | Verdict |" \
        in out
    assert ("| `once/hit/two-percent-more threads:1` | 100.00 | 102.00 | 1.0200 | 0.000 | 0.000 | 0 "
            "| **more instructions (+2.0%)** |") in out
    assert ("| `once/hit/allocates-no-more threads:1` | 100.00 | 100.00 | 1.0000 | 1.000 | 0.000 | -1.000 "
            "| **fewer allocations (-1.000/op)** |") in out
    assert "<details><summary>2 unchanged cases</summary>" in out


def test_gate_passes_on_improvements_and_lists_them(tmp_path, capsys):
    improved = {k: v for k, v in HEAD.items() if VERDICTS[k[2]][0] != WORSE}
    code, out = _run(tmp_path, capsys, "gate", base={k: BASE[k] for k in improved}, head=improved)
    assert code == EXIT_PASSED
    lines = out.splitlines()
    assert lines[-1] == ("Gate: passed, no case worse; 2 cases better (fewer instructions or allocations "
                         "per op: check why)")
    assert any(line.endswith("fewer allocations (-1.000/op)") for line in lines)


def test_gate_passes_on_identical_counts(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, "gate", base=BASE, head=BASE)
    assert code == EXIT_PASSED
    assert out.splitlines()[-1] == "Gate: passed, no case worse"


@pytest.mark.parametrize("options, variant, worse", [
    (("--instructions-tolerance", "0"), "half-percent-more", True),   # +0.5% at 0: any difference
    (("--instructions-tolerance", "5"), "two-percent-more", False),
    (("--allocations-tolerance", "2"), "allocates-now", False),
])
def test_tolerance_options(tmp_path, capsys, options, variant, worse):
    code, out = _run(tmp_path, capsys, "compare", *options, fmt="json")
    document = json.loads(out)
    [row] = [c for c in document["cases"] if c["variant"] == variant]
    assert (row["verdict"] == WORSE) is worse


def test_missing_cases_fail_the_gate_unless_allowed(tmp_path, capsys):
    head = {k: v for k, v in BASE.items() if k[2] in ("same", "two-percent-more")}
    code, out = _run(tmp_path, capsys, "gate", base=BASE, head={k: BASE[k] for k in head})
    assert code == EXIT_INCOMPLETE
    lines = out.splitlines()
    assert lines[-1] == ("Gate: INCOMPLETE, 4 of 6 base cases are missing from head (interrupted or filtered run? "
                         "--allow-missing if filtered on purpose)")
    at = lines.index("Missing from head (4):")
    assert lines[at + 1].startswith("  once (4): hit/allocates-no-more threads:1, hit/allocates-now threads:1")

    code, out = _run(tmp_path, capsys, "gate", "--allow-missing", base=BASE, head={k: BASE[k] for k in head})
    assert code == EXIT_PASSED
    assert "4 of 6 base cases are missing from head: not gated (--allow-missing)" in out

    code, out = _run(tmp_path, capsys, "gate", base=BASE, head={k: HEAD[k] for k in head})
    assert code == EXIT_REGRESSION  # a worse case outranks missing ones
    assert "Also: 4 of 6 base cases are missing from head" in out


def test_cases_only_in_head_do_not_fail_the_gate(tmp_path, capsys):
    head = {**BASE, case(variant="new"): (5.0, 3.0)}
    code, out = _run(tmp_path, capsys, "gate", base=BASE, head=head)
    assert code == EXIT_PASSED
    assert "Only in head (1):\n  once (1): hit/new threads:1\n" in out


def test_gate_json(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, "gate", fmt="json")
    assert code == EXIT_REGRESSION
    document = json.loads(out)
    assert (document["format_version"], document["kind"]) == (6, "counts")
    assert (document["instructions_tolerance_percent"], document["allocations_tolerance"]) == (1.0, 0.01)
    assert document["outcomes"] == {"worse": 2, "better": 2, "unchanged": 2}
    assert document["gate"] == {"status": "regression", "passed": False, "exit_code": 1, "worse": 2,
                                "better": 2, "missing": 0, "allow_missing": False}
    row = next(c for c in document["cases"] if c["variant"] == "two-percent-more")
    assert row["base"] == {"iterations": 1000, "operations": 10000, "instructions": 1000000,
                           "instructions_per_op": 100.0, "allocations": 0, "allocations_per_op": 0.0}
    assert row["head"]["instructions"] == 1020000
    assert row["instructions_ratio"] == pytest.approx(1.02)
    assert (row["instructions_change"], row["allocations_change"], row["verdict"]) == ("more", None, "worse")


def test_timing_json_says_its_kind(tmp_path, capsys):
    b = write_results(tmp_path / "b.csv", {case(): 100.0}, seed=1)
    h = write_results(tmp_path / "h.csv", {case(): 100.0}, seed=2)
    assert main(["compare", str(b), str(h), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["kind"] == "timing"


def test_counts_warnings_name_what_changes_counts(tmp_path, capsys):
    b, h = _files(tmp_path, head_run={"swift_version": "6.1", "host": "other", "build": "debug"})
    assert main(["compare", str(b), str(h), "--format", "json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["warnings"]
    assert warnings == [
        "different Swift version: base '6.0.3', head '6.1'; counts may differ for that reason alone",
        "different build: base 'release', head 'debug'; counts may differ for that reason alone",
        "head is a 'debug' build: its counts are not a release build's",
    ]  # not the host: callgrind counts the same instructions on any machine of one CPU model


def _one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert captured.out == ""
    return lines[0]


@pytest.mark.parametrize("command", ["compare", "gate"])
def test_timing_against_counts_is_a_usage_error(tmp_path, capsys, command):
    counts = write_counts(tmp_path / "counts.csv", BASE)
    timing = write_results(tmp_path / "timing.csv", {case(): 100.0}, version=3)
    assert main([command, str(timing), str(counts)]) == EXIT_BAD_INPUT
    assert _one_error_line(capsys) == (f"analyze: {timing} is a timing file but {counts} is a counts file: "
                                       "compare two timing files or two counts files")
    assert main([command, str(counts), str(timing)]) == EXIT_BAD_INPUT
    assert "is a counts file but" in _one_error_line(capsys)


@pytest.mark.parametrize("kind, option, message", [
    ("counts", ["--threshold", "5"], "--threshold does not apply to counts files (they are judged by "
                                     "--instructions-tolerance and --allocations-tolerance)"),
    ("counts", ["--alpha", "0.05"], "--alpha does not apply to counts files"),
    ("timing", ["--instructions-tolerance", "2"], "--instructions-tolerance does not apply to timing files "
                                                  "(they are judged by --threshold and --alpha)"),
    ("timing", ["--allocations-tolerance", "0"], "--allocations-tolerance does not apply to timing files"),
])
def test_options_of_the_other_kind_are_refused(tmp_path, capsys, kind, option, message):
    if kind == "counts":
        b, h = _files(tmp_path)
    else:
        b = write_results(tmp_path / "b.csv", {case(): 100.0})
        h = write_results(tmp_path / "h.csv", {case(): 100.0})
    assert main(["gate", str(b), str(h), *option]) == EXIT_BAD_INPUT
    assert _one_error_line(capsys).startswith(f"analyze: {message}")


@pytest.mark.parametrize("option, value", [("--instructions-tolerance", "-1"), ("--instructions-tolerance", "x"),
                                           ("--instructions-tolerance", "1000"), ("--allocations-tolerance", "-0.5"),
                                           ("--allocations-tolerance", "inf")])
def test_bad_tolerance_values_are_usage_errors(tmp_path, option, value):
    with pytest.raises(SystemExit) as exit_info:
        main(["gate", "a.csv", "b.csv", option, value])
    assert exit_info.value.code == EXIT_BAD_INPUT


def test_bad_counts_file_exits_2_naming_file_and_line(tmp_path, capsys):
    good, bad = _files(tmp_path)
    bad.write_text(bad.read_text().replace("1020000", "1020000x", 1))
    assert main(["gate", str(good), str(bad)]) == EXIT_BAD_INPUT
    assert _one_error_line(capsys) == f"analyze: {bad}:3: instructions is not an integer: '1020000x'"


def test_history_takes_a_counts_file_beside_the_timing_ones(tmp_path, capsys):
    runs = tmp_path / "runs"
    runs.mkdir()
    write_results(runs / "timing.csv", {case(): 100.0})
    write_counts(runs / "counts.csv", BASE)
    assert main(["history", str(runs), "--out", str(tmp_path / "h")]) == 0
    assert capsys.readouterr().err == ""
    assert "1 run(s) and 1 counts run(s), oldest first." in (tmp_path / "h" / "history.md").read_text()


def test_help_says_how_counts_are_judged(capsys):
    with pytest.raises(SystemExit):
        main(["gate", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--instructions-tolerance PCT" in out and "--allocations-tolerance N" in out
    assert "Counts files (bench count: instructions and allocations per op) are compared exactly" in out
    assert "better cases are listed and do not fail it" in out
    assert ("1 gate: regression, at least one case or a whole suite is slower, or for counts files worse "
            "(more instructions or allocations per op)") in out
