"""The library's public surface is what a package conforms to and calls, and one DocC page lists all of it.

`import DispatchBench` brings the door's own declarations and those of the modules it re-exports
(`@_exported import`). Every public type and every public member of `Variant` they declare must be on the landing
page of the DocC catalog, and none of them may be a test hook. A planted public declaration missing from the page,
and a planted test hook, are caught (the negative controls below).
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOOR = REPO / "Sources" / "DispatchBench"
SURFACE_PAGE = DOOR / "DispatchBench.docc" / "DispatchBench.md"
# The modules the door re-exports: the protocols a variant conforms to, and Variant with its factories.
REEXPORTED = ["VariantProtocols", "VariantRegistration"]
# Test instrumentation: never public.
TEST_HOOKS = {"QueueBlockProbe", "QueueBlockKind", "QueueStore"}

PUBLIC_TYPE = re.compile(r"^public (?:final )?(?:protocol|struct|enum|class|actor) (\w+)", re.M)
PUBLIC_MEMBER = re.compile(r"^    public (?:static )?(?:func|var|let|private\(set\) var) (\w+)", re.M)


def reexported_modules(door: Path) -> list[str]:
    """The modules the door's sources re-export, sorted."""
    found = set()
    for path in door.glob("*.swift"):
        found.update(re.findall(r"^@_exported import (\w+)\s*$", path.read_text(), re.M))
    return sorted(found)


def public_surface(source_dirs: list[Path]) -> set[str]:
    """Each public type's name, and `Type/member` for each public member of `Variant`, declared in `source_dirs`."""
    surface = set()
    for directory in source_dirs:
        for path in sorted(directory.glob("*.swift")):
            text = path.read_text()
            surface.update(PUBLIC_TYPE.findall(text))
            if re.search(r"^(?:public struct Variant\b|extension Variant\b)", text, re.M):
                surface.update(f"Variant/{name}" for name in PUBLIC_MEMBER.findall(text))
    return surface


def missing_from(page: str, surface: set[str]) -> list[str]:
    """The declarations of `surface` that no symbol link of `page` names."""
    linked = set(re.findall(r"``/?(?:\w+/)?([\w/]+?)(?:\([^`]*\))?(?:-\w+)?``", page))
    return sorted(name for name in surface if name not in linked)


def surface_dirs() -> list[Path]:
    return [DOOR] + [REPO / "Sources" / module for module in REEXPORTED]


def test_the_door_reexports_exactly_the_small_modules():
    assert reexported_modules(DOOR) == sorted(REEXPORTED)


def test_every_public_declaration_is_on_the_surface_page():
    surface = public_surface(surface_dirs())
    assert {"DispatchBench", "Variant", "ExclusiveLock", "Variant/lock"} <= surface
    assert missing_from(SURFACE_PAGE.read_text(), surface) == []


def test_no_test_hook_is_public():
    assert TEST_HOOKS.isdisjoint(public_surface(surface_dirs()))


def test_a_public_declaration_missing_from_the_page_is_caught(tmp_path):
    (tmp_path / "Planted.swift").write_text("public protocol PlantedLock: Sendable {}\n"
                                            "extension Variant {\n    public static func planted() {}\n}\n")
    surface = public_surface(surface_dirs() + [tmp_path])
    assert missing_from(SURFACE_PAGE.read_text(), surface) == ["PlantedLock", "Variant/planted"]


def test_a_public_test_hook_is_caught(tmp_path):
    (tmp_path / "Hook.swift").write_text("public protocol QueueBlockProbe: AnyObject {}\n")
    assert not TEST_HOOKS.isdisjoint(public_surface(surface_dirs() + [tmp_path]))
