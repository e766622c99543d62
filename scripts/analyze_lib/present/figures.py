"""Figure layout and the figure budget, shared by ``report`` and ``history``.

Layout: how many panels go side by side, how big a figure is and how big its text is, so
that every figure is legible when the HTML report shows it at its page width. A figure
never gets wider than the page, so it is never shrunk and its text keeps the size set here.

Budget: a chart with many panels is split into numbered figures of at most
``MAX_PANELS_PER_FIGURE`` panels, and a document draws at most ``MAX_FIGURES`` figures;
the budget counts what it left out so the document can say so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Generic, Sequence, TypeVar

from .doc import PAGE_WIDTH_PX

DPI = 100
MAX_COLUMNS = 2
PANEL_WIDTH_IN = 5.0
PANEL_HEIGHT_IN = 3.3
TITLE_HEIGHT_IN = 0.55
LEGEND_ROW_HEIGHT_IN = 0.3
LEGEND_ENTRY_WIDTH_IN = 2.5
# The smallest text a chart has, in CSS pixels at the page width: body text is 16 px.
MIN_TEXT_PX = 12
# Font sizes in points; at DPI 100 one point is 100/72 px, so 9 pt is 12.5 px.
TICK_PT = 9
LABEL_PT = 10
PANEL_TITLE_PT = 10.5
LEGEND_PT = 10
TITLE_PT = 12.5

MAX_PANELS_PER_FIGURE = 8
MAX_FIGURES = 40


def text_px_at_page_width(points: float, width_in: float, dpi: float = DPI,
                          page_px: int = PAGE_WIDTH_PX) -> float:
    """How many CSS pixels tall ``points`` of text are when a figure ``width_in`` inches
    wide, saved at ``dpi``, is shown no wider than the page (img max-width: 100%)."""
    shrink = min(1.0, page_px / (width_in * dpi))
    return points * dpi / 72 * shrink


def grid(panels: int) -> tuple[int, int]:
    """(rows, columns) for ``panels`` panels, at most MAX_COLUMNS side by side."""
    columns = max(1, min(MAX_COLUMNS, panels))
    return math.ceil(panels / columns), columns


@dataclass(frozen=True)
class PanelSize:
    """A panel's width and height in inches, and the width a legend entry takes below it."""
    width: float = PANEL_WIDTH_IN
    height: float = PANEL_HEIGHT_IN
    legend_entry: float = LEGEND_ENTRY_WIDTH_IN


# The size of every report and history panel; the first screen's chart has its own.
STANDARD = PanelSize()

def legend_columns(entries: int, columns: int, size: PanelSize = STANDARD) -> int:
    """How many legend entries fit side by side under ``columns`` panels."""
    fit = int(size.width * columns / size.legend_entry)
    return max(1, min(fit, entries))


def figure_size(panels: int, legend_entries: int, size: PanelSize = STANDARD) -> tuple[float, float]:
    """(width, height) in inches of a grid of ``panels`` with a title above and a legend
    of ``legend_entries`` below."""
    rows, columns = grid(panels)
    legend_rows = math.ceil(legend_entries / legend_columns(legend_entries, columns, size)) if legend_entries else 0
    legend_height = LEGEND_ROW_HEIGHT_IN * (legend_rows + 0.6) if legend_rows else 0.0
    return size.width * columns, size.height * rows + TITLE_HEIGHT_IN + legend_height


P = TypeVar("P")


@dataclass(frozen=True)
class PlannedFigure(Generic[P]):
    """One figure to draw: its file name, title and panels (at most MAX_PANELS_PER_FIGURE)."""
    filename: str
    title: str
    panels: tuple[P, ...]


class FigureBudget:
    """Splits charts into figures and stops at ``max_figures``; counts what it left out."""

    def __init__(self, max_figures: int = MAX_FIGURES, max_panels: int = MAX_PANELS_PER_FIGURE):
        self.max_figures = max_figures
        self.max_panels = max_panels
        self.planned = 0
        self.skipped = 0

    def split(self, stem: str, title: str, panels: Sequence[P]) -> list[PlannedFigure[P]]:
        """The figures of one chart: ``stem.png``, or ``stem-1.png``, ``stem-2.png``, …
        titled ``title (1/2)``, … when its panels need more than one figure. Figures past
        the budget are counted in ``skipped`` and not returned."""
        chunks = [tuple(panels[i:i + self.max_panels]) for i in range(0, len(panels), self.max_panels)]
        figures = []
        for index, chunk in enumerate(chunks):
            if self.planned >= self.max_figures:
                self.skipped += 1
                continue
            numbered = len(chunks) > 1
            filename = f"{stem}-{index + 1}.png" if numbered else f"{stem}.png"
            figures.append(PlannedFigure(filename, f"{title} ({index + 1}/{len(chunks)})" if numbered else title,
                                         chunk))
            self.planned += 1
        return figures

    def skipped_note(self) -> str | None:
        """A sentence for the document when figures were left out, else None."""
        if not self.skipped:
            return None
        return (f"{self.skipped} more chart(s) not drawn (limit {self.max_figures}); "
                "narrow with `--filter`.")
