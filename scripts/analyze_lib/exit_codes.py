"""Every exit code of scripts/analyze and scripts/bench-commits, defined once.

CI acts on these numbers, so they never change meaning. The gate's own outcomes skip 2
(bad input or usage, argparse's too) and 3 (scripts/analyze or scripts/bench-commits could
not set up the Python environment: scripts/venv.sh exits 3 itself). Imports nothing, so
every stage and bench_commits may take it.
"""

EXIT_OK = 0
# The gate's outcomes (judge.gate maps each status to one of these).
EXIT_PASSED = EXIT_OK
EXIT_REGRESSION = 1
EXIT_INCONCLUSIVE = 4
EXIT_INCOMPLETE = 5
EXIT_BAD_INPUT = 2
EXIT_ENVIRONMENT = 3
# bench-commits interrupted (Ctrl-C); 128 + SIGINT, as a shell reports it.
EXIT_INTERRUPTED = 130
# When several gates (timing, counts) or outcomes apply, the first of these wins.
GATE_PRECEDENCE = (EXIT_REGRESSION, EXIT_INCOMPLETE, EXIT_INCONCLUSIVE, EXIT_PASSED)
