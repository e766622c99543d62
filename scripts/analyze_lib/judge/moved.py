"""What moved with a slower case: its per-operation signals (judge/signals.py) on both sides of a
comparison, and which of them changed with its time.

Both sides' timing files hold each sample's switches and CPU time, paired runs too, so a case
called slower can say whether it now blocks (voluntary switches per op), spends its time in the
kernel (kernel time per op) or is preempted more (involuntary switches per op), or whether none of
those moved (the cost grew in user space: more work, or a slower path). A signal *moved* when the
two sides differ by at least MOVED_FACTOR and by at least its floor (a change of 0.001 to 0.003
switches per op is not worth a word). Pure; present/render.py says it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..files.model import Case, CaseKey
from .diagnosis import CONVOY_SWITCHES_PER_OP
from .signals import Signals, finite, signals

VOLUNTARY = "voluntary"
KERNEL = "kernel_ns"
INVOLUNTARY = "involuntary"
# The signals a slower case is checked for, in the order they are said.
WATCHED = (VOLUNTARY, KERNEL, INVOLUNTARY)
# A signal moved when one side is at least this many times the other ...
MOVED_FACTOR = 2.0
# ... and they differ by at least this much: switches per op, and kernel time per op as a share of
# the slower side's time per op (kernel time that is a tenth of the cost or more).
SWITCHES_FLOOR = 0.05
KERNEL_FLOOR_SHARE = 0.1


@dataclass(frozen=True)
class SignalMove:
    """One signal of a compared case on both sides (None where a side has no value) and whether it
    moved (MOVED_FACTOR and its floor)."""

    name: str
    base: float | None
    head: float | None
    moved: bool


@dataclass(frozen=True)
class WhatMoved:
    """The watched signals of one compared case, base and head; ``blocking`` is "now" when head
    blocks on every other operation or more (CONVOY_SWITCHES_PER_OP voluntary switches per op) and
    base did not, "no longer" the other way round, None when neither or both do."""

    key: CaseKey
    moves: tuple[SignalMove, ...]
    blocking: str | None = None

    @property
    def moved(self) -> tuple[SignalMove, ...]:
        """The signals that moved."""
        return tuple(m for m in self.moves if m.moved)


def _moved(base: float | None, head: float | None, floor: float) -> bool:
    if not (finite(base) and finite(head)):
        return False
    low, high = sorted((base, head))
    if high - low < floor:
        return False
    return low == 0 or high / low >= MOVED_FACTOR


def compare_signals(key: CaseKey, base: Signals, head: Signals, head_median: float) -> WhatMoved:
    """What moved between ``base`` and ``head`` signals of one case whose head costs ``head_median``
    ns per op (the floor of kernel time is a share of it)."""
    kernel_floor = KERNEL_FLOOR_SHARE * head_median if math.isfinite(head_median) else math.inf
    floors = {VOLUNTARY: SWITCHES_FLOOR, INVOLUNTARY: SWITCHES_FLOOR, KERNEL: kernel_floor}
    moves = tuple(SignalMove(name, getattr(base, name), getattr(head, name),
                             _moved(getattr(base, name), getattr(head, name), floors[name])) for name in WATCHED)
    blocking = None
    if finite(base.voluntary) and finite(head.voluntary):
        was, now = base.voluntary >= CONVOY_SWITCHES_PER_OP, head.voluntary >= CONVOY_SWITCHES_PER_OP
        blocking = "now" if now and not was else "no longer" if was and not now else None
    return WhatMoved(key, moves, blocking)


def what_moved(key: CaseKey, base: Case, head: Case, base_cpus: int, head_cpus: int, head_median: float,
               base_siblings: list[Case] | None = None, head_siblings: list[Case] | None = None) -> WhatMoved:
    """What moved with case ``key`` between its ``base`` and ``head`` samples (each side's logical
    CPUs, and its other role rows, whose operations share the process's counts)."""
    return compare_signals(key, signals(base, base_cpus, base_siblings), signals(head, head_cpus, head_siblings),
                           head_median)
