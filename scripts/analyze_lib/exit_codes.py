"""Every exit code of scripts/analyze and scripts/bench-commits, defined once.

CI acts on these numbers, so they never change meaning. The gate's own outcomes skip 2
(bad input or usage, argparse's too) and 3 (scripts/analyze or scripts/bench-commits could
not set up the Python environment: scripts/venv.sh exits 3 itself); bench-commits bisect adds 6 (no change to
find). Their meanings are here too, one table per tool, which the --help texts print and docs/exit-codes.md's
tables must equal.
Imports only the standard library, so every stage and bench_commits may take it.
"""

import re
import textwrap

EXIT_OK = 0
# The gate's outcomes (judge.gate maps each status to one of these).
EXIT_PASSED = EXIT_OK
EXIT_REGRESSION = 1
EXIT_INCONCLUSIVE = 4
EXIT_INCOMPLETE = 5
EXIT_BAD_INPUT = 2
EXIT_ENVIRONMENT = 3
# bench-commits bisect: BAD did not move against GOOD, so there is no commit to find.
EXIT_NO_CHANGE = 6
# bench-commits interrupted (Ctrl-C); 128 + SIGINT, as a shell reports it.
EXIT_INTERRUPTED = 130
# When several gates (timing, counts) or outcomes apply, the first of these wins.
GATE_PRECEDENCE = (EXIT_REGRESSION, EXIT_INCOMPLETE, EXIT_INCONCLUSIVE, EXIT_PASSED)

# What each code means, stated once per tool: docs/exit-codes.md's tables must agree word for word
# (scripts/tests/test_exit_codes.py), and each tool's --help prints them as plain text
# (exit_codes_help). Written in that page's Markdown: `code` and [text](link), a link relative to docs/.
DOCS_DIRECTORY = "docs/"
_RULE = "[the rule](comparison-rule.md#when-the-gate-may-pass)"
_PRECEDENCE = ", ".join(str(code) for code in GATE_PRECEDENCE if code != EXIT_PASSED)

ANALYZE_EXIT_CODES: tuple[tuple[int, str], ...] = (
    (EXIT_OK, "Success; for `gate`: passed (every base case is in head or `--allow-missing`, at least one case "
              "could be decided, none is slower or worse, and nothing the gate could not judge stands against "
              f"a pass: {_RULE})."),
    (EXIT_REGRESSION, "`gate`: regression, at least one case or a whole suite is slower, or for counts files "
                      "worse (more instructions or allocations per op)."),
    (EXIT_BAD_INPUT, "Bad input or usage: a missing, unreadable or malformed file, an unknown schema version, a "
                     "duplicate sample, case or outcome, no case in common, a timing file against a counts file, "
                     "a stress file to `compare`, `gate` or `export`, a bad option. One line on stderr names the "
                     "file and line."),
    (EXIT_ENVIRONMENT, "`scripts/analyze` could not set up its Python environment (`.venv`; pip's output is "
                       "shown)."),
    (EXIT_INCONCLUSIVE, "`gate`: inconclusive: no compared case can be decided (too few samples or rounds, or "
                        "every case unstable, bimodal or starved), or a pass is not supported (a case "
                        "it could not judge moved, most cases could not be judged, or, in separate runs, the "
                        f"machine's canary `harness/empty` moved: {_RULE}); the headline says what would decide it."),
    (EXIT_INCOMPLETE, "`gate`: incomplete: base cases are missing from head (an interrupted or filtered run; "
                      "`--allow-missing` if on purpose), or head's run did not complete (`run_complete` false, "
                      "or fewer rounds than `run_rounds`, `run_min_rounds` in an adaptive run; nothing overrides "
                      "that)."),
)

BENCH_COMMITS_EXIT_CODES: tuple[tuple[int, str], ...] = (
    (EXIT_PASSED, "No regression: the timing gate (and the counts gate, when run) passed. `--check-gate`: all "
                  "three comparisons as expected."),
    (EXIT_REGRESSION, "Regression: a case or a suite slower, or a case worse in counts. `--check-gate`: a "
                      "comparison not as expected."),
    (EXIT_BAD_INPUT, "Bad input: bad revision or option, dirty working tree at `HEAD`, a build or `bench` "
                     "failure, unreadable results. One line on stderr."),
    (EXIT_ENVIRONMENT, "The Python environment (`.venv`, shared with `scripts/analyze`) could not be set up."),
    (EXIT_INCONCLUSIVE, "Gate inconclusive: no case could be decided (for example `--abba --pairs 4` on the full "
                        f"suite), or what it could not judge stands against a pass ({_RULE})."),
    (EXIT_INCOMPLETE, "Gate incomplete: base cases missing from head."),
    (EXIT_INTERRUPTED, "Interrupted (Ctrl-C; 143 for SIGTERM): the child bench is stopped, the CSVs written so "
                       "far are kept."),
)

BENCH_COMMITS_BISECT_EXIT_CODES: tuple[tuple[int, str], ...] = (
    (EXIT_OK, "Found: the first commit at which the chosen cases got slower (with `--faster`: faster) is named."),
    (EXIT_BAD_INPUT, "Bad input: bad revision or option, GOOD not an ancestor of BAD on its first-parent history, "
                     "an empty range, dirty working tree at `HEAD`, GOOD or BAD that does not build, a `bench` "
                     "failure. One line on stderr."),
    (EXIT_ENVIRONMENT, "The Python environment (`.venv`, shared with `scripts/analyze`) could not be set up."),
    (EXIT_INCONCLUSIVE, "Stopped: a step's change stayed undecided when timed further, or the commits left could not "
                        "be built; the report names the range the first commit is in."),
    (EXIT_NO_CHANGE, "No change: BAD is not slower (with `--faster`: not faster) than GOOD on the chosen cases, or "
                     "runs the same code for them."),
    (EXIT_INTERRUPTED, "Interrupted (Ctrl-C; 143 for SIGTERM): the child bench is stopped, the CSVs written so "
                       "far are kept."),
)
BENCH_COMMITS_BISECT_NOTE = "Every timed step is a paired comparison judged by the gate's rule " \
    "([comparison-rule.md](comparison-rule.md))."

# Printed under each table and each --help.
ANALYZE_PRECEDENCE_NOTE = f"When several gate outcomes apply, the first of {_PRECEDENCE} wins."
BENCH_COMMITS_PRECEDENCE_NOTE = (f"When the timing and counts gates differ, the first of {_PRECEDENCE} wins, as in "
                                 "`scripts/analyze gate`.")


def plain(markdown: str) -> str:
    """``markdown``'s text for a terminal: `code` loses its backticks, [text](link) becomes the link's path from
    the repository's root (docs/ and the link)."""
    return re.sub(r"\[[^\]]*\]\(([^)]*)\)", DOCS_DIRECTORY + r"\1", markdown).replace("`", "")


def exit_codes_help(codes: tuple[tuple[int, str], ...], note: str, width: int = 100) -> str:
    """The ``exit codes:`` epilog of a --help: each code and its meaning, wrapped under it, then ``note``."""
    lines = ["exit codes:"]
    for code, meaning in codes:
        lines += textwrap.wrap(plain(meaning), width, initial_indent=f"  {code:<5}", subsequent_indent=" " * 7,
                               break_on_hyphens=False, break_long_words=False)
    return "\n".join(lines + [plain(note)]) + "\n"
