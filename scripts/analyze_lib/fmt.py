"""Numbers as words, in one place: every table, sentence and JSON document spells a
duration, a ratio, an interval, a p-value or a count the same way.

Imports nothing from the package, so judging's own sentences (warnings, reasons) and
presenting share these spellings (guarded by scripts/tests/test_layers.py).
"""

from __future__ import annotations

import math

# How a starved (infinite) time and an undefined number read in tables.
STARVED_TEXT = "starved"
UNDEFINED_TEXT = "—"
INFINITE_RATIO_TEXT = "∞"
# A head/base ratio's special values in words: ``inf`` only comes from a starved head median,
# 0 from a starved base median (no operation completed in at least half the samples).
HEAD_STARVED_RATIO_TEXT = "∞ (head starved)"
BASE_STARVED_RATIO_TEXT = "0 (base starved)"
UNDEFINED_INTERVAL_TEXT = "undefined"
# JSON has no infinity: the CSV's own spelling stands for it.
JSON_INFINITY = "inf"


def fmt_ns(value: float) -> str:
    """A duration in ns with about three significant digits: 1,234 / 12.3 / 1.23 / 0.123;
    ``starved`` for inf (no operation completed), ``—`` for NaN."""
    if math.isnan(value):
        return UNDEFINED_TEXT
    if math.isinf(value):
        return STARVED_TEXT
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def fmt_ratio(value: float) -> str:
    """A ratio with two decimals, two significant digits below 0.01 (0.0042, never a
    misleading 0.00); ``∞`` for inf, ``—`` for NaN (no ratio)."""
    if math.isnan(value):
        return UNDEFINED_TEXT
    if math.isinf(value):
        return INFINITE_RATIO_TEXT
    if 0 < value < 0.01:
        return f"{value:.2g}"
    return f"{value:.2f}"


def fmt_head_base_ratio(value: float) -> str:
    """A head/base ratio (of medians, or an interval's end): fmt_ratio, with words for the
    values only a starved median gives: ``∞ (head starved)``, ``0 (base starved)``."""
    if math.isinf(value):
        return HEAD_STARVED_RATIO_TEXT
    if value == 0:
        return BASE_STARVED_RATIO_TEXT
    return fmt_ratio(value)


def fmt_ci(low: float, high: float) -> str:
    """An interval of head/base ratios as ``[low, high]``, its starved ends in words
    (fmt_head_base_ratio); ``undefined`` when an end is NaN."""
    if math.isnan(low) or math.isnan(high):
        return UNDEFINED_INTERVAL_TEXT
    return f"[{fmt_head_base_ratio(low)}, {fmt_head_base_ratio(high)}]"


def fmt_p(value: float) -> str:
    """A p-value with two significant digits."""
    return f"{value:.2g}"


def fmt_multiple(value: float) -> str:
    """A factor with three significant digits: 1.23, 12.3, 123, 2,352 (a 2352.02× ratio is
    noise in the last places); ``∞`` for inf."""
    if math.isfinite(value) and value >= 100:
        return f"{value:,.0f}"
    if math.isfinite(value) and value >= 10:
        return f"{value:.1f}"
    return fmt_ratio(value)


def fmt_count(count: int, noun: str) -> str:
    """A count and its noun, plural unless one: ``1 case``, ``2 cases``, ``1,204 cases``."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def fmt_duration(ns: float) -> str:
    """A duration in ns with its unit and two or three significant digits: ``253 ns``, ``2.2 µs``,
    ``25 µs``, ``1.3 ms``; ``—`` for NaN."""
    if math.isnan(ns):
        return UNDEFINED_TEXT
    for unit, scale in (("ms", 1e6), ("µs", 1e3)):
        if abs(ns) >= scale:
            return f"{ns / scale:.2g} {unit}" if abs(ns) < 10 * scale else f"{ns / scale:,.0f} {unit}"
    return f"{ns:.2g} ns" if abs(ns) < 10 else f"{ns:,.0f} ns"


def fmt_rate(value: float) -> str:
    """A small rate per operation (context switches per op): ``1.15``, ``0.0022``, ``0``."""
    if math.isnan(value):
        return UNDEFINED_TEXT
    if value == 0:
        return "0"
    return f"{value:.3g}" if abs(value) >= 1 else f"{value:.2g}"


def fmt_seconds(value: float) -> str:
    """Seconds as bench writes them, to the millisecond: ``0.329 s``."""
    return f"{value:.3f} s"


def fmt_instructions(value: float) -> str:
    """Instructions per op to two decimals, so a column lines up: 12.50, 97.00, 15,000.25."""
    return f"{value:,.2f}"


def fmt_allocations(value: float) -> str:
    """Allocations per op to the thousandth (0.000, 1.000, 0.013), or two significant
    digits below that (2.5e-05), so that a rare allocation never reads 0."""
    if value == 0 or value >= 0.001:
        return f"{value:.3f}"
    return f"{value:.2g}"


def fmt_counts_ratio(value: float) -> str:
    """A ratio of instruction counts to four decimals (1.0200): the tolerance is about 1%."""
    return f"{value:.4f}"


def fmt_percent(change: float) -> str:
    """A relative change with its sign: +2.0%, -0.50%."""
    return f"{change * 100:+.2f}%" if abs(change) < 0.01 else f"{change * 100:+.1f}%"


def fmt_difference(value: float) -> str:
    """An allocations/op difference with its sign: +1.000, -0.013, 0."""
    return "0" if value == 0 else ("+" if value > 0 else "-") + fmt_allocations(abs(value))


def json_number(value: float) -> float | str | None:
    """``value`` for JSON, which has no infinity or NaN: a finite value as is, ``inf``
    (a starved median, or a ratio with one) as the string ``"inf"`` (the CSV's own
    spelling), NaN (undefined, e.g. the ratio of two starved medians) as null."""
    if math.isnan(value):
        return None
    if math.isinf(value):
        return JSON_INFINITY if value > 0 else "-" + JSON_INFINITY
    return value
