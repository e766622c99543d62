"""scipy.stats, imported on its first use. The import takes about half a second, which a command that only prints
its help or refuses its input should not pay; the judge's modules reach scipy.stats through ``scipy_stats()``."""

from __future__ import annotations

import functools
from types import ModuleType


@functools.cache
def scipy_stats() -> ModuleType:
    """The scipy.stats module (imported by the first call)."""
    from scipy import stats

    module: ModuleType = stats
    return module
