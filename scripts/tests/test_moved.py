"""The gate says what moved with a slower case (issue 55): a planted change from non-blocking to
blocking (base: no switches, little kernel time; head: slower, a switch per op, much kernel time) is
named in the text and the JSON; a case slower with its signals unchanged says they did not move."""

from __future__ import annotations

import json

from analyze_lib.cli import main
from analyze_lib.judge.moved import compare_signals
from analyze_lib.judge.signals import Signals
from csvgen import case, write_results

MUTEX = case("isolation", "mixed", "mutex", 2, "read_pct=0")
STEADY = case("isolation", "mixed", "nslock", 2, "read_pct=0")
QUIET = {"voluntary": 0.01, "kernel_share": 0.02, "utilisation": 1.0}
BLOCKING = {"voluntary": 0.9, "kernel_share": 0.6, "utilisation": 0.5}


def _gate(tmp_path, capsys, head_signals: dict, fmt: str):
    base = write_results(tmp_path / "base.csv", {MUTEX: 100.0, STEADY: 50.0}, version=6,
                         signals={MUTEX: QUIET, STEADY: QUIET})
    head = write_results(tmp_path / "head.csv", {MUTEX: 140.0, STEADY: 50.0}, version=6, seed=8,
                         signals={MUTEX: head_signals, STEADY: QUIET})
    assert main(["gate", str(base), str(head), "--format", fmt]) == 1
    return capsys.readouterr().out


def _row(markdown: str, variant: str) -> str:
    return next(line for line in markdown.splitlines() if line.startswith(f"| `isolation/mixed/{variant} "))


def test_a_case_that_now_blocks_says_so(tmp_path, capsys):
    row = _row(_gate(tmp_path, capsys, BLOCKING, "md"), "mutex")
    # 139 ns per op on 2 CPUs half busy, 60% of it in the kernel: 83 ns per op; before 4 ns.
    assert "slower**; switches per op 0.01 → 0.9: now blocking; kernel time per op 4 ns → 83 ns" in row


def test_a_slower_case_whose_signals_stayed_says_they_did_not_move(tmp_path, capsys):
    # Negative control: slower, every signal as it was (the cost grew in user space).
    row = _row(_gate(tmp_path, capsys, QUIET, "md"), "mutex")
    assert "slower**; switches and kernel time per op did not move (switches per op 0.01 → 0.01, kernel time " \
           "per op 4 ns → 5.5 ns)" in row
    assert "now blocking" not in row


def test_the_text_and_json_say_what_moved(tmp_path, capsys):
    text = _gate(tmp_path, capsys, BLOCKING, "text")
    line = next(line for line in text.splitlines() if line.startswith("isolation/mixed/mutex "))
    assert "switches per op 0.01 → 0.9: now blocking" in line
    document = json.loads(_gate(tmp_path, capsys, BLOCKING, "json"))
    assert document["format_version"] == 6
    cases = {c["variant"]: c for c in document["cases"]}
    moved = cases["mutex"]["moved"]
    assert moved["blocking"] == "now" and moved["voluntary"]["moved"] and moved["kernel_ns"]["moved"]
    assert moved["voluntary"]["base"] == 0.01 and moved["voluntary"]["head"] == 0.9
    assert not moved["involuntary"]["moved"]
    # An unchanged case carries no "moved": the documents of other comparisons keep their shape.
    assert "moved" not in cases["nslock"]


def _signals(voluntary: float, kernel: float) -> Signals:
    return Signals(threads=2, logical_cpus=2, voluntary=voluntary, involuntary=0.0, kernel_ns=kernel, user_ns=100.0,
                   utilisation=1.0, fairness=1.0)


def test_a_signal_moves_only_beyond_its_factor_and_floor():
    key = MUTEX
    # Doubled but tiny (0.001 → 0.003 switches): not moved; 0.1 → 0.3: moved, but not blocking.
    assert not compare_signals(key, _signals(0.001, 5), _signals(0.003, 5), 100).moved
    small = compare_signals(key, _signals(0.1, 5), _signals(0.3, 5), 100)
    assert [m.name for m in small.moved] == ["voluntary"] and small.blocking is None
    # Kernel time: 5 → 9 ns is under twice; 5 → 30 ns on a 100 ns op is a tenth of it and more.
    assert not compare_signals(key, _signals(0.0, 5), _signals(0.0, 9), 100).moved
    assert [m.name for m in compare_signals(key, _signals(0.0, 5), _signals(0.0, 30), 100).moved] == ["kernel_ns"]
    # And back: a case that stopped blocking.
    assert compare_signals(key, _signals(1.0, 900), _signals(0.01, 5), 100).blocking == "no longer"
