"""history orders runs by time, finds the step, and writes its files atomically."""

from __future__ import annotations

from analyze_lib.cli import main
from analyze_lib.history import find_steps, order_runs
from analyze_lib.loader import load_results
from csvgen import case, write_results

# once/hit/lock steps up 2x between the second and third run; the others stay.
STEP_RUNS = [("2026-11-21T10:00:00Z", 1.0), ("2026-11-22T10:00:00Z", 1.0),
             ("2026-11-23T10:00:00Z", 2.0), ("2026-11-24T10:00:00Z", 2.0)]


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
