"""Entry point for ``python -m bench_commits`` (what scripts/bench-commits runs)."""

import sys

from .cli import main

sys.exit(main())
