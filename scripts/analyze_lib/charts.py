"""Line charts with sample bands (matplotlib, Agg): medians with an interquartile band.

The module only draws what it is given; choosing axes and panels is report/history's job.

Starved points (median ``inf``: no operation completed in at least half the samples)
cannot be placed on a y axis: they come as ``Series.starved_x`` and are drawn as a
triangle on the panel's top edge; a band whose upper end is ``inf`` is clipped there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.lines import Line2D  # noqa: E402
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
# Room above the highest finite value for the starved markers (a factor: log or linear).
STARVED_HEADROOM_LINEAR = 1.15
STARVED_HEADROOM_LOG = 2.0
STARVED_MARKER = "^"
STARVED_NOTE = "▲ top edge: starved (no op completed)"
# One legend per figure, below the panels; a variant has the same colour in every panel.
LEGEND_MAX_COLUMNS = 6
LEGEND_ENTRY_WIDTH_IN = 1.8
LEGEND_ROW_HEIGHT_IN = 0.25
COLOR_CYCLE = tuple(f"C{i}" for i in range(10))


@dataclass(frozen=True)
class Series:
    """One line: x values with the finite median and the band (low, high) at each, and
    the x values whose median is starved (not on the line). ``high`` may be ``inf``."""
    label: str
    x: tuple[float, ...]
    median: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    starved_x: tuple[float, ...] = ()


def make_series(label: str, points) -> Series:
    """A Series from (x, median, low, high) points in x order, moving the points whose
    median is infinite (starved) to ``starved_x``."""
    finite = [p for p in points if math.isfinite(p[1])]
    return Series(label, tuple(p[0] for p in finite), tuple(p[1] for p in finite),
                  tuple(p[2] for p in finite), tuple(p[3] for p in finite),
                  tuple(p[0] for p in points if not math.isfinite(p[1])))


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


def _draw_panel(ax, panel: Panel, axes: Axes, colors: dict[str, str]) -> None:
    xs = sorted({x for s in panel.series for x in (*s.x, *s.starved_x)})
    ys = [v for s in panel.series for v in (*s.low, *s.high, *s.median) if math.isfinite(v)]
    log_y = axes.force_log_y or _spread(ys) > Y_LOG_SPREAD
    starved = any(s.starved_x or any(math.isinf(h) for h in s.high) for s in panel.series)
    # The top edge: where starved markers sit and infinite band ends are clipped.
    top = max(ys, default=1.0) * (STARVED_HEADROOM_LOG if log_y else STARVED_HEADROOM_LINEAR)
    for series in panel.series:
        color = colors[series.label]
        ax.plot(series.x, series.median, marker="o", markersize=3.5, label=series.label, color=color)
        ax.fill_between(series.x, series.low, [min(h, top) for h in series.high],
                        color=color, alpha=BAND_ALPHA, linewidth=0)
        if series.starved_x:
            ax.plot(series.starved_x, [top] * len(series.starved_x), linestyle="none",
                    marker=STARVED_MARKER, markersize=7, color=color, clip_on=False)
    if log_y:
        ax.set_yscale("log")
    if starved:
        ax.set_ylim(top=top)
        ax.text(0.02, 0.97, STARVED_NOTE, transform=ax.transAxes, ha="left", va="top",
                fontsize=7, color="#aa0000")
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


def draw_figure(path: Path, title: str, panels: list[Panel], axes: Axes) -> None:
    """Draw ``panels`` into one PNG at ``path`` (a grid of up to MAX_COLUMNS columns)."""
    columns = min(MAX_COLUMNS, len(panels))
    rows = math.ceil(len(panels) / columns)
    labels = sorted({s.label for p in panels for s in p.series})
    colors = {label: COLOR_CYCLE[i % len(COLOR_CYCLE)] for i, label in enumerate(labels)}
    fit = int(PANEL_WIDTH_IN * columns / LEGEND_ENTRY_WIDTH_IN)
    legend_columns = max(1, min(LEGEND_MAX_COLUMNS, fit, len(labels)))
    legend_height = LEGEND_ROW_HEIGHT_IN * (math.ceil(len(labels) / legend_columns) + 1)
    height = PANEL_HEIGHT_IN * rows + 0.5 + legend_height
    figure, grid = plt.subplots(rows, columns, squeeze=False,
                                figsize=(PANEL_WIDTH_IN * columns, height))
    try:
        for ax, panel in zip(grid.flat, panels):
            _draw_panel(ax, panel, axes, colors)
        for ax in list(grid.flat)[len(panels):]:
            ax.set_visible(False)
        figure.suptitle(title, fontsize=11)
        if labels:
            handles = [Line2D([], [], color=colors[label], marker="o", markersize=4) for label in labels]
            figure.legend(handles, labels, loc="lower center", ncol=legend_columns, fontsize=8,
                          frameon=False)
        figure.tight_layout(rect=(0, legend_height / height, 1, 1))
        figure.savefig(path, dpi=DPI)
    finally:
        plt.close(figure)
