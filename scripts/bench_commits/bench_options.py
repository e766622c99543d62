"""bench's options as bench-commits passes them on: which a user may give after ``--``, which it sets itself,
how they carry over to ``bench count``, and the exit statuses of bench it acts on.
"""

from __future__ import annotations

from pathlib import Path

from .errors import ComparisonError

# bench's exit statuses that bench-commits acts on.
BENCH_UNAVAILABLE = 69  # bench count: valgrind, jemalloc or objcopy not installed
BENCH_INTERRUPTED = (130, 143)

# Options bench-commits sets itself on every invocation; given after `--` they would contradict it.
RESERVED_BENCH_OPTIONS = ("--rounds", "--round", "--seed", "--run-environment", "--output", "--overwrite")


def option_name(argument: str) -> str:
    """The option an argument names: ``--filter=x`` and ``--filter`` both name ``--filter``."""
    return argument.split("=", 1)[0]


def check_bench_options(options: list[str]) -> tuple[list[str], bool]:
    """Validate the options given after ``--``; return them without ``--quick`` and whether it was there
    (``--quick`` is bench-commits' own too, and goes to bench count as well).

    Raises ComparisonError for a subcommand or an option that bench-commits sets itself.
    """
    if options and not options[0].startswith("-"):
        raise ComparisonError(f"bench options after '--' must be options, not a subcommand: {options[0]!r}")
    kept, quick = [], False
    for argument in options:
        name = option_name(argument)
        if name in RESERVED_BENCH_OPTIONS:
            raise ComparisonError(f"{name} is set by bench-commits for each round; leave it out of the bench options")
        if argument == "--quick":
            quick = True
            continue
        kept.append(argument)
    return kept, quick


def filter_option(options: list[str]) -> list[str]:
    """The ``--filter`` among bench options, as arguments for ``bench count`` (empty when none; the last
    one wins, as in bench)."""
    found: list[str] = []
    for index, argument in enumerate(options):
        if argument == "--filter" and index + 1 < len(options):
            found = ["--filter", options[index + 1]]
        elif argument.startswith("--filter="):
            found = ["--filter", argument.split("=", 1)[1]]
    return found


def with_filter(options: list[str], pattern: str) -> list[str]:
    """``options`` with every ``--filter`` replaced by one, ``pattern``."""
    return [*without_filter(options), "--filter", pattern]


def without_filter(options: list[str]) -> list[str]:
    """``options`` without any ``--filter``: those of the whole suite."""
    kept: list[str] = []
    skip = False
    for argument in options:
        if skip:
            skip = False
        elif argument == "--filter":
            skip = True
        elif not argument.startswith("--filter="):
            kept.append(argument)
    return kept


def count_arguments(bench_options: list[str], quick: bool, output: Path) -> list[str]:
    """The arguments of one side's ``bench count``: the same --quick and --filter as the timed rounds."""
    return ["count", *(["--quick"] if quick else []), *filter_option(bench_options), "--output", str(output)]
