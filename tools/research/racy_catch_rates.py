"""How often each racy negative control of ``bench stress`` is caught, and within how many trials (issue 72): runs
``bench stress`` on the racy controls alone ``--runs`` times, each a fresh process at the default settings, and
counts per control the runs that caught it at all (within its 10 s budget) and those that caught it within its
check's minimum trials, the figure that says a variant with the same race would be caught.

    .venv/bin/python tools/research/racy_catch_rates.py [--runs 20] [--busy 2] [--bench .build/release/bench]

``--busy N`` starts N ``yes > /dev/null`` processes for the whole measurement (the "busy machine" of the issue)
and stops them at the end. Markdown on stdout; each run's stress CSV is kept under ``--keep DIR`` when given.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

# The racy controls, as `bench stress --filter` selects them alone (no variant's check matches it).
RACY_FILTER = "^control/.*/(unguarded-tracker|copy-outside-lock|check-then-increment|unlocked-signal)/"


@dataclass
class Tally:
    """One racy control over the runs: how many caught it, how many within its check's minimum trials, and
    the trials each catch took."""

    minimum: int = 0
    runs: int = 0
    caught: int = 0
    within_minimum: int = 0
    trials: list[int] = field(default_factory=list)


def tally(rows: list[dict[str, str]], tallies: dict[str, Tally]) -> None:
    """Adds one run's stress rows (their racy controls, one (check, threads) slot each) to ``tallies``."""
    slots = {(r["check"], r["threads"]): r for r in rows if r.get("control_kind") == "racy"}
    for (check, _), row in slots.items():
        t = tallies.setdefault(check, Tally())
        t.minimum = int(row["minimum_trials"])
        t.runs += 1
        if row["trials_to_first_forbidden"]:
            trials = int(row["trials_to_first_forbidden"])
            t.caught += 1
            t.trials.append(trials)
            t.within_minimum += trials <= t.minimum


def markdown(tallies: dict[str, Tally], busy: int) -> str:
    """The table the finding shows."""
    lines = [f"Machine {'beside ' + str(busy) + ' `yes` processes' if busy else 'quiet'}:", "",
             "| racy control | minimum | caught | within the minimum | trials to catch: median, max |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for check, t in sorted(tallies.items()):
        spread = f"{statistics.median(t.trials):.0f}, {max(t.trials)}" if t.trials else "–"
        lines.append(f"| `{check}` | {t.minimum} | {t.caught} of {t.runs} | {t.within_minimum} of {t.runs} | "
                     f"{spread} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--busy", type=int, default=0, help="yes processes to run beside (default 0)")
    parser.add_argument("--bench", default=".build/release/bench")
    parser.add_argument("--keep", type=Path, help="a directory to keep each run's stress CSV in")
    args = parser.parse_args(argv)
    noise = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(args.busy)]
    tallies: dict[str, Tally] = {}
    try:
        with tempfile.TemporaryDirectory() as scratch:
            folder = args.keep or Path(scratch)
            folder.mkdir(parents=True, exist_ok=True)
            for run in range(args.runs):
                path = folder / f"racy-{'busy' if args.busy else 'quiet'}-{run + 1:02d}.csv"
                subprocess.run([args.bench, "stress", "--filter", RACY_FILTER, "--output", str(path), "--overwrite"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                with path.open(newline="") as file:
                    tally(list(csv.DictReader(file)), tallies)
                print(f"run {run + 1}/{args.runs}", file=sys.stderr)
    finally:
        for process in noise:
            process.terminate()
            process.wait()
    print(markdown(tallies, args.busy))
    return 0


if __name__ == "__main__":
    sys.exit(main())
