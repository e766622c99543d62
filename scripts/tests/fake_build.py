#!/usr/bin/env python3
"""A stand-in for `swift build` in bench-commits' tests: run in a worktree, it installs fake_bench.py as
.build/release/bench, or fails like a broken build when the commit has a file named BROKEN."""

import sys
from pathlib import Path

if Path("BROKEN").exists():
    print("Compiling bench Bench.swift", file=sys.stderr)
    print("error: cannot find 'oops' in scope", file=sys.stderr)
    sys.exit(1)
binary = Path(".build/release/bench")
binary.parent.mkdir(parents=True, exist_ok=True)
# A launcher rather than a copy, so that the fake finds the fixtures beside it; it tells the fake the path
# it was started by (FAKE_BENCH_PROGRAM), which a copy of it changes.
fake = Path(__file__).resolve().parent / "fake_bench.py"
binary.write_text(f'#!/bin/sh\nFAKE_BENCH_PROGRAM="$0" exec "{sys.executable}" "{fake}" "$@"\n')
binary.chmod(0o755)
