"""What docs/bring-your-own.md tells a package's author to put in .gitignore keeps out of git every file the tools
write in the package's directory by default, as the code names that directory, and the example package has those
lines (issue 60: a walk's `git add -A` committed 4,400 lines of CSV)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from bench_commits import cli as bench_commits_cli

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "bring-your-own.md"
EXAMPLE_IGNORE = REPO / "Examples" / "BringYourOwn" / ".gitignore"
# Where bench writes a results file it was given no --output for.
BENCH_DEFAULT = re.compile(r'let directory = "([^"]+)"')
BENCH_WRITER = REPO / "Sources" / "BenchCommandLine" / "Run" / "Bench+Measure.swift"


def advised_lines() -> list[str]:
    """The lines of the page's one ```gitignore block."""
    [block] = re.findall(r"```gitignore\n(.*?)```", PAGE.read_text(), re.S)
    return [line.strip() for line in block.splitlines() if line.strip()]


def _ignored(package: Path, paths: list[str]) -> set[str]:
    done = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=package, input="\n".join(paths),
                          capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return set(done.stdout.split())


def test_the_advice_ignores_what_the_tools_write_and_nothing_of_the_package(tmp_path):
    [bench_results] = BENCH_DEFAULT.findall(BENCH_WRITER.read_text())
    assert bench_commits_cli.RESULTS_DIR == bench_results, "bench-commits writes beside bench's files"
    written = [f"{bench_results}/20261127-195500-abc1234.csv", f"{bench_results}/stress-20261127-195500-abc1234.csv",
               f"{bench_results}/counts-20261127-195500-abc1234.csv",
               f"{bench_results}/report-20261127-195500-abc1234/report.html",
               f"{bench_results}/bench-commits-20261127-195500.md", ".build/release/MyBench",
               ".build/checkouts/DispatchBench/scripts/analyze"]
    own = ["Package.swift", "Sources/MyBench/main.swift", "Tests/MyBenchTests/MyBenchTests.swift",
           f"Sources/MyBench/{bench_results}.swift"]
    package = tmp_path / "MyBench"
    package.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=package, check=True)
    (package / ".gitignore").write_text("\n".join(advised_lines()) + "\n")
    assert _ignored(package, written + own) == set(written)


def test_the_example_package_ignores_what_the_page_advises():
    assert [line.strip() for line in EXAMPLE_IGNORE.read_text().splitlines() if line.strip()] == advised_lines()
