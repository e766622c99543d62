"""The docs agree with the tools: every default that README.md or a page of docs/ states for an option is the one
that tool's --help states, every --help that applies the comparison rule links its page, every relative link
leads to a file, the README stays a front door (at most README_MAX_BYTES bytes) and docs/bench-commits.md a
reference page (at most BENCH_COMMITS_PAGE_MAX_LINES lines).

A default is "stated" in two forms, the only two the docs use: a table whose last column is headed Default (the
option in the first cell), or prose where an option's code span is followed by "default N" in the same sentence.
The bench statements are checked against the release binary that scripts/test builds before pytest runs.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

import pytest

from analyze_lib import cli as analyze_cli
from bench_commits import cli as bench_commits_cli

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
DOCS = REPO / "docs"
# A front door, not a manual: detail belongs in docs/ (package-benchmark's README is 2.5 KB, hyperfine's 11 KB).
README_MAX_BYTES = 12_000
# The reference page of bench-commits says what it does and how to read it; the why lives in paired-design.md.
BENCH_COMMITS_PAGE_MAX_LINES = 150
# What a newcomer sees without scrolling, and the tasks it must offer a link to.
FIRST_SCREEN_LINES = 40
NEWCOMER_TASKS = ("run-once-and-read-the-results", "compare-two-commits", "put-the-gate-in-ci",
                  "stress-test-the-patterns")
BENCH = REPO / ".build" / "release" / "bench"
RULE_PAGE = "docs/comparison-rule.md"

# Which tools' --help each page's statements are checked against; pages not listed: every tool's.
PAGE_TOOLS = {
    "docs/running.md": ("bench",),
    "docs/measuring.md": ("bench",),
    "docs/stress.md": ("bench stress",),
    "docs/counts.md": ("bench count",),
    "docs/analyze.md": ("analyze",),
    "docs/comparison-rule.md": ("analyze",),
    "docs/bench-commits.md": ("bench-commits",),
}

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
OPTION_LINE = re.compile(r"^(\s{2,})(?:-[A-Za-z], )?(--[a-z][a-z0-9-]*)")
PROSE_DEFAULT = re.compile(r"`(--[a-z][a-z0-9-]*)[^`]*`[^.|`]{0,80}?\bdefault:?\s+`?(\d+(?:[.,]\d+)*)")


# --- The pure parts: what a page states, what a help says, and where they disagree. ---

def stated_defaults(page: str) -> list[tuple[str, list[str]]]:
    """(option, the numbers of its stated default) for every default statement in a Markdown page."""
    statements = []
    default_table = False
    in_code = False
    prose = []
    for line in page.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
        if in_code or line.lstrip().startswith("```"):
            prose.append("\n\n")
            continue
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if all(set(cell) <= set("-: ") for cell in cells):
                continue
            if cells[-1] == "Default":
                default_table = True
            elif default_table and cells[0].startswith("`--"):
                option = cells[0].strip("`").split()[0]
                default = re.sub(r"`[^`]*--[^`]*`", "", cells[-1])  # another option's name is not a default
                numbers = NUMBER.findall(default)
                if numbers:
                    statements.append((option, numbers))
            prose.append("\n")
        else:
            default_table = False
            prose.append(line + "\n" if line.strip() else "\n\n")
    text = re.sub(r"(?<!\n)\n(?!\n)", " ", "".join(prose))
    statements += [(option, [number]) for option, number in PROSE_DEFAULT.findall(text)]
    return statements


def help_entries(help_text: str) -> dict[str, str]:
    """Each option's entry in a --help text (its line and the more indented lines after it)."""
    entries: dict[str, str] = {}
    lines = help_text.splitlines()
    for index, line in enumerate(lines):
        match = OPTION_LINE.match(line)
        if not match:
            continue
        indent, option = len(match.group(1)), match.group(2)
        entry = [line]
        for following in lines[index + 1:]:
            if not following.strip() or len(following) - len(following.lstrip()) <= indent:
                break
            entry.append(following)
        entries[option] = entries.get(option, "") + " ".join(entry) + "\n"
    return entries


def _same_number(a: str, b: str) -> bool:
    if a == b:
        return True
    if "," in a or "," in b:
        return False
    return float(a) == float(b)


def disagreements(page: str, helps: list[str]) -> list[str]:
    """The default statements of ``page`` that no help's entry for that option confirms. An option no help
    knows is left alone (another tool's); one whose entries do not hold the stated numbers is reported."""
    problems = []
    for option, numbers in stated_defaults(page):
        texts = []
        for help_text in helps:
            entries = help_entries(help_text)
            if option in entries:
                texts.append(entries[option])
            elif option in help_text:
                texts.append(help_text)  # an option a subcommand inherits, described in its discussion
        if not texts:
            continue
        if not any(all(any(_same_number(n, h) for h in NUMBER.findall(text)) for n in numbers) for text in texts):
            problems.append(f"{option}: the docs say default {', '.join(numbers)}, its --help does not")
    return problems


# --- The tools' help texts. ---

def _argparse_helps(parser: argparse.ArgumentParser) -> list[str]:
    helps = [parser.format_help()]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps += [sub.format_help() for sub in action.choices.values()]
    return helps


def _bench_help(*arguments: str) -> str:
    if not BENCH.exists():
        pytest.skip(f"{BENCH} is not built (scripts/test builds it before pytest): swift build -c release")
    return subprocess.run([str(BENCH), *arguments, "--help"], capture_output=True, text=True, check=True).stdout


def _tool_helps() -> dict[str, list[str]]:
    return {
        "bench": [_bench_help()],
        "bench stress": [_bench_help("stress")],
        "bench count": [_bench_help("count")],
        "bench self-check": [_bench_help("self-check")],
        "analyze": _argparse_helps(analyze_cli.build_parser()),
        "bench-commits": _argparse_helps(bench_commits_cli.build_parser())
        + [bench_commits_cli.build_bisect_parser().format_help()],
    }


def _pages() -> list[Path]:
    return [README] + sorted(DOCS.rglob("*.md"))


# --- The checker, on planted pages (it must catch a stale default and pass a right one). ---

PLANTED_HELP = """\
OPTIONS:
  --rounds <n>            Fresh processes (default 10, quick 2; 1 measures
                          in this process).
  --threads <list>        Thread counts (default 1,2,4,8).
  --duration <seconds>    Seconds in all. (default: 60.0)
"""


def test_a_table_with_a_stale_default_is_caught():
    page = "| Option | Meaning | Default |\n| --- | --- | --- |\n| `--rounds N` | rounds | 16 (quick: 2) |\n"
    assert disagreements(page, [PLANTED_HELP]) == ["--rounds: the docs say default 16, 2, its --help does not"]


def test_prose_with_a_stale_default_is_caught():
    page = "Each check runs at every `--threads` count (default `1,2,4,8,16,32`), for\n`--duration` (default 30 s).\n"
    assert disagreements(page, [PLANTED_HELP]) == [
        "--threads: the docs say default 1,2,4,8,16,32, its --help does not",
        "--duration: the docs say default 30, its --help does not",
    ]


def test_right_defaults_pass_and_other_options_are_left_alone():
    page = ("| Option | Meaning | Default |\n| --- | --- | --- |\n| `--rounds N` | rounds | 10 (quick: 2) |\n"
            "| `--seed N` | seed | random; none with `--rounds 1` |\n"
            "\nFor `--duration` (default 60 s in all) and `--pairs N` (default 3).\n")
    assert disagreements(page, [PLANTED_HELP]) == []
    assert ("--seed", ["1"]) not in stated_defaults(page)


# --- The real docs against the real tools. ---

def test_every_stated_default_is_the_one_help_states():
    helps = _tool_helps()
    problems = []
    for page in _pages():
        name = page.relative_to(REPO).as_posix()
        tools = PAGE_TOOLS.get(name, tuple(helps))
        for problem in disagreements(page.read_text(), [h for tool in tools for h in helps[tool]]):
            problems.append(f"{name}: {problem}")
    assert problems == []


def test_the_docs_state_the_defaults_users_ask_about():
    """Not vacuous: the statements above include the defaults a reader looks up."""
    stated = {option for page in _pages() for option, _ in stated_defaults(page.read_text())}
    assert {"--rounds", "--samples", "--sample-time", "--threads", "--pairs", "--threshold", "--alpha",
            "--instructions-tolerance", "--allocations-tolerance", "--duration", "--watchdog",
            "--iterations"} <= stated


def test_every_help_that_applies_the_comparison_rule_links_it():
    helps = _tool_helps()
    analyze = {sub: text for sub, text in zip(("", "report", "compare", "gate", "export", "history"),
                                              helps["analyze"])}
    for text in (analyze["compare"], analyze["gate"], analyze["history"], *helps["bench-commits"],
                 *helps["bench"]):
        assert RULE_PAGE in " ".join(text.split()), text[:200]


# A figure measured on some machine, as help texts used to hold them ("a default HEAD HEAD took 10 min 49 s",
# "moved between 88 and 111 ns"): help states rules, and docs/findings/ holds the measurements.
MEASUREMENT = re.compile(r"\b(?:took|takes|lasted)\b[^.;]{0,40}\d|\b\d+(?:\.\d+)? ?min(?:utes?)?\b|"
                         r"\bbetween \d+(?:\.\d+)? and \d+(?:\.\d+)? [nµm]?s\b")


def measurements(help_text: str) -> list[str]:
    """The measured figures in a help text (whitespace folded, so a wrapped line does not hide one)."""
    return MEASUREMENT.findall(" ".join(help_text.split()))


def test_a_measurement_in_help_is_caught():
    assert measurements("a default HEAD HEAD took 10 min\n 49 s in all") != []
    assert measurements("a loop moved between 88 and 111 ns within one process here") != []
    assert measurements("Takes one and a half to two minutes, 1.5 min at most") != []
    assert measurements("a default run stays under 5 minutes") != []
    assert measurements("Smoke run: 2 rounds of 1 sample of 2 ms; controls run for at most 10 s") == []


def test_no_help_holds_a_measurement():
    found = {tool: [figure for text in texts for figure in measurements(text)]
             for tool, texts in _tool_helps().items()}
    assert {tool: figures for tool, figures in found.items() if figures} == {}


def anchors(page: str) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to hyphens."""
    headings = re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", page, flags=re.S), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def test_anchors_are_githubs():
    assert anchors("# The gate's self-check: `--check-gate`\n## Waiting: `wait/handoff`\n") == {
        "the-gates-self-check---check-gate", "waiting-waithandoff"}


def test_every_relative_link_leads_to_a_file_and_heading():
    missing = []
    for page in _pages():
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path) if path else page
            if not linked.exists() or (anchor and linked.is_file() and anchor not in anchors(linked.read_text())):
                missing.append(f"{page.relative_to(REPO)}: {target}")
    assert missing == []


def test_the_readme_is_a_front_door():
    size = len(README.read_bytes())
    assert size <= README_MAX_BYTES, f"README.md has {size} bytes; move detail to docs/ (at most {README_MAX_BYTES})"


def test_the_bench_commits_page_stays_a_reference():
    lines = len((REPO / "docs" / "bench-commits.md").read_text().splitlines())
    assert lines <= BENCH_COMMITS_PAGE_MAX_LINES, (
        f"docs/bench-commits.md has {lines} lines; move the why to docs/paired-design.md "
        f"(at most {BENCH_COMMITS_PAGE_MAX_LINES})")


def test_the_first_screen_links_every_newcomer_task():
    readme = README.read_text()
    first_screen = "\n".join(readme.splitlines()[:FIRST_SCREEN_LINES])
    for task in NEWCOMER_TASKS:
        assert f"](#{task})" in first_screen, task
        assert task in anchors(readme), task


def test_the_readme_keeps_the_test_command_and_no_path_outside_the_clone():
    readme = README.read_text()
    assert "scripts/test" in readme  # CI runs "the README's test command"
    assert "../" not in readme

