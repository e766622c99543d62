"""Line charts with sample bands (matplotlib, Agg): medians with an interquartile band.

The module only draws what it is given; choosing axes and panels is report/history's job.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter  # noqa: E402

# y uses a log scale when the panel's values span more than this factor.
Y_LOG_SPREAD = 20.0
# x uses a log scale when its values span at least this factor.
X_LOG_SPREAD = 10.0
PANEL_WIDTH_IN = 5.0
PANEL_HEIGHT_IN = 3.6
MAX_COLUMNS = 3
DPI = 100
BAND_ALPHA = 0.2
OVERSUBSCRIBED_COLOR = "#999999"
OVERSUBSCRIBED_ALPHA = 0.18


@dataclass(frozen=True)
class Series:
    """One line: x values with the median and the band (low, high) at each."""
    label: str
    x: tuple[float, ...]
    median: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]


@dataclass(frozen=True)
class Panel:
    """One subplot: its title and lines."""
    title: str
    series: tuple[Series, ...]


@dataclass(frozen=True)
class Axes:
    """What the panels of one figure share: labels, log choices and the CPU count
    past which the x axis (threads) is oversubscribed (None: not a threads axis)."""
    xlabel: str
    ylabel: str
    force_log_y: bool = False
    oversubscribed_after: int | None = None
    x_ticklabels: tuple[tuple[float, str], ...] = ()


def _spread(values) -> float:
    positive = [v for v in values if v > 0 and math.isfinite(v)]
    if not positive:
        return 1.0
    return max(positive) / min(positive)


def _draw_panel(ax, panel: Panel, axes: Axes) -> None:
    xs = sorted({x for s in panel.series for x in s.x})
    for series in panel.series:
        line, = ax.plot(series.x, series.median, marker="o", markersize=3.5, label=series.label)
        ax.fill_between(series.x, series.low, series.high, color=line.get_color(),
                        alpha=BAND_ALPHA, linewidth=0)
    ys = [v for s in panel.series for v in (*s.low, *s.high, *s.median)]
    if axes.force_log_y or _spread(ys) > Y_LOG_SPREAD:
        ax.set_yscale("log")
    if axes.x_ticklabels:
        positions = [x for x, _ in axes.x_ticklabels]
        ax.set_xticks(positions, [label for _, label in axes.x_ticklabels], rotation=45,
                      ha="right", fontsize=7)
        ax.set_xlim(min(positions) - 0.3, max(positions) + 0.3)
    elif xs and min(xs) > 0 and _spread(xs) >= X_LOG_SPREAD:
        ax.set_xscale("log", base=2 if axes.oversubscribed_after is not None else 10)
    if xs and not axes.x_ticklabels and (axes.oversubscribed_after is not None or len(xs) <= 8):
        # Tick exactly the measured x values (thread counts, token counts).
        ax.xaxis.set_major_locator(FixedLocator(xs))
        ax.xaxis.set_minor_locator(NullLocator())
        formatter = ScalarFormatter()
        formatter.set_scientific(False)
        ax.xaxis.set_major_formatter(formatter)
    cpus = axes.oversubscribed_after
    if cpus is not None and xs and max(xs) > cpus:
        left, right = ax.get_xlim()
        ax.axvspan(cpus, right, color=OVERSUBSCRIBED_COLOR, alpha=OVERSUBSCRIBED_ALPHA, linewidth=0)
        ax.axvline(cpus, color=OVERSUBSCRIBED_COLOR, linestyle="--", linewidth=1)
        ax.set_xlim(left, right)
        ax.text(0.98, 0.03, f"oversubscribed\n(> {cpus} CPUs)", transform=ax.transAxes,
                ha="right", va="bottom", fontsize=8, color="#555555")
    ax.set_title(panel.title, fontsize=9)
    ax.set_xlabel(axes.xlabel, fontsize=8)
    ax.set_ylabel(axes.ylabel, fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    if not axes.x_ticklabels:
        ax.tick_params(axis="x", labelsize=7)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="best")


def draw_figure(path: Path, title: str, panels: list[Panel], axes: Axes) -> None:
    """Draw ``panels`` into one PNG at ``path`` (a grid of up to MAX_COLUMNS columns)."""
    columns = min(MAX_COLUMNS, len(panels))
    rows = math.ceil(len(panels) / columns)
    figure, grid = plt.subplots(rows, columns, squeeze=False,
                                figsize=(PANEL_WIDTH_IN * columns, PANEL_HEIGHT_IN * rows + 0.5))
    try:
        for ax, panel in zip(grid.flat, panels):
            _draw_panel(ax, panel, axes)
        for ax in list(grid.flat)[len(panels):]:
            ax.set_visible(False)
        figure.suptitle(title, fontsize=11)
        figure.tight_layout()
        figure.savefig(path, dpi=DPI)
    finally:
        plt.close(figure)
