"""Whether a comparison of a user's package would measure any of the package's own variants: a gate that measured
only DispatchBench's built-ins (a ``--product`` from the dependency, a ``--filter`` that matches none of the
package's cases) must not pass for the package. Each built side is asked with ``--list`` before anything is
timed; bench marks a brought-in case's line with the module that brought it (``from:MyBench``)."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from typing import Callable
from pathlib import Path

from .bench_options import filter_option
from .errors import ComparisonError

# `once/hit/array-token-once threads:1 tokens:100 from:MyBench`: a case, and the module of a brought-in one;
# `harness/empty/loop threads:1 (control)`: a control, which a timing run adds to what its --filter selects
# (bench's TimedCases.controlMark) and `bench worker` does not measure.
LISTED_CASE = re.compile(r"^(?P<path>[^/\s]+/[^/\s]+/\S+) threads:\d+(?: \S+)*?(?: from:(?P<module>\S+))?"
                         r"(?P<control> \(control\))?$")
LIST_TIMEOUT_SECONDS = 120
# How many of the package's variants the one-line hint names before "…".
HINT_VARIANTS = 6


@dataclass(frozen=True)
class ListedCase:
    """One line of ``bench --list``: the case's ``suite/benchmark/variant``, for a brought-in variant the module
    that brought it (None for a built-in), and whether the timing run adds it as a control (a bench from before
    controls lists none)."""

    path: str
    module: str | None
    control: bool = False


def parse_list(text: str) -> list[ListedCase]:
    """The cases of ``bench --list``'s output (its closing count line and anything else left out)."""
    return [ListedCase(found["path"], found["module"], found["control"] is not None) for line in text.splitlines()
            if (found := LISTED_CASE.match(line.strip()))]


def list_cases(binary: Path, cwd: Path, options: list[str]) -> list[ListedCase]:
    """The cases ``binary`` lists with bench ``options`` (its --filter and --threads), run in ``cwd``.
    ComparisonError with bench's own line when it refuses them (a filter that matches nothing)."""
    try:
        done = subprocess.run([str(binary), *options, "--list"], cwd=cwd, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=LIST_TIMEOUT_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ComparisonError(f"cannot list the cases of {binary.name}: {error}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        raise ComparisonError(f"{binary.name} --list: {last}")
    return parse_list(done.stdout)


def check_measures_package(package: str, product: str, every_case: Callable[[], list[ListedCase]],
                           selected: list[ListedCase], bench_options: list[str], default_product: str | None) -> None:
    """ComparisonError, with what to type instead, when ``selected`` (the cases the comparison would measure)
    holds none of the variants ``product`` brings for ``package``. ``every_case`` gives what the product lists with
    no filter, asked only to word the error; ``default_product`` is the package's own benchmark executable, when it
    has exactly one."""
    if any(case.module for case in selected):
        return
    brought = sorted({case.path.rsplit("/", 1)[1] for case in every_case() if case.module})
    if not brought:
        instead = (f"type --product {default_product}" if default_product and default_product != product else
                   "give the --product whose main.swift calls DispatchBench.main with your variants")
        raise ComparisonError(f"--product {product} brings none of {package}'s variants, so the gate would measure "
                              f"DispatchBench's built-ins alone: {instead}")
    named = "|".join(brought[:HINT_VARIANTS]) + ("|…" if len(brought) > HINT_VARIANTS else "")
    given = filter_option(bench_options)
    what = f"--filter '{given[1]}'" if given else "the --threads given"
    raise ComparisonError(f"{what} selects none of {package}'s variants ({', '.join(brought[:HINT_VARIANTS])}"
                          f"{', …' if len(brought) > HINT_VARIANTS else ''}), so the gate would measure "
                          f"DispatchBench's built-ins alone: add them, e.g. -- --filter '/({named})$'")
