"""The report's charts as a reader sees them: legible at page width, one y scale per
figure, thread counts named, no text or shading over the data (issue 14, items 11 and 13).

The figures are captured as the report saves them, from the committed reference run
(the run the README quotes) and from synthetic runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.text import Text

from analyze_lib.cli import main
from csvgen import case, write_results

REPO = Path(__file__).resolve().parents[2]
REFERENCE_CSV = sorted((REPO / "Results" / "reference").glob("*.csv"))[0]
# The HTML report's content width, and the smallest text a chart may have at that width
# (body text is 16 px; 12 px is the smallest that reads comfortably on a laptop screen).
PAGE_WIDTH_PX = 1000
MIN_TEXT_PX = 12


@dataclass
class Drawn:
    """One saved figure: its file name, the Figure and the dpi it was saved at."""
    name: str
    figure: Figure
    dpi: float

    @property
    def title(self) -> str:
        return self.figure._suptitle.get_text() if self.figure._suptitle else ""

    @property
    def panels(self):
        return [ax for ax in self.figure.axes if ax.get_visible() and ax.lines]


def _report_figures(csv_path: Path, out: Path) -> list[Drawn]:
    drawn = []
    original = Figure.savefig

    def recording(figure, fname, *args, **kwargs):
        original(figure, fname, *args, **kwargs)
        drawn.append(Drawn(Path(fname).name, figure, kwargs.get("dpi") or figure.dpi))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Figure, "savefig", recording)
        assert main(["report", str(csv_path), "--out", str(out)]) == 0
    return drawn


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> list[Drawn]:
    drawn = _report_figures(REFERENCE_CSV, tmp_path_factory.mktemp("reference") / "report")
    assert len(drawn) >= 8
    return drawn


def _by_name(drawn, name) -> Drawn:
    return next(d for d in drawn if d.name == name)


def test_every_panel_of_a_figure_shares_the_y_scale(reference):
    for drawn in reference:
        scales = {ax.get_yscale() for ax in drawn.panels}
        limits = {tuple(np.round(ax.get_ylim(), 6)) for ax in drawn.panels}
        assert len(scales) == 1, f"{drawn.name}: y scales {scales}"
        assert len(limits) == 1, f"{drawn.name}: y limits {limits}"


def test_chart_text_is_legible_at_page_width(reference):
    # A figure wider than the page is shrunk to it, and its text with it.
    for drawn in reference:
        width_px = drawn.figure.get_figwidth() * drawn.dpi
        shrink = min(1.0, PAGE_WIDTH_PX / width_px)
        for text in drawn.figure.findobj(Text):
            if text.get_visible() and text.get_text().strip():
                px = text.get_fontsize() * drawn.dpi / 72 * shrink
                assert px >= MIN_TEXT_PX, f"{drawn.name}: {text.get_text()!r} is {px:.1f} px at page width"


def test_html_page_width_is_the_width_charts_are_checked_at(tmp_path):
    path = write_results(tmp_path / "run.csv", {case(variant="a"): 1.0, case(variant="b"): 2.0})
    assert main(["report", str(path), "--out", str(tmp_path / "r")]) == 0
    style = (tmp_path / "r" / "report.html").read_text()
    assert re.search(r"body \{[^}]*max-width: %dpx" % PAGE_WIDTH_PX, style)


def test_every_chart_title_names_its_thread_count(reference):
    for drawn in reference:
        xlabel = drawn.panels[0].get_xlabel()
        if xlabel == "threads":
            assert re.search(r"vs threads \(\d+(, \d+)*\)", drawn.title), drawn.title
        else:
            assert re.search(r"\bat \d+( and \d+)? threads?\b", drawn.title), drawn.title


def test_the_tokens_chart_shows_the_one_thread_figures_the_readme_quotes(reference):
    # README: "array-tracker 17.8, 58.5, 502, 4,907 and 47,875 ns at 1, 10, 100, 1,000
    # and 10,000 tokens" (one thread).
    drawn = _by_name(reference, "once-hit-by-tokens.png")
    assert "at 1 and 2 threads" in drawn.title
    one_thread = next(ax for ax in drawn.panels if ax.get_title().startswith("1 thread"))
    [line] = [drawn_line for drawn_line in one_thread.lines if drawn_line.get_label() == "array-tracker"]
    assert line.get_ydata()[0] == pytest.approx(17.8, rel=0.02)
    assert line.get_ydata()[-1] == pytest.approx(47875, rel=0.02)


def test_no_text_sits_on_the_data(reference):
    for drawn in reference:
        renderer = FigureCanvasAgg(drawn.figure).get_renderer()  # pyplot detached it on close
        for ax in drawn.panels:
            for text in ax.texts:
                if not text.get_text().strip():
                    continue
                box = text.get_window_extent(renderer)
                for line in ax.lines:
                    points = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
                    inside = [p for p in points if box.contains(*p)]
                    assert not inside, f"{drawn.name}: {text.get_text()!r} covers {line.get_label()}"


def test_no_shaded_bands_overlap(reference):
    # Interquartile ranges are drawn as bars; filled bands of eight variants hid each other.
    for drawn in reference:
        for ax in drawn.panels:
            bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
            assert not bands, f"{drawn.name}: {ax.get_title()} has {len(bands)} filled bands"


def test_x_axis_is_read_from_the_params_not_the_suite_name(tmp_path):
    # A new wait benchmark sweeping `depth` (5 values) at two task counts is drawn against
    # depth, the parameter with the most values; nothing names the suite or the param.
    cases = {}
    for depth in (1, 2, 4, 8, 16):
        for tasks in (16, 256):
            for variant, cost in (("a", 10.0), ("b", 20.0)):
                cases[case("wait", "drain", variant, 1, f"depth={depth};tasks={tasks}")] = cost * depth
    path = write_results(tmp_path / "run.csv", cases)
    drawn = _report_figures(path, tmp_path / "r")
    assert [d.name for d in drawn] == ["wait-drain-by-depth.png"]
    [figure] = drawn
    assert figure.panels[0].get_xlabel() == "depth"
    assert sorted(ax.get_title() for ax in figure.panels) == ["1 thread, tasks=16", "1 thread, tasks=256"]
