"""Numeric options are checked as they are read, with one rule (argtypes.checked_number): each option's
accepted values, and the exact line argparse prints for a refused one, in both command lines."""

from __future__ import annotations

import pytest

from analyze_lib import cli as analyze_cli
from bench_commits import cli as bench_commits_cli

ANALYZE_GATE = ["gate", "base.csv", "head.csv"]

ACCEPTED = [
    (analyze_cli, ANALYZE_GATE, "--threshold", "0", "threshold", 0.0),
    (analyze_cli, ANALYZE_GATE, "--alpha", "0.05", "alpha", 0.05),
    (analyze_cli, ANALYZE_GATE, "--instructions-tolerance", "999.5", "instructions_tolerance", 999.5),
    (analyze_cli, ANALYZE_GATE, "--allocations-tolerance", "0", "allocations_tolerance", 0.0),
    (bench_commits_cli, [], "--pairs", "1", "pairs", 1),
    (bench_commits_cli, [], "--seed", str(2**31 - 1), "seed", 2**31 - 1),
    (bench_commits_cli, [], "--sample-time", "0.1", "sample_time", 0.1),
    (bench_commits_cli, [], "--budget", "1440", "budget", 1440.0),
]

REFUSED = [
    (analyze_cli, ANALYZE_GATE, "--threshold", "x", "not a number: 'x'"),
    (analyze_cli, ANALYZE_GATE, "--threshold", "1000", "must be a percentage in [0, 1000): '1000'"),
    (analyze_cli, ANALYZE_GATE, "--alpha", "1", "must be between 0 and 1: '1'"),
    (analyze_cli, ANALYZE_GATE, "--alpha", "nan", "must be between 0 and 1: 'nan'"),
    (analyze_cli, ANALYZE_GATE, "--instructions-tolerance", "-1", "must be a percentage in [0, 1000): '-1'"),
    (analyze_cli, ANALYZE_GATE, "--allocations-tolerance", "inf",
     "must be a number of allocations per op, at least 0: 'inf'"),
    (bench_commits_cli, [], "--pairs", "1.5", "not a whole number: '1.5'"),
    (bench_commits_cli, [], "--rounds", "0", "must be at least 1: '0'"),
    (bench_commits_cli, [], "--seed", "0", "must be in 1..2147483647: '0'"),
    (bench_commits_cli, [], "--sample-time", "0.05", "must be 0.1 to 60000 milliseconds: '0.05'"),
    (bench_commits_cli, [], "--budget", "x", "not a number: 'x'"),
    (bench_commits_cli, [], "--budget", "1441", "must be 0 to 1440 minutes: '1441'"),
]


@pytest.mark.parametrize("cli, argv, option, text, dest, expected", ACCEPTED)
def test_an_accepted_value_is_read_as_its_number(cli, argv, option, text, dest, expected):
    value = getattr(cli.build_parser().parse_args(argv + [option, text]), dest)
    assert value == expected and type(value) is type(expected)


@pytest.mark.parametrize("cli, argv, option, text, message", REFUSED)
def test_a_refused_value_is_a_usage_error_that_says_why(cli, argv, option, text, message, capsys):
    with pytest.raises(SystemExit) as exited:
        cli.build_parser().parse_args(argv + [option, text])
    assert exited.value.code == 2
    assert f"argument {option}: {message}" in capsys.readouterr().err
