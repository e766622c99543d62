"""history orders runs by time, finds the step, and writes its files atomically."""

from __future__ import annotations

from analyze_lib.cli import main
from analyze_lib.present.history import find_steps, order_runs
from analyze_lib.files.loader import load_results
from analyze_lib.files.schema import COLUMNS_BY_VERSION
from csvgen import case, write_results

# once/hit/lock steps up 2x between the second and third run; the others stay.
STEP_RUNS = [("2026-11-21T10:00:00Z", 1.0), ("2026-11-22T10:00:00Z", 1.0),
             ("2026-11-23T10:00:00Z", 2.0), ("2026-11-24T10:00:00Z", 2.0)]

# The timing versions this analyze reads, as its refusal lists them.
_KNOWN = ", ".join(map(str, sorted(COLUMNS_BY_VERSION)))


def _write_runs(directory):
    directory.mkdir()
    # File names deliberately out of time order: ordering must come from started_at.
    for index, (started_at, factor) in reversed(list(enumerate(STEP_RUNS))):
        write_results(directory / f"z{3 - index}.csv",
                      {case(variant="lock"): 20.0 * factor, case(variant="dispatch-once"): 1.0},
                      seed=100 + index, run={"started_at": started_at, "commit": str(index) * 40})
    return directory


def test_finds_the_step(tmp_path):
    runs = order_runs([load_results(p) for p in _write_runs(tmp_path / "runs").glob("*.csv")])
    assert [r.run["commit"][0] for r in runs] == ["0", "1", "2", "3"]
    [step] = find_steps(runs, threshold=10, alpha=0.01)
    assert (step.key.variant, step.before, step.after, step.row.verdict) == ("lock", 1, 2, "slower")


def test_history_command_writes_markdown_and_charts(tmp_path, capsys):
    runs = _write_runs(tmp_path / "runs")
    out = tmp_path / "history"
    assert main(["history", str(runs), "--out", str(out)]) == 0
    markdown = (out / "history.md").read_text()
    assert "| `once/hit/lock threads:1` | 2: 1111111 | 3: 2222222 |" in markdown
    assert "× slower** |" in markdown
    assert (out / "history-once-hit.png").is_file()
    assert "![once/hit](history-once-hit.png)" in markdown


def test_history_lands_beside_its_runs_wherever_it_is_run_from(tmp_path, monkeypatch, capsys):
    runs = _write_runs(tmp_path / "runs")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["history", str(runs)]) == 0
    assert (runs / "history" / "history.md").is_file()
    assert list(elsewhere.iterdir()) == [], "nothing written where it was run from"


def test_history_filter_and_errors(tmp_path, capsys):
    runs = _write_runs(tmp_path / "runs")
    out = tmp_path / "history"
    assert main(["history", str(runs), "--out", str(out), "--filter", "dispatch-once"]) == 0
    assert "No case stepped up or down." in (out / "history.md").read_text()
    assert main(["history", str(runs), "--out", str(out), "--filter", "nothing-matches"]) == 2
    assert "no case matches --filter" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["history", str(empty)]) == 2
    assert capsys.readouterr().err == f"analyze: {empty}: no *.csv files in this directory\n"


def test_history_skips_a_header_only_file_with_one_warning(tmp_path, capsys):
    runs = _write_runs(tmp_path / "runs")
    empty = runs / "a-interrupted.csv"
    empty.write_text(",".join(COLUMNS_BY_VERSION[3]) + "\r\n")
    out = tmp_path / "history"
    assert main(["history", str(runs), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.err == (f"analyze: warning: skipped {empty}: no samples: the file has a header "
                            "but no rows\n")
    assert "4 run(s), oldest first." in (out / "history.md").read_text()


def test_history_skips_unreadable_files_and_fails_only_when_none_is_usable(tmp_path, capsys):
    runs = _write_runs(tmp_path / "runs")
    binary = runs / "b.csv"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00")
    future = write_results(runs / "c.csv", {case(): 1.0})
    future.write_text(future.read_text().replace("\n2,", "\n99,"), newline="")
    out = tmp_path / "history"
    assert main(["history", str(runs), "--out", str(out)]) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"analyze: warning: skipped {binary}: not a CSV file (binary content)",
        f"analyze: warning: skipped {future}:2: unknown schema_version 99 (this analyze reads {_KNOWN}); "
        "update scripts/analyze",
    ]
    assert main(["history", str(binary), str(future), "--out", str(out)]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "analyze: no usable results file: all 2 inputs were skipped (see the warnings above)")


def _rounds_runs(directory, variants):
    """Two runs of ``variants`` with 5 rounds each; lock is 2x slower in the second."""
    from csvgen import rounds
    directory.mkdir()
    for index, factor in enumerate((1.0, 2.0)):
        cases = {case(variant=v): rounds(20.0 * (factor if v == "lock" else 1.0), 5, seed=10 * index + n)
                 for n, v in enumerate(variants)}
        write_results(directory / f"r{index}.csv", cases, version=3, seed=index,
                      run={"started_at": f"2026-11-2{index + 1}T10:00:00Z", "commit": str(index) * 40})
    return order_runs([load_results(p) for p in sorted(directory.glob("*.csv"))])


def test_steps_follow_the_gates_joint_rule(tmp_path):
    # 5 rounds a side reach p = 2/C(10, 5) = 0.0079 at best: alone that is below alpha 0.01, so
    # lock's 2x is a step; decided together with a second case, a lone change needs p <= 0.005,
    # which 5 rounds cannot give: as compare and the gate say, lock is undetectable, not a step.
    alone = _rounds_runs(tmp_path / "alone", ["lock"])
    [step] = find_steps(alone, threshold=10, alpha=0.01)
    assert (step.key.variant, step.row.verdict, step.row.by_rounds) == ("lock", "slower", True)
    together = _rounds_runs(tmp_path / "together", ["lock", "dispatch-once"])
    assert find_steps(together, threshold=10, alpha=0.01) == []
