"""How the report names a variant a package brought: its id followed by the module that brought it, wherever a
variant is named (decision tables, every table of cases, the stress checks), and the part that lists every
brought-in variant with its cases, so that none can vanish from the report for standing in no decision table."""

from __future__ import annotations

from collections import defaultdict
from typing import Mapping

# Joins a name to its module (and, in the decision tables, a variant to its factor and a CI's ends), so that a
# table cell never wraps between them.
NBSP = "\u00a0"

Origins = Mapping[tuple[str, str], str]  # (suite, variant) -> the module that brought it


def marked(name: str, module: str | None) -> str:
    """``name``, or ``name (MyBench)`` when ``module`` brought it."""
    return f"{name}{NBSP}({module})" if module else name


def variant_module(origins: Origins, suite: str, variant: str) -> str | None:
    """The module that brought ``variant`` of ``suite``, or None for a built-in one."""
    return origins.get((suite, variant))


def check_module(origins: Origins, check: str, origin: str | None = None) -> str | None:
    """The module that brought the variant a stress check (``family/variant/check``) checks: the stress file's
    own ``origin`` when it records one, else the timing file's ``origins``."""
    if origin:
        return origin
    parts = check.split("/")
    return origins.get((parts[0], parts[1])) if len(parts) >= 3 else None


def brought_in_rows(origins: Origins, cases, checks) -> list[tuple[str, str, str, str]]:
    """A row per brought-in variant: its name, its module, its timed cases (``benchmark threads:N,M``, joined)
    and its stress checks, so that each is listed even when it stands in no decision table. ``cases`` are the
    timed CaseKeys; ``checks`` (check name, module) pairs of the stress file."""
    timed: dict[tuple[str, str], dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
    for key in cases:
        if (key.suite, key.variant) in origins:
            timed[key.suite, key.variant][key.benchmark].add(key.threads)
    checked: dict[tuple[str, str], set[str]] = defaultdict(set)
    modules = dict(origins)
    for check, module in checks:
        parts = check.split("/")
        if module and len(parts) >= 3 and parts[0] != "control":
            checked[parts[0], parts[1]].add(parts[2])
            modules.setdefault((parts[0], parts[1]), module)
    rows = []
    for (suite, variant), module in sorted(modules.items()):
        benchmarks = timed.get((suite, variant), {})
        timed_text = "; ".join(f"`{suite}/{benchmark}` at {', '.join(map(str, sorted(threads)))} threads"
                               for benchmark, threads in sorted(benchmarks.items())) or "not timed here"
        checks_text = ", ".join(f"`{name}`" for name in sorted(checked.get((suite, variant), ()))) or "none here"
        rows.append((f"`{variant}`", module, timed_text, checks_text))
    return rows
