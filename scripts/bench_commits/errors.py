"""The one error bench-commits reports and stops on."""


class ComparisonError(Exception):
    """A comparison that cannot be made or finished: bad usage found before anything runs, a revision that
    names no commit, a build, a link or a bench run that failed. The message is the one line to print; the exit
    code is 2 (analyze_lib.exit_codes.EXIT_BAD_INPUT)."""
