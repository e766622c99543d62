"""Drawing line charts (matplotlib, Agg): medians with interquartile bars, a figure of panels.

The module only draws what it is given; which charts, panels and series to draw is
chart_plan's (report) or history's job, and sizes and fonts come from figures.

All panels of a figure share one y axis (scale and limits), so panels compare at a glance.
A variant keeps its colour and marker in every panel, and its points are nudged sideways
by a few points so that the interquartile bars of variants at the same x do not cover
each other. Notes (the oversubscribed shading, starved markers) are legend entries, never
text on the data.

A point whose low and high equal its value (a count, which has no spread) has no bar.

A mark (history's change points) is a dashed vertical line in its series' colour, tagged at its top, and explained
in its panel's own legend.

Starved points (median ``inf``: no operation completed in at least half the samples)
cannot be placed on a y axis: they come as ``Series.starved_x`` and are drawn as a
triangle on the panels' top edge; a bar whose upper end is ``inf`` runs to that edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator  # noqa: E402
from matplotlib.transforms import ScaledTranslation  # noqa: E402

from . import figures  # noqa: E402

# y uses a log scale when the figure's values span more than this factor.
Y_LOG_SPREAD = 20.0
# x uses a log scale when its values span at least this factor.
X_LOG_SPREAD = 10.0
# x values are ticked exactly when there are at most this many.
MAX_EXACT_X_TICKS = 8
OVERSUBSCRIBED_COLOR = "#999999"
OVERSUBSCRIBED_ALPHA = 0.15
# Room above the highest finite value for the starved markers (a factor: log or linear).
STARVED_HEADROOM_LINEAR = 1.15
STARVED_HEADROOM_LOG = 2.0
STARVED_MARKER = "^"
STARVED_NOTE = "▲ on the top edge: starved (no op completed)"
# Sideways distance between the points of neighbouring variants at the same x.
DODGE_STEP_PT = 1.5
LINE_WIDTH = 1.6
BAR_WIDTH = 1.4
MARKER_SIZE = 5
MARK_WIDTH = 1.2
COLOR_CYCLE = tuple(f"C{i}" for i in range(10))
# The starved marker (^) is not among them.
MARKER_CYCLE = ("o", "s", "D", "v", "P", "X", "*", "h", "<", ">")


@dataclass(frozen=True)
class Series:
    """One line: x values with the finite median and the interquartile range (low, high)
    at each, and the x values whose median is starved (not on the line). ``high`` may be
    ``inf``; low = high = median draws the point without a bar (an exact count)."""
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
class Mark:
    """A dashed vertical line at ``x`` in the colour of the series labelled ``series``, ``tag`` at its top and
    ``note`` in the panel's legend."""
    x: float
    series: str
    tag: str
    note: str


@dataclass(frozen=True)
class Panel:
    """One subplot: its title, lines and marks."""
    title: str
    series: tuple[Series, ...]
    marks: tuple[Mark, ...] = ()


@dataclass(frozen=True)
class Axes:
    """What the panels of one figure share: labels, the CPU count past which the x axis
    (threads) is oversubscribed (None: not a threads axis), and fixed x tick labels
    (history's runs). The y scale is chosen from the data: log when it spans decades."""
    xlabel: str
    ylabel: str
    oversubscribed_after: int | None = None
    x_ticklabels: tuple[tuple[float, str], ...] = ()


def _spread(values) -> float:
    positive = [v for v in values if v > 0 and math.isfinite(v)]
    if not positive:
        return 1.0
    return max(positive) / min(positive)


def _number(value: float, _position=None) -> str:
    """Tick text: 0.5, 2, 40, 500, 1,250, 4,096, 10,000."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:g}"


def _log_number(value: float, _position=None) -> str:
    """Tick text on a log axis, whose ticks are mostly powers of ten: 0.1, 1, 100, 1k, 10k, 1M
    (round thousands and millions short, others as _number: 4,096)."""
    for limit, suffix in ((1e6, "M"), (1e3, "k")):
        if abs(value) >= limit and value % limit == 0:
            return f"{value / limit:g}{suffix}"
    return _number(value)


@dataclass(frozen=True)
class _YAxis:
    log: bool
    bottom: float
    top: float  # also where starved markers sit and infinite bar ends stop
    starved: bool


def _y_axis(panels: list[Panel]) -> _YAxis:
    """One y axis for the whole figure, from every panel's values."""
    ys = [v for p in panels for s in p.series for v in (*s.low, *s.high, *s.median) if math.isfinite(v)]
    log = _spread(ys) > Y_LOG_SPREAD
    starved = any(s.starved_x or any(math.isinf(h) for h in s.high) for p in panels for s in p.series)
    high, low = max(ys, default=1.0), min(ys, default=1.0)
    if log:
        positive = [v for v in ys if v > 0] or [1.0]
        bottom, top = min(positive) / 1.4, max(positive) * (STARVED_HEADROOM_LOG if starved else 1.4)
    else:
        pad = (high - low) * 0.06 or abs(high) * 0.1 or 1.0
        bottom = max(0.0, low - pad) if low >= 0 else low - pad
        top = high * STARVED_HEADROOM_LINEAR if starved else high + pad
    return _YAxis(log, bottom, top, starved)


def _x_limits(xs: list[float], log: bool) -> tuple[float, float]:
    if log:
        return min(xs) / 1.35, max(xs) * 1.35
    pad = (max(xs) - min(xs)) * 0.05 or 0.5
    return min(xs) - pad, max(xs) + pad


def _draw_panel(ax, panel: Panel, axes: Axes, y: _YAxis, styles: dict[str, tuple[str, str]],
                order: dict[str, int], figure: Figure) -> None:
    xs = sorted({x for s in panel.series for x in (*s.x, *s.starved_x)})
    count = len(order)
    for series in panel.series:
        color, marker = styles[series.label]
        shift = (order[series.label] - (count - 1) / 2) * DODGE_STEP_PT / 72
        nudged = ax.transData + ScaledTranslation(shift, 0, figure.dpi_scale_trans)
        ax.plot(series.x, series.median, marker=marker, markersize=MARKER_SIZE, linewidth=LINE_WIDTH,
                label=series.label, color=color, transform=nudged)
        # A point without spread (a count: one exact value) gets no bar.
        bars = [(x, low, min(high, y.top)) for x, low, high in zip(series.x, series.low, series.high)
                if high > low]
        if bars:
            ax.vlines(*zip(*bars), color=color, linewidth=BAR_WIDTH, alpha=0.7, transform=nudged)
        if series.starved_x:
            ax.plot(series.starved_x, [y.top] * len(series.starved_x), linestyle="none",
                    marker=STARVED_MARKER, markersize=MARKER_SIZE + 3, color=color, clip_on=False,
                    transform=nudged)
    if axes.x_ticklabels:
        positions = [x for x, _ in axes.x_ticklabels]
        ax.set_xticks(positions, [label for _, label in axes.x_ticklabels], rotation=45,
                      ha="right", fontsize=figures.TICK_PT)
        ax.set_xlim(min(positions) - 0.3, max(positions) + 0.3)
    elif xs:
        log_x = min(xs) > 0 and _spread(xs) >= X_LOG_SPREAD
        if log_x:
            ax.set_xscale("log", base=2 if axes.oversubscribed_after is not None else 10)
        ax.set_xlim(*_x_limits(xs, log_x))
        if axes.oversubscribed_after is not None or len(xs) <= MAX_EXACT_X_TICKS:
            # Tick exactly the measured x values (thread counts, token counts).
            ax.xaxis.set_major_locator(FixedLocator(xs))
            ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(FuncFormatter(_log_number if log_x else _number))
        ax.xaxis.set_minor_formatter(NullFormatter())
    cpus = axes.oversubscribed_after
    if cpus is not None and xs and max(xs) > cpus:
        left, right = ax.get_xlim()
        ax.axvspan(cpus, right, color=OVERSUBSCRIBED_COLOR, alpha=OVERSUBSCRIBED_ALPHA, linewidth=0)
        ax.axvline(cpus, color=OVERSUBSCRIBED_COLOR, linestyle="--", linewidth=1)
        ax.set_xlim(left, right)
    _draw_marks(ax, panel.marks, styles)
    ax.set_title(panel.title, fontsize=figures.PANEL_TITLE_PT)
    ax.set_xlabel(axes.xlabel, fontsize=figures.LABEL_PT)
    ax.tick_params(axis="both", which="both", labelsize=figures.TICK_PT)
    ax.grid(True, which="major", alpha=0.3)


def _draw_marks(ax, marks: tuple[Mark, ...], styles: dict[str, tuple[str, str]]) -> None:
    """Each mark's line and tag, and a legend of their notes in the panel (where it covers the least data)."""
    for mark in marks:
        color = styles[mark.series][0] if mark.series in styles else OVERSUBSCRIBED_COLOR
        ax.axvline(mark.x, color=color, linestyle="--", linewidth=MARK_WIDTH)
        ax.annotate(mark.tag, xy=(mark.x, 1.0), xycoords=("data", "axes fraction"), xytext=(2, -2),
                    textcoords="offset points", ha="left", va="top", fontsize=figures.TICK_PT, color=color)
    if marks:
        handles = [Line2D([], [], color=styles.get(m.series, (OVERSUBSCRIBED_COLOR,))[0], linestyle="--",
                          linewidth=MARK_WIDTH, label=m.note) for m in marks]
        ax.legend(handles=handles, loc="best", fontsize=figures.TICK_PT, framealpha=0.85, handlelength=1.5)


def build_figure(title: str, panels: list[Panel], axes: Axes, size: figures.PanelSize = figures.STANDARD) -> Figure:
    """The figure of ``panels`` (a grid of up to figures.MAX_COLUMNS columns of ``size``, one shared y
    axis, one legend below). The caller saves and closes it."""
    labels = sorted({s.label for p in panels for s in p.series})
    styles = {label: (COLOR_CYCLE[i % len(COLOR_CYCLE)], MARKER_CYCLE[i % len(MARKER_CYCLE)])
              for i, label in enumerate(labels)}
    order = {label: i for i, label in enumerate(labels)}
    y = _y_axis(panels)
    cpus = axes.oversubscribed_after
    shaded = cpus is not None and any(x > cpus for p in panels for s in p.series for x in (*s.x, *s.starved_x))
    handles = [Line2D([], [], color=styles[label][0], marker=styles[label][1], markersize=MARKER_SIZE,
                      linewidth=LINE_WIDTH, label=label) for label in labels]
    if shaded:
        handles.append(Patch(color=OVERSUBSCRIBED_COLOR, alpha=OVERSUBSCRIBED_ALPHA * 2,
                             label=f"oversubscribed (> {cpus} CPUs)"))
    if y.starved:
        handles.append(Line2D([], [], color="#444444", marker=STARVED_MARKER, linestyle="none",
                              markersize=MARKER_SIZE + 2, label=STARVED_NOTE))
    rows, columns = figures.grid(len(panels))
    width, height = figures.figure_size(len(panels), len(handles), size)
    figure, grid = plt.subplots(rows, columns, squeeze=False, sharey=True, figsize=(width, height),
                                layout="constrained")
    for ax in list(grid.flat)[len(panels):]:
        ax.remove()
    first = grid.flat[0]
    if y.log:
        first.set_yscale("log")
    first.set_ylim(y.bottom, y.top)
    for ax, panel in zip(grid.flat, panels):
        _draw_panel(ax, panel, axes, y, styles, order, figure)
    first.yaxis.set_major_formatter(FuncFormatter(_log_number if y.log else _number))
    first.yaxis.set_minor_formatter(NullFormatter())
    for row in grid:
        row[0].set_ylabel(axes.ylabel, fontsize=figures.LABEL_PT)
    figure.suptitle(title, fontsize=figures.TITLE_PT)
    if handles:
        figure.legend(handles=handles, loc="outside lower center", fontsize=figures.LEGEND_PT, frameon=False,
                      ncol=figures.legend_columns(len(handles), columns, size))
    return figure


def draw_figure(path: Path, title: str, panels: list[Panel], axes: Axes,
                size: figures.PanelSize = figures.STANDARD) -> None:
    """Draw ``panels`` into one PNG at ``path`` (see build_figure)."""
    figure = build_figure(title, panels, axes, size)
    try:
        figure.savefig(path, dpi=figures.DPI)
    finally:
        plt.close(figure)
