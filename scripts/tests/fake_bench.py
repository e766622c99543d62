#!/usr/bin/env python3
"""A stand-in for bench in bench-commits' tests: speaks the round interface (--rounds, --round, --seed,
--run-environment, --output, --spin-scale, --quick), `--list`, `count`, and `worker` (docs/worker-protocol.md),
writing rows in the format of the fixtures bench itself wrote (fixtures/bench-v10.csv,
fixtures/bench-counts-v10.csv).

It imports nothing it need not (no pathlib): every round of every comparison test starts it twice.

A worker logs every request it gets as {"worker": pid, "environment", "request"} to $FAKE_BENCH_LOG, and
the text of every encode reply as {"worker", "environment", "encoded"}. It encodes and marks complete as
bench's ResultsWriter does (RFC 4180, CRLF, a field quoted only when it holds a comma, a quote, CR or LF);
FAKE_WORKER_REFUSE_COMPLETE makes it refuse every complete request.
FAKE_WORKER_SIGNAL_AFTER=N makes a worker send SIGTERM to its parent when it gets its N-th sample
request, and then wait, never answering (an interruption at a known point);
FAKE_WORKER_DIE_AFTER=N makes it exit 3 instead (a crashed worker).

Every invocation appends {"argv", "cwd", "commit" (of the cwd), "program" (the path it was started by),
"link" (the section order it was linked with, empty for the build's own binary)} as a JSON line to
$FAKE_BENCH_LOG. The speed of a commit is in
the commit: a file SPEED (or UNSEEN_SPEED, which fake_build leaves out of the object: a change code identity cannot
see) in the working directory (the side's worktree) multiplies every ns/op but
harness/empty's (the machine's canary, an empty loop no change to a pattern touches), a file
INSTRUCTIONS every instruction count. FAKE_BENCH_COUNT_EXIT makes `count` exit with that status (69:
no valgrind); FAKE_BENCH_EXIT makes a timed round exit with it. `--list` marks the controls a filtered timing run
adds `(control)`, as bench does.
"""

from __future__ import annotations

import csv
import json
import os
import random
import re
import signal
import time
import sys

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
SAMPLES = 5
NOISE = 0.003  # relative, far below the gate's 10% threshold
# The cases bench's timing run adds to a filtered one as its controls (BenchmarkRegistry.cpuBoundHarnessPaths).
CONTROLS = ("harness/empty/loop", "harness/spin/loop")
# (suite, benchmark, variant, threads, base ns/op)
CASES = (
    ("harness", "empty", "loop", 1, 0.3),
    ("harness", "spin", "loop", 1, 250.0),
    ("isolation", "roles", "rwlock", 1, 40.0),
    ("wait", "handoff", "semaphore", 2, 900.0),
)


def head_commit() -> str:
    """What `git rev-parse HEAD` prints in the working directory (a worktree bench-commits made, whose HEAD is
    detached, or a test's repository on a branch), read from git's files: a process the fake need not start."""
    directory = os.getcwd()
    while not os.path.exists(os.path.join(directory, ".git")):
        if os.path.dirname(directory) == directory:
            return ""
        directory = os.path.dirname(directory)
    git = os.path.join(directory, ".git")
    if os.path.isfile(git):  # a worktree: "gitdir: <its directory in the main repository>"
        git = read(git).split(":", 1)[1].strip()
    head = read(os.path.join(git, "HEAD")).strip()
    if not head.startswith("ref: "):
        return head
    commondir = os.path.join(git, "commondir")
    common = os.path.join(git, read(commondir).strip()) if os.path.isfile(commondir) else git
    ref = head[len("ref: "):]
    if os.path.isfile(os.path.join(common, ref)):
        return read(os.path.join(common, ref)).strip()
    packed = os.path.join(common, "packed-refs")
    lines = read(packed).splitlines() if os.path.isfile(packed) else []
    return next((line.split()[0] for line in lines if line.endswith(" " + ref)), "")


def read(path: str) -> str:
    with open(path) as handle:
        return handle.read()


def option(argv: list[str], name: str, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def _scale(suite: str, benchmark: str, speed: float, spin_scale: float) -> float:
    """A case's ns/op factor: the commit's SPEED (but not on harness/empty), and --spin-scale on harness/spin."""
    if (suite, benchmark) == ("harness", "empty"):
        return 1.0
    return speed * (spin_scale if (suite, benchmark) == ("harness", "spin") else 1.0)


def factor(name: str) -> float:
    return float(read(name)) if os.path.exists(name) else 1.0


def template(fixture: str) -> tuple[list[str], dict]:
    with open(os.path.join(FIXTURES, fixture), newline="") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames), next(reader)


def environment(path: str | None) -> dict:
    """The run environment: read from the file when it exists, else this process's, written there."""
    if path and os.path.exists(path):
        return json.loads(read(path))
    commit = head_commit()
    env = {"commit": commit or "unknown", "run_id": f"fake-{os.getpid()}"}
    if path:
        with open(path, "w") as handle:
            handle.write(json.dumps(env))
    return env


def write_rows(path: str, header: list[str], rows: list[dict]) -> None:
    append = os.path.exists(path) and read(path).split("\n", 1)[0] == ",".join(header)
    with open(path, "a" if append else "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header, lineterminator="\n")
        if not append:
            writer.writeheader()
        writer.writerows(rows)


def timed(argv: list[str]) -> int:
    if os.environ.get("FAKE_BENCH_EXIT"):
        print("fake bench: failing as asked", file=sys.stderr)
        return int(os.environ["FAKE_BENCH_EXIT"])
    rounds, round_number = int(option(argv, "--rounds", "1")), int(option(argv, "--round", "1"))
    seed = int(option(argv, "--seed", "0"))
    spin_scale = float(option(argv, "--spin-scale", "1"))
    env = environment(option(argv, "--run-environment"))
    header, row = template("bench-v10.csv")
    speed = factor("SPEED") * factor("UNSEEN_SPEED")
    rng = random.Random(f"{seed}-{round_number}-{spin_scale}-{speed}-{os.getcwd()}")
    rows = []
    for suite, benchmark, variant, threads, ns in CASES:
        scale = _scale(suite, benchmark, speed, spin_scale)
        for sample in range(SAMPLES):
            ns_per_op = ns * scale * (1 + rng.uniform(-NOISE, NOISE))
            ops = 100000
            rows.append({**row, "run_id": env["run_id"], "commit": env["commit"], "suite": suite,
                         "benchmark": benchmark, "variant": variant, "threads": str(threads), "params": "",
                         "sample": str(sample), "ops": str(ops), "elapsed_ns": str(int(ops * ns_per_op)),
                         "ns_per_op": f"{ns_per_op:.4f}", "ops_per_sec": f"{1e9 / ns_per_op:.4f}",
                         "thread_ops_min": str(ops // threads), "thread_ops_max": str(ops // threads),
                         "round": str(round_number), "run_rounds": str(rounds), "run_seed": str(seed),
                         "run_samples": str(SAMPLES), "run_filter": "", "run_threads": "1,2"})
    write_rows(option(argv, "--output"), header, rows)
    return 0


def count(argv: list[str]) -> int:
    if os.environ.get("FAKE_BENCH_COUNT_EXIT"):
        print("bench count: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return int(os.environ["FAKE_BENCH_COUNT_EXIT"])
    header, _ = template("bench-counts-v10.csv")
    with open(os.path.join(FIXTURES, "bench-counts-v10.csv"), newline="") as handle:
        rows = list(csv.DictReader(handle))
    env = environment(None)
    scale = factor("INSTRUCTIONS")
    for row in rows:
        instructions = int(int(row["instructions"]) * scale)
        row.update(commit=env["commit"], instructions=str(instructions),
                   instructions_per_op=f"{instructions / int(row['operations']):.4f}")
    write_rows(option(argv, "--output"), header, rows)
    if "--functions" in argv:  # each case ran one function, its own
        with open(option(argv, "--functions"), "w") as handle:
            handle.write("case\tfunction\n" + "".join(f"{suite}/{benchmark}/{variant} threads:{count}\t{variant}\n"
                                                       for suite, benchmark, variant, count, _ in CASES))
    return 0


def worker_cases(argv: list[str], also=lambda path: False) -> list[dict]:
    """The cases --filter and --threads select, as `list` names them; with ``also``, the cases whose path it
    accepts too."""
    pattern = re.compile(option(argv, "--filter", ""))
    threads = option(argv, "--threads")
    allowed = None if threads is None else {int(t) for t in threads.split(",")}
    return [{"suite": suite, "benchmark": benchmark, "variant": variant, "threads": str(count), "params": ""}
            for suite, benchmark, variant, count, _ in CASES
            if (pattern.search(path := f"{suite}/{benchmark}/{variant}") or also(path))
            and (allowed is None or count in allowed)]


def encode_line(fields: list[str]) -> str:
    """One record as bench's CSVFormat.encode writes it."""
    return ",".join('"' + f.replace('"', '""') + '"' if any(c in f for c in ',"\r\n') else f
                    for f in fields) + "\r\n"


def mark_complete(path: str) -> bool:
    """bench's ResultsWriter.markRunComplete: every row's run_complete true, into a new file renamed over it;
    False (unchanged) when the file has no rows."""
    with open(path, newline="") as handle:
        records = list(csv.reader(handle))
    if len(records) < 2:
        return False
    column = records[0].index("run_complete")
    for row in records[1:]:
        row[column] = "true"
    temporary = f"{path}.complete-{os.getpid()}"
    with open(temporary, "w", newline="") as out:
        out.write("".join(encode_line(row) for row in records))
    os.replace(temporary, path)
    return True


def worker(argv: list[str]) -> int:
    options = argv[:argv.index("worker")]
    env = environment(option(options, "--run-environment"))
    header, row = template("bench-v10.csv")
    cases = worker_cases(options)
    base_ns = {(s, b, v, str(t)): ns for s, b, v, t, ns in CASES}
    spin_scale = float(option(options, "--spin-scale", "1"))
    speed = factor("SPEED") * factor("UNSEEN_SPEED")
    signal_after = int(os.environ.get("FAKE_WORKER_SIGNAL_AFTER", "0"))
    die_after = int(os.environ.get("FAKE_WORKER_DIE_AFTER", "0"))
    rng = random.Random(
        f"{option(options, '--seed')}-{os.getcwd()}-{option(options, '--run-environment')}-{os.getpid()}")
    open_case, written, sample_requests = None, 0, 0
    # A commit of the fake repository that plays a build from before plans, team_cpus, encode and complete
    # (protocol 1).
    old_build = os.path.exists("NO_PLANS")
    # A commit whose threads starve with any plan another build calibrated: a setup that checks a plan (check_plan)
    # replies the plan of batches of one that bench's CaseRunner.checked would.
    starves = os.path.exists("STARVES")

    def send(reply: dict) -> None:
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()

    send({"ok": "hello", "protocol": 1 if old_build else 4, "columns": header})
    for line in sys.stdin:
        request = json.loads(line)
        with open(os.environ["FAKE_BENCH_LOG"], "a") as log:
            log.write(json.dumps({"worker": os.getpid(), "environment": option(options, "--run-environment"),
                                  "cpus": sorted(os.sched_getaffinity(0)), "request": request}) + "\n")
        kind = request["request"]
        if kind == "list":
            send({"ok": "list", "cases": cases})
        elif kind == "setup":
            if open_case is not None or request["case"] not in cases:
                send({"error": "setup: already set up or unknown case"})
                continue
            if old_build and ("plan" in request or "team_cpus" in request):
                send({"error": 'bad request: unknown field "plan" or "team_cpus"'})
                continue
            open_case, written = request["case"], 0
            # A calibrated plan is this worker's own (its pid); a build from before plans gives none.
            plan = request.get("plan", {"lockstep": {"iterations": os.getpid()}})
            if starves and request.get("check_plan"):
                plan = {"timed": {"batches": [1] * int(open_case["threads"]), "window": 100_000_000}}
            send({"ok": "setup"} if old_build else {"ok": "setup", "plan": plan})
        elif kind == "sample":
            sample_requests += 1
            if sample_requests == signal_after:
                os.kill(os.getppid(), signal.SIGTERM)
                time.sleep(600)
            if sample_requests == die_after:
                print("fake worker: dying as asked", file=sys.stderr)
                return 3
            if open_case is None:
                send({"error": "sample: no case is set up"})
                continue
            c = open_case
            scale = _scale(c["suite"], c["benchmark"], speed, spin_scale)
            records = []
            for _ in range(request.get("samples", 1)):
                ns_per_op = base_ns[(c["suite"], c["benchmark"], c["variant"], c["threads"])] * scale * \
                    (1 + rng.uniform(-NOISE, NOISE))
                ops = 100000
                record = {**row, "run_id": env["run_id"], "commit": env["commit"], **c, "sample": str(written),
                          "ops": str(ops), "elapsed_ns": str(int(ops * ns_per_op)), "ns_per_op": f"{ns_per_op:.4f}",
                          "ops_per_sec": f"{1e9 / ns_per_op:.4f}", "round": str(request.get("round", 1)),
                          "run_rounds": option(options, "--rounds", "1"), "run_seed": option(options, "--seed", ""),
                          "run_samples": str(request.get("samples", 1)), "run_filter": option(options, "--filter", ""),
                          "run_threads": option(options, "--threads", "1,2")}
                for column, key in (("pair", "pair"), ("pair_order", "pair_order")):
                    if column in header:
                        record[column] = str(request.get(key, ""))
                if "run_complete" in header:
                    record["run_complete"] = "false"
                records.append(record)
                written += 1
            send({"ok": "sample", "records": records})
        elif kind in ("encode", "complete") and old_build:
            send({"error": f"unknown request '{kind}' (list, setup, sample, teardown or quit)"})
        elif kind == "encode":
            if any(set(record) != set(request["columns"]) for record in request["records"]):
                send({"error": "encode: a record does not have exactly the columns given"})
                continue
            text = (encode_line(request["columns"]) if request.get("header") else "") + "".join(
                encode_line([record[column] for column in request["columns"]]) for record in request["records"])
            with open(os.environ["FAKE_BENCH_LOG"], "a") as log:
                log.write(json.dumps({"worker": os.getpid(), "environment": option(options, "--run-environment"),
                                      "encoded": text}) + "\n")
            send({"ok": "encode", "csv": text})
        elif kind == "complete":
            if os.environ.get("FAKE_WORKER_REFUSE_COMPLETE"):
                send({"error": f"cannot mark {request['path']} complete: refused as asked"})
                continue
            send({"ok": "complete", "marked": mark_complete(request["path"])})
        elif kind == "teardown":
            open_case = None
            send({"ok": "teardown"})
        elif kind == "quit":
            send({"ok": "quit"})
            return 0
        else:
            send({"error": f"unknown request {kind!r}"})
    return 0


def listed(argv: list[str]) -> int:
    """`--list`: the cases --filter and --threads select, one a line as bench prints them, a brought-in one
    marked with its module (a file BROUGHT in the working directory names such variants: `variant Module` a
    line), and the controls the filter leaves out marked `(control)` unless --no-controls; no case selected is
    bench's usage error."""
    brought = dict(line.split() for line in read("BROUGHT").splitlines()) if os.path.exists("BROUGHT") else {}
    selected = worker_cases(argv)
    if not selected:
        print(f"bench: error: no case matches --filter '{option(argv, '--filter', '')}'", file=sys.stderr)
        return 64
    cases = selected if "--no-controls" in argv else worker_cases(argv, also=CONTROLS.__contains__)
    for case in cases:
        module = brought.get(case["variant"])
        print(f"{case['suite']}/{case['benchmark']}/{case['variant']} threads:{case['threads']}"
              + (f" from:{module}" if module else "") + ("" if case in selected else " (control)"))
    print(f"{len(selected)} cases" + (f" + {len(cases) - len(selected)} controls" if cases != selected else ""))
    return 0


def main() -> int:
    argv = sys.argv[1:]
    with open(os.environ["FAKE_BENCH_LOG"], "a") as log:
        commit = head_commit()
        log.write(json.dumps({"argv": argv, "cwd": os.getcwd(), "commit": commit,
                              "program": os.environ.get("FAKE_BENCH_PROGRAM"),
                              "link": os.environ.get("FAKE_BENCH_LINK")}) + "\n")
    if "worker" in argv:
        return worker(argv)
    if "--list" in argv:
        return listed(argv)
    return count(argv) if argv[:1] == ["count"] else timed(argv)


if __name__ == "__main__":
    sys.exit(main())
