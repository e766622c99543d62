"""The figure budget and layout that report and history share (issue 9)."""

from __future__ import annotations

import pytest

from analyze_lib.present import figures
from analyze_lib.cli import main
from analyze_lib.present.doc import PAGE_WIDTH_PX
from analyze_lib.present.figures import FigureBudget
from csvgen import case, write_results


def test_budget_splits_a_chart_into_numbered_figures():
    budget = FigureBudget(max_figures=10, max_panels=3)
    planned = budget.split("once-hit-by-threads", "once/hit", list("abcdefg"))
    assert [(f.filename, f.title, f.panels) for f in planned] == [
        ("once-hit-by-threads-1.png", "once/hit (1/3)", ("a", "b", "c")),
        ("once-hit-by-threads-2.png", "once/hit (2/3)", ("d", "e", "f")),
        ("once-hit-by-threads-3.png", "once/hit (3/3)", ("g",))]
    [single] = budget.split("wait-handoff", "wait/handoff", ["x"])
    assert (single.filename, single.title) == ("wait-handoff.png", "wait/handoff")
    assert budget.skipped_note() is None


def test_budget_stops_at_the_figure_limit_and_says_so():
    budget = FigureBudget(max_figures=2, max_panels=1)
    assert len(budget.split("a", "a", [1, 2])) == 2
    assert budget.split("b", "b", [1, 2, 3]) == []
    assert budget.skipped == 3
    assert budget.skipped_note() == "3 more chart(s) not drawn (limit 2); narrow with `--filter`."


def test_the_widest_figure_fits_the_page_and_its_smallest_text_is_legible():
    width_in = figures.PANEL_WIDTH_IN * figures.MAX_COLUMNS
    assert width_in * figures.DPI <= PAGE_WIDTH_PX
    smallest = min(figures.TICK_PT, figures.LABEL_PT, figures.PANEL_TITLE_PT, figures.LEGEND_PT, figures.TITLE_PT)
    assert figures.text_px_at_page_width(smallest, width_in) >= figures.MIN_TEXT_PX
    # A figure wider than the page would be shrunk, and its text with it.
    assert figures.text_px_at_page_width(9, 15) == pytest.approx(9 * 100 / 72 * 1000 / 1500)


@pytest.mark.parametrize("command", ["report", "history"])
def test_report_and_history_split_charts_the_same_way(tmp_path, command):
    # once/hit at 9 token counts and one thread count: 9 panels against threads in history
    # (one per token count), more than one figure holds.
    cases = {case(variant=v, threads=t, params=f"tokens={n}"): 10.0 * n
             for v in ("a", "b") for t in (1, 2) for n in range(1, 10)}
    paths = [write_results(tmp_path / f"run{i}.csv", cases, seed=i,
                           run={"started_at": f"2026-11-2{i}T10:00:00Z"}) for i in (1, 2)]
    out = tmp_path / "out"
    args = [str(paths[0])] if command == "report" else [str(p) for p in paths]
    assert main([command, *args, "--out", str(out)]) == 0
    pngs = sorted(p.name for p in out.glob("*.png"))
    if command == "report":
        # 9 panels against threads (a panel per token count): two figures of at most 8.
        assert "once-hit-by-threads-1.png" in pngs and "once-hit-by-threads-2.png" in pngs
    else:
        # 18 panels (threads x tokens): three figures of at most 8.
        assert pngs == ["history-once-hit-1.png", "history-once-hit-2.png", "history-once-hit-3.png"]
    assert figures.MAX_PANELS_PER_FIGURE == 8
