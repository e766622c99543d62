"""Every piece of Swift the DocC articles show compiles, as shown.

An article shows Swift in one of two ways, and no other:

- `@Snippet(path: "DispatchBench/Snippets/<name>")`, optionally with `slice: "<slice>"`: the code is the file
  Snippets/<name>.swift (or the lines between its `// snippet.<slice>` and `// snippet.end`), which SwiftPM builds as
  an executable against the package's library, and scripts/build-docs builds before DocC renders it. The article
  holds no copy of the code, so the two cannot drift.
- A fenced Swift block that is the example package's main.swift (Examples/BringYourOwn, built in CI) with some of
  its registrations left out: the landing page's swift-nio lock, which this package cannot build, having no
  dependency on swift-nio.

A Swift block that is neither, a snippet path or slice that does not exist, and a snippet no article shows are each
caught (the negative controls below).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[2]
CATALOG = Path("Sources/DispatchBench/DispatchBench.docc")
SNIPPETS = Path("Snippets")
EXAMPLE_MAIN = Path("Examples/BringYourOwn/Sources/MyBench/main.swift")
# The package's name, the first component of a snippet's path.
PACKAGE = "DispatchBench"

SWIFT_BLOCK = re.compile(r"^```swift\n(.*?)^```$", re.MULTILINE | re.DOTALL)
SNIPPET = re.compile(r'^@Snippet\(path: "([^"]+)"(?:, slice: "([^"]+)")?\)\s*$', re.MULTILINE)
# A registration list, `DispatchBench.main([` to `])`: the lines an article may leave out are inside it.
MAIN_START = "DispatchBench.main(["
MAIN_END = "])"


class Findings(NamedTuple):
    uncompiled_blocks: list[str]  # article: first line of a Swift block that nothing compiles as shown
    missing_snippets: list[str]  # article: a path or slice that names no snippet file or slice
    unshown_snippets: list[str]  # a snippet file no article shows


def articles(root: Path) -> list[Path]:
    return sorted((root / CATALOG).glob("*.md"))


def is_example_with_registrations_left_out(block: str, example: str) -> bool:
    """Whether `block` is `example` with some lines inside its `DispatchBench.main([…])` list left out: every other
    line, in order, as the example has it."""
    shown = block.rstrip("\n").split("\n")
    position = 0
    inside = False
    for line in example.rstrip("\n").split("\n"):
        if position < len(shown) and shown[position] == line:
            position += 1
        elif not inside:
            return False
        if line == MAIN_START:
            inside = True
        elif line == MAIN_END:
            inside = False
    return position == len(shown)


def snippet_slices(text: str) -> set[str]:
    return set(re.findall(r"^\s*// snippet\.([\w-]+)\s*$", text, re.MULTILINE)) - {"end", "hide", "show"}


def check(root: Path) -> Findings:
    example = (root / EXAMPLE_MAIN).read_text()
    uncompiled, missing, shown = [], [], set()
    for article in articles(root):
        text = article.read_text()
        for block in SWIFT_BLOCK.findall(text):
            if not is_example_with_registrations_left_out(block, example):
                uncompiled.append(f"{article.name}: {block.splitlines()[0] if block.strip() else '(empty)'}")
        for path, slice_name in SNIPPET.findall(text):
            package, directory, name = (path.split("/") + ["", "", ""])[:3]
            file = root / SNIPPETS / f"{name}.swift"
            if package != PACKAGE or directory != str(SNIPPETS) or not file.is_file():
                missing.append(f"{article.name}: {path}")
                continue
            shown.add(name)
            if slice_name and slice_name not in snippet_slices(file.read_text()):
                missing.append(f"{article.name}: {path} slice {slice_name}")
    unshown = sorted(file.stem for file in (root / SNIPPETS).glob("*.swift") if file.stem not in shown)
    return Findings(uncompiled, missing, unshown)


def planted_copy(tmp_path: Path) -> Path:
    """A copy of the catalog, the snippets and the example's main.swift, to plant in."""
    root = tmp_path / "package"
    for directory in (CATALOG, SNIPPETS):
        shutil.copytree(REPO / directory, root / directory)
    (root / EXAMPLE_MAIN).parent.mkdir(parents=True)
    shutil.copy(REPO / EXAMPLE_MAIN, root / EXAMPLE_MAIN)
    return root


def test_every_swift_the_articles_show_compiles() -> None:
    assert check(REPO) == Findings([], [], [])


def test_the_articles_show_the_snippets() -> None:
    text = "".join(article.read_text() for article in articles(REPO))
    assert len(SNIPPET.findall(text)) >= 8
    assert len(SWIFT_BLOCK.findall(text)) == 1, "only the landing page's swift-nio lock is a block of its own"


def test_a_swift_block_of_an_article_is_caught(tmp_path: Path) -> None:
    root = planted_copy(tmp_path)
    article = root / CATALOG / "BringingALock.md"
    article.write_text(article.read_text() + "\n```swift\nfinal class Planted: ExclusiveLock {}\n```\n")
    assert check(root).uncompiled_blocks == ["BringingALock.md: final class Planted: ExclusiveLock {}"]


def test_the_landing_pages_block_must_be_the_examples_code(tmp_path: Path) -> None:
    root = planted_copy(tmp_path)
    page = root / CATALOG / "DispatchBench.md"
    # Leaving out the conformance is not leaving out a registration: the block would no longer compile.
    page.write_text(page.read_text().replace("extension NIOLock: @retroactive ExclusiveLock {}\n", ""))
    assert check(root).uncompiled_blocks == ["DispatchBench.md: import DispatchBench"]


def test_a_missing_snippet_or_slice_is_caught(tmp_path: Path) -> None:
    root = planted_copy(tmp_path)
    article = root / CATALOG / "BringingAWaiter.md"
    article.write_text(article.read_text().replace('slice: "handoff"', 'slice: "hand-off"')
                       + '\n@Snippet(path: "DispatchBench/Snippets/Planted")\n')
    assert check(root).missing_snippets == [
        "BringingAWaiter.md: DispatchBench/Snippets/Waiters slice hand-off",
        "BringingAWaiter.md: DispatchBench/Snippets/Planted"]


def test_a_snippet_no_article_shows_is_caught(tmp_path: Path) -> None:
    root = planted_copy(tmp_path)
    (root / SNIPPETS / "Planted.swift").write_text("import DispatchBench\n")
    assert check(root).unshown_snippets == ["Planted"]
