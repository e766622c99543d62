"""Entry point for ``python -m analyze_lib`` (what scripts/analyze runs)."""

import sys

from .cli import main

sys.exit(main())
