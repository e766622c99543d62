"""history orders runs by time, finds the step, and writes its files atomically."""

from __future__ import annotations

import re
from pathlib import Path

from analyze_lib.cli import main
from analyze_lib.present.history import find_steps, order_runs
from analyze_lib.files.loader import load_results
from analyze_lib.files.schema import COLUMNS_BY_VERSION
from csvgen import case, write_counts, write_results
from gitrepo import commit, git

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


# --- Change points (judge.change_points; present.change_points_text) ---

SERIES = 12
SHIFT_RUN = 6  # lock is 1.3x slower from the 7th run on


def _series_runs(directory, commits, factor=1.3, counts=False):
    """One file a commit, oldest first (started_at one day apart): lock 20 ns (counts: 40 instructions/op), times
    ``factor`` from run SHIFT_RUN on; dispatch-once unchanged."""
    directory.mkdir(parents=True, exist_ok=True)
    for index, commit_id in enumerate(commits):
        factor_now = factor if index >= SHIFT_RUN else 1.0
        run = {"started_at": f"2026-11-{index + 1:02}T10:00:00Z", "commit": commit_id}
        if counts:
            write_counts(directory / f"counts-{index:02}.csv",
                         {case(variant="lock"): (40.0 * factor_now, 0.0), case(variant="dispatch-once"): (12.0, 0.0)},
                         run=run)
        else:
            write_results(directory / f"r{index:02}.csv",
                          {case(variant="lock"): 20.0 * factor_now, case(variant="dispatch-once"): 1.0},
                          seed=200 + index, run=run)
    return directory


def _git_series(tmp_path):
    """A repository of SERIES commits, each its own subject; its Results/ directory for the runs."""
    repo = tmp_path / "project"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "test@example.com")
    git(repo, "config", "user.name", "Test")
    commits = [commit(repo, f"Change {index}: the subject of commit {index}", {"file.txt": f"{index}\n"})
               for index in range(SERIES)]
    return repo, commits


def _change_point_rows(markdown: str) -> list[str]:
    """The rows of history.md's change point table."""
    section = markdown.split("## Change points", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| #")
            and not line.startswith("| ---")]


def test_history_marks_a_change_point_with_its_commit_subject_and_bisect(tmp_path, monkeypatch, capsys):
    repo, commits = _git_series(tmp_path)
    runs = _series_runs(repo / "Results", commits)
    monkeypatch.chdir(tmp_path)  # the subjects come from the repository the runs are in
    out = tmp_path / "history"
    assert main(["history", str(runs), "--out", str(out)]) == 0
    markdown = (out / "history.md").read_text()
    good, bad = commits[SHIFT_RUN - 1][:7], commits[SHIFT_RUN][:7]
    # The control: dispatch-once, unchanged, is not a change point.
    [row] = _change_point_rows(markdown)
    assert row.startswith(f"| 1 | `once/hit/lock threads:1` | ns/op | 6: `{good}` | 7: `{bad}` Change 6: the subject "
                          "of commit 6 | 20.")
    assert "(6 runs)" in row and re.search(r"\*\*1\.(29|3\d)× slower\*\* \| p = ", row), row
    assert f"- 1: `scripts/bench-commits bisect {good} {bad} -- --filter '^once/hit/lock$'`" in markdown
    assert (out / "history-once-hit.png").is_file()


def test_history_of_an_unchanged_series_has_no_change_point(tmp_path, capsys):
    runs = _series_runs(tmp_path / "runs", [f"{index:x}" * 40 for index in range(SERIES)], factor=1.0)
    out = tmp_path / "history"
    assert main(["history", str(runs), "--out", str(out)]) == 0
    markdown = (out / "history.md").read_text()
    assert "## Change points" in markdown and "No case shifted." in markdown
    assert "scripts/bench-commits bisect" not in markdown


def test_a_shift_on_one_commit_has_no_bisect_and_a_commit_not_in_the_repository_no_subject(tmp_path, capsys):
    runs = _series_runs(tmp_path / "runs", ["ab" * 20] * SERIES)
    out = tmp_path / "history"
    assert main(["history", str(runs), "--out", str(out)]) == 0
    markdown = (out / "history.md").read_text()
    [row] = _change_point_rows(markdown)
    assert row.startswith("| 1 | `once/hit/lock threads:1` | ns/op | 6: `abababa` | 7: `abababa` | ")
    assert "- 1: no bisect: the same commit ran before and after" in markdown


def test_a_speedup_asks_the_bisect_for_faster(tmp_path, capsys):
    runs = _series_runs(tmp_path / "runs", [f"{index:x}" * 40 for index in range(SERIES)], factor=1 / 1.3)
    out = tmp_path / "history"
    assert main(["history", str(runs), "--out", str(out)]) == 0
    markdown = (out / "history.md").read_text()
    assert "× faster**" in markdown
    assert f"bisect {'5' * 7} {'6' * 7} --faster -- --filter '^once/hit/lock$'`" in markdown


def test_history_follows_counts_files_and_marks_their_steps(tmp_path, capsys):
    runs = _series_runs(tmp_path / "runs", [f"{index:x}" * 40 for index in range(SERIES)], factor=1.01, counts=True)
    out = tmp_path / "history"
    assert main(["history", str(runs), "--out", str(out)]) == 0
    assert capsys.readouterr().err == ""
    markdown = (out / "history.md").read_text()
    assert "0 run(s) and 12 counts run(s), oldest first." in markdown
    # The control: dispatch-once's counts did not move.
    assert _change_point_rows(markdown) == [
        "| 1 | `once/hit/lock threads:1` | instructions/op | 6: `5555555` | 7: `6666666` | 40.00 (6 runs) | 40.40 "
        "(6 runs) | **+1.0% instructions/op** | every run after moved (exact counts) |"]
    assert "- 1: `scripts/bench-commits bisect 5555555 6666666 -- --filter '^once/hit/lock$'`" in markdown
    assert (out / "history-instructions-once-hit.png").is_file()
    assert not (out / "history-allocations-once-hit.png").exists(), "allocations drawn only where they shifted"


def test_history_skips_a_stress_file_with_a_warning(tmp_path, capsys):
    from csvgen import clean_stress_rows, write_stress
    runs = _write_runs(tmp_path / "runs")
    stress = write_stress(runs / "stress.csv", clean_stress_rows())
    out = tmp_path / "history"
    assert main(["history", str(runs), "--out", str(out)]) == 0
    assert capsys.readouterr().err.startswith(f"analyze: warning: skipped {stress}: history takes timing or counts "
                                              "files; this is a stress file")


def test_case_regex_escapes_what_a_regular_expression_would_read():
    from analyze_lib.files.model import CaseKey
    from analyze_lib.present.change_points_text import case_regex
    assert case_regex(CaseKey("once", "hit", "dispatch-once", 1)) == "^once/hit/dispatch-once$"
    assert case_regex(CaseKey("mine", "hit", "lock.v2+fast", 1)) == r"^mine/hit/lock\.v2\+fast$"


def test_the_change_point_is_marked_on_its_cases_chart_with_commit_and_subject(tmp_path, monkeypatch, capsys):
    from matplotlib.figure import Figure
    repo, commits = _git_series(tmp_path)
    runs = _series_runs(repo / "Results", commits)
    saved = {}
    original = Figure.savefig

    def recording(figure, fname, *args, **kwargs):
        original(figure, fname, *args, **kwargs)
        saved[Path(fname).name] = figure

    monkeypatch.setattr(Figure, "savefig", recording)
    assert main(["history", str(runs), "--out", str(tmp_path / "history")]) == 0
    [panel] = [ax for ax in saved["history-once-hit.png"].axes if ax.lines]
    notes = [text.get_text() for text in panel.get_legend().get_texts()]
    assert notes == [f"1: {commits[SHIFT_RUN][:7]} (1.29× slower)\nChange 6: the subject of commit 6"]
    dashed = [line for line in panel.lines if line.get_linestyle() == "--"]
    assert [tuple(line.get_xdata()) for line in dashed] == [(SHIFT_RUN - 0.5, SHIFT_RUN - 0.5)]
    # The control: with no change point, the panel has no dashed line and no legend of its own.
    flat = _series_runs(tmp_path / "flat", commits, factor=1.0)
    saved.clear()
    assert main(["history", str(flat), "--out", str(tmp_path / "flat-history")]) == 0
    [panel] = [ax for ax in saved["history-once-hit.png"].axes if ax.lines]
    assert panel.get_legend() is None and not [line for line in panel.lines if line.get_linestyle() == "--"]


def test_without_ruptures_history_says_it_did_not_look_for_change_points(tmp_path, monkeypatch, capsys):
    from analyze_lib.judge import change_points
    runs = _series_runs(tmp_path / "runs", [f"{index:x}" * 40 for index in range(SERIES)])
    monkeypatch.setattr(change_points, "AVAILABLE", False)  # as where ruptures has no build
    assert main(["history", str(runs), "--out", str(tmp_path / "without")]) == 0
    markdown = (tmp_path / "without" / "history.md").read_text()
    assert "**Not looked for:** ruptures, which finds them, has no build for this Python" in markdown
    assert _change_point_rows(markdown) == [] and "No case shifted." not in markdown
    # The control: with it, the planted change point is found.
    monkeypatch.undo()
    assert main(["history", str(runs), "--out", str(tmp_path / "with")]) == 0
    assert len(_change_point_rows((tmp_path / "with" / "history.md").read_text())) == 1
