"""Option values checked as argparse reads them: scripts/analyze's and scripts/bench-commits'."""

from __future__ import annotations

import argparse
from typing import Callable


def checked_number(kind: type[int] | type[float], rule: str, accepts: Callable[[float], bool]):
    """An argparse ``type=`` that reads its text as ``kind`` (int or float) and returns the value when
    ``accepts`` it. Anything else is refused with one line argparse prints after the option's name:
    ``not a whole number: 'x'`` (int) or ``not a number: 'x'`` (float), else ``must be <rule>: 'x'``."""
    not_one = "not a whole number" if kind is int else "not a number"

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{not_one}: {text!r}") from None
        if not accepts(value):
            raise argparse.ArgumentTypeError(f"must be {rule}: {text!r}")
        return value
    return parse


# A significance level, strictly between 0 and 1: scripts/analyze's --alpha and scripts/bench-commits'.
significance_level = checked_number(float, "between 0 and 1", lambda value: 0 < value < 1)
