"""The DocC symbol links carry no hash suffixes.

DocC tells overloads apart by a hash of each one's signature (`lockStore(_:_:fileID:)-45h4u`) when nothing else is
given; a link that names the hash breaks, with a message about hashes, whenever that signature changes. The catalog
and the doc comments tell overloads apart by what a reader can see instead: a parameter's type
(`lockStore(_:_:fileID:)-(_,Store.Type,_)`) or the return type (`makeTokens(_:)->[Int]`). A link with a hash in the
catalog or in a doc comment is caught (the negative control below).
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SEARCHED = ["Sources/**/*.md", "Sources/**/*.swift", "Benchmarks/**/*.swift"]
# A symbol link's last disambiguation: `-` and 4 to 6 lower-case letters or digits, the shape of DocC's hashes.
SUFFIX = re.compile(r"``[^`\s]*-([a-z0-9]{4,6})``")
# The kinds DocC also accepts as a suffix (`Variant-struct`): words, not hashes.
KINDS = {"actor", "case", "class", "enum", "func", "init", "macro", "method", "module", "op", "struct", "subscript",
         "var"}


def hashed_links(text: str) -> list[str]:
    return [match.group(0) for match in SUFFIX.finditer(text) if match.group(1) not in KINDS]


def hashed_links_in(root: Path) -> list[str]:
    found = []
    for pattern in SEARCHED:
        for path in sorted(root.glob(pattern)):
            found += [f"{path.relative_to(root)}: {link}" for link in hashed_links(path.read_text())]
    return found


def test_no_symbol_link_carries_a_hash() -> None:
    assert hashed_links_in(REPO) == []


def test_a_hashed_link_is_caught_and_a_readable_one_is_not() -> None:
    assert hashed_links("``/VariantRegistration/Variant/lockStore(_:_:fileID:)-45h4u``") == [
        "``/VariantRegistration/Variant/lockStore(_:_:fileID:)-45h4u``"]
    assert hashed_links("``Variant/lockStore(_:_:fileID:)-abcde`` and ``Variant-struct``") == [
        "``Variant/lockStore(_:_:fileID:)-abcde``"]
    assert hashed_links("``/VariantRegistration/Variant/lockStore(_:_:fileID:)-(_,Store.Type,_)`` "
                        "``/VariantProtocols/OnceTable/makeTokens(_:)->[Int]``") == []


def test_a_hashed_link_planted_in_the_catalog_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "Sources/DispatchBench/DispatchBench.docc/Planted.md"
    page.parent.mkdir(parents=True)
    page.write_text("See ``/VariantRegistration/Variant/lockStore(_:_:fileID:)-4kgxk``.\n")
    assert hashed_links_in(tmp_path) == [
        "Sources/DispatchBench/DispatchBench.docc/Planted.md: "
        "``/VariantRegistration/Variant/lockStore(_:_:fileID:)-4kgxk``"]
