"""racy_catch_rates.tally counts, per racy control, the runs that caught it and those within the minimum, and
ignores every other row."""

from racy_catch_rates import Tally, markdown, tally


def _row(check: str, kind: str, trials_to_first: str, minimum: str = "100") -> dict[str, str]:
    return {"check": check, "threads": "2", "control_kind": kind, "minimum_trials": minimum,
            "trials_to_first_forbidden": trials_to_first}


def test_counts_catches_within_and_beyond_the_minimum_and_misses() -> None:
    tallies: dict[str, Tally] = {}
    tally([_row("control/a/x/c", "racy", "40"), _row("control/a/x/c", "racy", "40"),  # one slot, two outcome rows
           _row("control/b/y/c", "racy", "")], tallies)
    tally([_row("control/a/x/c", "racy", "250"), _row("control/b/y/c", "racy", "100"),
           _row("control/d/z/c", "deterministic", "1"), _row("once/v/c", "", "")], tallies)
    assert set(tallies) == {"control/a/x/c", "control/b/y/c"}
    a, b = tallies["control/a/x/c"], tallies["control/b/y/c"]
    assert (a.runs, a.caught, a.within_minimum, a.trials) == (2, 2, 1, [40, 250])
    assert (b.runs, b.caught, b.within_minimum, b.trials) == (2, 1, 1, [100])
    table = markdown(tallies, busy=2)
    assert "| `control/a/x/c` | 100 | 2 of 2 | 1 of 2 | 145, 250 |" in table
    assert "beside 2 `yes` processes" in table
