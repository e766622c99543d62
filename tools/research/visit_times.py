"""How long each worker request of a paired comparison takes: ``scripts/bench-commits`` run as is, with every
``bench worker`` request timed by the clock around it. Run from a package's checkout, with the repository's
environment::

    PYTHONPATH=<repo>/scripts <repo>/.venv/bin/python <repo>/tools/research/visit_times.py OUT.tsv BASE HEAD [options]

It writes one line per request to OUT.tsv (request, side's first letter, the case set up last as
variant/threads/params/benchmark, seconds) and exits with bench-commits' exit code. For where a visit's time goes
(setup, which calibrates a case on its first visit; sample, which launches, measures and stops a team; teardown):
docs/findings/2026-11-29-a-batch-of-one-in-a-convoy.md.
"""

from __future__ import annotations

import sys
import time

from bench_commits import worker
from bench_commits.cli import main


def timed(out) -> None:
    """Wraps Worker.request so that each request's time goes to ``out``."""
    request = worker.Worker.request
    case = {"label": ""}

    def timed_request(self: worker.Worker, message: dict) -> dict:
        if message["request"] == "setup":
            c = message["case"]
            case["label"] = f"{c['variant']}/{c['threads']}/{c['params']}/{c['benchmark']}"
        started = time.monotonic()
        try:
            return request(self, message)
        finally:
            out.write(f"{message['request']}\t{self.name[:1]}\t{case['label']}\t{time.monotonic() - started:.4f}\n")
            out.flush()

    worker.Worker.request = timed_request  # type: ignore[method-assign]


if __name__ == "__main__":
    with open(sys.argv[1], "w") as out:
        timed(out)
        sys.exit(main(sys.argv[2:]))
