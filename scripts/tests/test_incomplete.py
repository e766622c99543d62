"""Issue 20 (3): a file known to be incomplete says so. report, compare, gate and export name it in their first
lines (stderr too); gate refuses an incomplete head with exit 5, as it refuses missing cases, and no option passes
it. A timing file with fewer rounds than run_rounds is incomplete; so is any file with run_complete false (an
interrupted bench stress among them)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from analyze_lib.cli import main
from analyze_lib.exit_codes import EXIT_INCOMPLETE, EXIT_INCONCLUSIVE
from csvgen import (case, caught_control, once_hit_counts, outcome, rounds, write_counts, write_results,
                    write_stress)

FALSE = "run_complete is false (line 2): the run that wrote it did not complete (interrupted, killed, or still running)"


def _mark(path: Path, column: str = "run_complete", value: str = "false") -> Path:
    """Set ``column`` to ``value`` on every row."""
    with open(path, newline="") as handle:
        records = list(csv.reader(handle))
    index = records[0].index(column)
    for record in records[1:]:
        record[index] = value
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows(records)
    return path


def _timing(path: Path, count: int = 3, rounds_in_run: int = 3) -> Path:
    cases = {case(variant=v): rounds(100.0, count, samples=3, seed=i) for i, v in enumerate(("a", "b"))}
    return write_results(path, cases, version=5, run={"run_rounds": str(rounds_in_run)})


def test_an_interrupted_stress_file_reads_as_incomplete_in_the_report(tmp_path, capsys):
    # The repro: stopped after once/lazy-static's check; the dispatch-once check never ran.
    stress = _mark(write_stress(tmp_path / "stress.csv", [outcome("once/lazy-static/race", 1, "block-ran-once"),
                                                          caught_control("control/once/unsynced-tracker/race")],
                                version=2))
    assert main(["report", str(stress), "--out", str(tmp_path / "report")]) == 0
    markdown = (tmp_path / "report" / "report.md").read_text()
    title, first = markdown.split("\n\n")[:2]
    assert title == "# DispatchBench report: stress"
    assert first == (f"**Incomplete:** `{stress}`: {FALSE}. What follows is what it holds, not what the whole run "
                     "would have measured.")
    assert capsys.readouterr().err.splitlines()[0] == f"analyze: warning: {stress} is INCOMPLETE: {FALSE}"


def test_a_complete_file_draws_no_such_words(tmp_path, capsys):
    stress = write_stress(tmp_path / "stress.csv", [outcome("once/lazy-static/race", 1, "block-ran-once"),
                                                    caught_control("control/once/unsynced-tracker/race")], version=2)
    assert main(["report", str(stress), "--out", str(tmp_path / "report")]) == 0
    assert "Incomplete" not in (tmp_path / "report" / "report.md").read_text()
    assert "INCOMPLETE" not in capsys.readouterr().err


def test_two_of_three_rounds_is_named_by_report_compare_and_export(tmp_path, capsys):
    short = _timing(tmp_path / "short.csv", count=2)
    whole = _timing(tmp_path / "whole.csv")
    reason = "it holds 2 of the run's 3 rounds (run_rounds 3; rounds 1, 2): the run did not complete"
    assert main(["report", str(short), "--out", str(tmp_path / "r")]) == 0
    assert (tmp_path / "r" / "report.md").read_text().split("\n\n")[1].startswith(
        f"**Incomplete:** `{short}`: {reason}")
    capsys.readouterr()
    assert main(["compare", str(whole), str(short)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == f"Warning: {short} is INCOMPLETE: {reason}"
    assert captured.err.splitlines() == [f"analyze: warning: {short} is INCOMPLETE: {reason}"]
    assert main(["compare", str(whole), str(short), "--format", "md"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"> **Warning:** {short} is INCOMPLETE: {reason}"
    assert main(["export", str(short), "--format", "github"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines()[0] == f"analyze: warning: {short} is INCOMPLETE: {reason}"
    json.loads(captured.out)  # the document itself stays valid JSON


@pytest.mark.parametrize("options", [[], ["--allow-missing"]])
def test_gate_refuses_an_incomplete_head_with_exit_5(tmp_path, capsys, options):
    base, head = _timing(tmp_path / "base.csv"), _mark(_timing(tmp_path / "head.csv"))
    assert main(["gate", str(base), str(head), "--format", "text", *options]) == EXIT_INCOMPLETE
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"Warning: {head} is INCOMPLETE: {FALSE}"
    assert lines[-1] == f"Gate: INCOMPLETE, head is incomplete: {FALSE} (rerun it to the end)"
    assert main(["gate", str(base), str(head), "--format", "json", *options]) == EXIT_INCOMPLETE
    gate = json.loads(capsys.readouterr().out)["gate"]
    assert (gate["status"], gate["exit_code"], gate["head_incomplete"]) == ("incomplete", 5, FALSE)


def test_an_incomplete_base_is_named_but_does_not_fail_the_gate(tmp_path, capsys):
    base, head = _mark(_timing(tmp_path / "base.csv")), _timing(tmp_path / "head.csv")
    # Three rounds a side decide nothing (4): what matters is that the base does not make it 5.
    assert main(["gate", str(base), str(head), "--format", "text"]) == EXIT_INCONCLUSIVE
    assert capsys.readouterr().out.splitlines()[0] == f"Warning: {base} is INCOMPLETE: {FALSE}"


def test_gate_refuses_an_incomplete_counts_head(tmp_path, capsys):
    base = write_counts(tmp_path / "base.csv", once_hit_counts(), version=5)
    head = _mark(write_counts(tmp_path / "head.csv", once_hit_counts(), version=5))
    assert main(["gate", str(base), str(head), "--format", "text"]) == EXIT_INCOMPLETE
    assert capsys.readouterr().out.splitlines()[-1] == \
        f"Gate: INCOMPLETE, head is incomplete: {FALSE} (rerun it to the end)"
