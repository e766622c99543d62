"""Exact output of the renderers on a tiny deterministic input."""

from __future__ import annotations

from analyze_lib.cli import main
from csvgen import case, write_results

BASE = {case(variant="lock"): [10.0, 10.1, 10.2, 10.3, 10.4, 10.5],
        case(variant="once"): [5.0, 5.1, 5.2, 5.3, 5.4, 5.5]}
HEAD = {case(variant="lock"): [20.0, 20.2, 20.4, 20.6, 20.8, 21.0],
        case(variant="once"): [5.05, 5.15, 5.25, 5.35, 5.45, 5.55]}


def _run(tmp_path, capsys, fmt):
    write_results(tmp_path / "base.csv", BASE)
    write_results(tmp_path / "head.csv", HEAD, run={"commit": "f" * 40, "dirty": "true"})
    code = main(["compare", str(tmp_path / "base.csv"), str(tmp_path / "head.csv"), "--format", fmt])
    return code, capsys.readouterr().out


def test_markdown_table_and_verdict(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, "md")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "## DispatchBench comparison"
    assert "- Head: `fffffff+dirty on bench-1 (Test CPU @ 3.0GHz, 4 CPUs), release, Swift 6.0.3, " \
           "2026-11-21T23:45:01Z`" in lines
    assert "| Case | Base ns/op | Head ns/op | Ratio | 99% CI | p | Verdict |" in lines
    assert "| --- | ---: | ---: | ---: | --- | ---: | --- |" in lines
    # A slower row says what moved with it (issue 55): here nothing, csvgen's signals being the same.
    assert ("| `once/hit/lock threads:1` | 10.2 | 20.5 | 2.00 | [1.93, 2.07] | 0.0022 "
            "| **2.00× slower**; switches and kernel time per op did not move (switches per op 1e-05 → 1e-05, "
            "kernel time per op 0.1 ns → 0.2 ns) |") in lines
    # Not called, but its interval reaches the 5% threshold: not resolved, never "no change".
    assert ("| `once/hit/once threads:1` | 5.25 | 5.30 | 1.01 | [0.94, 1.08] | 0.7 "
            "| not resolved: 1.01× (head/base), not significant |") in lines
    assert ("**1 slower, 0 faster, 0 unchanged, 1 not resolved (not significant, but the interval reaches the "
            "1.05× threshold).**") in out
    assert "<details><summary>1 unchanged or not resolved case</summary>" in lines
    assert "| once | 2 | 1.42 | none (needs 2 rounds a side) |" in lines
    assert lines[2:5] == ["- Checked: 2 of 2 compared cases decided (1 slower, 0 faster, 0 unchanged, "
                          "1 not resolved).",
                          "- Not checked: none.",
                          "- To do: look at the slower case first: it is the table's first row."]


def test_text_output_exact(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, "text")
    assert code == 0
    assert out.splitlines()[4:7] == [
        "Case                     Base ns/op  Head ns/op  Ratio  99% CI             p  Verdict",
        "once/hit/lock threads:1        10.2        20.5   2.00  [1.93, 2.07]  0.0022  2.00× slower; switches and "
        "kernel time per op did not move (switches per op 1e-05 → 1e-05, kernel time per op 0.1 ns → 0.2 ns)",
        "once/hit/once threads:1        5.25        5.30   1.01  [0.94, 1.08]     0.7  not resolved: 1.01× "
        "(head/base), not significant",
    ]
