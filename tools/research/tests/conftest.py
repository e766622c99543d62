"""Make the research tools, the product's modules (scripts/) and the product's test helpers (scripts/tests:
csvgen) importable."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
for directory in (ROOT / "tools" / "research", ROOT / "scripts", ROOT / "scripts" / "tests"):
    if str(directory) not in sys.path:
        sys.path.insert(0, str(directory))
