"""Where the time went, from one timing file (issue 62): how many cases each label got, every unclear case with
the figures its rules read, and the known mechanisms' table at every thread count.

    .venv/bin/python tools/research/why_table.py RESULTS.csv [--known SUITE/BENCHMARK/VARIANT ...]

Each case is labelled by the report's own rule (judge/diagnosis.py ``diagnose``, with the run's own CPU share) and
its reason phrased as the report phrases it (present/diagnosis_text.py ``cause_text``). The known mechanisms, by
default: ``isolation/mixed`` `mutex` and `pthread-mutex-pi` (a convoy when contended), `spin-lock` (never one),
`serial-sync` (serialized or a convoy), and `wait/handoff/semaphore`. Their table gives, per case, the label,
ns/op and, from the exact split, each thread's running, run-queue and blocked time per op and the switches in per
op (per op: the threads' times summed, as ``Split`` has them). Markdown on stdout; it measures and judges nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

# The product's modules (analyze_lib) live in scripts/; this tool stands beside it.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from analyze_lib.files.loader import load_results  # noqa: E402 (needs the path above)
from analyze_lib.files.model import ResultsFile  # noqa: E402
from analyze_lib.judge.conditions import run_conditions  # noqa: E402
from analyze_lib.judge.diagnosis import UNCLEAR, diagnose  # noqa: E402
from analyze_lib.present.diagnosis_text import cause_text  # noqa: E402

KNOWN = ("isolation/mixed/mutex", "isolation/mixed/pthread-mutex-pi", "isolation/mixed/spin-lock",
         "isolation/mixed/serial-sync", "wait/handoff/semaphore")


def diagnoses(results: ResultsFile) -> dict:
    """Every case's Diagnosis, as the report makes them."""
    conditions = run_conditions(results)
    return diagnose(results.cases, results.logical_cpus, conditions.cpu_share, floor=conditions.floor)


def _ns(value: float | None) -> str:
    if value is None or value != value:
        return "–"
    return f"{value / 1000:,.1f} µs" if value >= 10_000 else f"{value:,.0f} ns" if value >= 10 else f"{value:.2g} ns"




def report(found: dict, known: tuple[str, ...] = KNOWN) -> list[str]:
    """The finding's three parts in Markdown lines."""
    total = len(found)
    labels = Counter(d.label for d in found.values())
    lines = [f"{total} cases: " + ", ".join(f"{count} {label}" for label, count in labels.most_common()), ""]
    unclear = sorted((d for d in found.values() if d.label == UNCLEAR), key=lambda d: d.key.sort_key())
    lines += [f"Unclear: {len(unclear)} of {total} ({len(unclear) / total:.1%})." if total else "No cases.", ""]
    lines += [f"- `{d.key.label}`: {cause_text(d)}" for d in unclear]
    lines += ["", "| case | threads | params | label | ns/op | running/op | run queue/op | blocked/op | switches in/op "
              "|", "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for d in sorted((d for d in found.values() if d.key.filter_name in known), key=lambda d: (
            known.index(d.key.filter_name), d.key.params, d.key.threads)):
        split = d.signals.split
        times = ((_ns(split.running_ns), _ns(split.runqueue_ns), _ns(split.blocked_ns),
                  f"{split.switches_in:.2g}" if split.switches_in is not None else "–") if split is not None
                 else ("–",) * 4)
        lines.append(f"| `{d.key.variant}` | {d.key.threads} | {d.key.params_text} | {d.label} | {_ns(d.median)} | "
                     + " | ".join(times) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--known", nargs="+", default=list(KNOWN), help="suite/benchmark/variant of each known case")
    args = parser.parse_args(argv)
    sys.stdout.write("\n".join(report(diagnoses(load_results(args.results)), tuple(args.known))) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
