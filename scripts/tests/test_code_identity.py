"""The code identity of a build (bench_commits.code_identity) on small objects compiled here with clang and
swiftc: two compiles of one source in two worktrees share it, and each kind of change to code or data breaks
it in the piece it should, also where the bytes alone stay equal. Each normalization has its negative control:
without it, the same two compiles differ."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bench_commits import code_identity
from bench_commits.code_identity import CodeIdentity, identity, object_pieces

CLANG = shutil.which("clang")
SWIFTC = shutil.which("swiftc")
needs_clang = pytest.mark.skipif(CLANG is None, reason="clang is not on PATH")
needs_swiftc = pytest.mark.skipif(SWIFTC is None, reason="swiftc is not on PATH")

HELPER_HEADER = "static inline int helper(int x) { return x * %d; }\n"
C_SOURCE = """\
#include "helper.h"
const char *where(void) { return __FILE__; }
const int table[4] = {1, 2, %d, 4};
int look(int i) { return table[i & 3]; }
int twice(int x) { return helper(x); }
int body(int x) { return x + %d; }
"""


def worktree(tmp_path: Path, name: str) -> Path:
    """A package directory whose path has one length for every ``name`` of one length, as bench-commits'
    worktrees have."""
    path = tmp_path / f"worktree-{name}"
    path.mkdir(parents=True)
    return path


def compile_c(package: Path, *, factor: int = 2, constant: int = 3, addend: int = 7, flags: tuple = ()) -> str:
    """Compile the C source with these values into ``package``; return the object's name relative to it."""
    (package / "helper.h").write_text(HELPER_HEADER % factor)
    (package / "lib.c").write_text(C_SOURCE % (constant, addend))
    subprocess.run([CLANG, "-c", "-O2", "-ffunction-sections", "-fdata-sections", *flags, str(package / "lib.c"),
                    "-o", str(package / "lib.c.o")], check=True, cwd=package)
    return "lib.c.o"


def compile_swift(package: Path, source: str, name: str = "Lib") -> str:
    (package / f"{name}.swift").write_text(source)
    subprocess.run([SWIFTC, "-c", "-O", "-parse-as-library", "-module-name", name, str(package / f"{name}.swift"),
                    "-o", str(package / f"{name}.swift.o")], check=True, cwd=package, capture_output=True)
    return f"{name}.swift.o"


def ident(package: Path, *objects: str, **inputs: str) -> CodeIdentity:
    return identity(package, objects, {"toolchain": "test", **inputs})


def changed(a: CodeIdentity, b: CodeIdentity) -> set[str]:
    """The pieces that differ, by section name."""
    return {key.split(":", 1)[1] for key in set(a.pieces) | set(b.pieces) if a.pieces.get(key) != b.pieces.get(key)}


@needs_clang
def test_one_source_in_two_worktrees_has_one_identity(tmp_path):
    a, b = worktree(tmp_path, "aaaa"), worktree(tmp_path, "bbbb")
    first, second = ident(a, compile_c(a)), ident(b, compile_c(b))
    assert first.pieces and first == second
    # Negative control: the worktree's path is in the bytes (__FILE__), so without replacing it they differ.
    assert str(a).encode() in (a / "lib.c.o").read_bytes()
    unreplaced = identity(b, ["lib.c.o"], {"toolchain": "test"}, built_in=tmp_path / "elsewhere-bbbb")
    assert changed(first, unreplaced)


@needs_clang
@pytest.mark.parametrize("change, piece", [
    ({"addend": 8}, ".text.body"),          # a function's own body
    ({"factor": 3}, ".text.twice"),         # an inline helper from a header, inlined into its caller
    ({"constant": 5}, ".rodata.table"),     # a constant in a table
], ids=["body", "inlined-helper", "constant"])
def test_a_change_breaks_the_piece_it_is_in_and_no_other(tmp_path, change, piece):
    a, b = worktree(tmp_path, "aaaa"), worktree(tmp_path, "bbbb")
    base, head = ident(a, compile_c(a)), ident(b, compile_c(b, **change))
    assert changed(base, head) == {piece}
    assert any(piece in key for key in head.symbols)


@needs_clang
def test_an_alignment_alone_breaks_the_identity(tmp_path):
    # Where a loop starts matters to its speed: the same bytes at another alignment are another piece.
    a, b = worktree(tmp_path, "aaaa"), worktree(tmp_path, "bbbb")
    base, head = ident(a, compile_c(a)), ident(b, compile_c(b, flags=("-falign-functions=64",)))
    assert changed(base, head) >= {".text.body", ".text.twice"}


@needs_clang
def test_a_call_to_another_function_with_the_same_bytes_breaks_it(tmp_path):
    # The bytes of `call f` and `call g` are equal in an object (the target is a relocation): the relocation's
    # target symbol is what differs, and the identity names it.
    a, b = worktree(tmp_path, "aaaa"), worktree(tmp_path, "bbbb")
    for package, callee in ((a, "f"), (b, "g")):
        (package / "call.c").write_text(f"int f(int); int g(int);\nint caller(int x) {{ return {callee}(x) + 1; }}\n")
        subprocess.run([CLANG, "-c", "-O2", "-ffunction-sections", "call.c", "-o", "call.c.o"], check=True,
                       cwd=package)
    section = ".text.caller"
    raw = [_section_bytes(package / "call.c.o", section) for package in (a, b)]
    assert raw[0] == raw[1]  # the bytes alone would call them the same
    assert changed(ident(a, "call.c.o"), ident(b, "call.c.o")) == {section}


def _section_bytes(path: Path, name: str) -> bytes:
    from elftools.elf.elffile import ELFFile
    with open(path, "rb") as file:
        return ELFFile(file).get_section_by_name(name).data()


SWIFT_SOURCE = """\
public func whereAmI() -> String { #filePath }
@inline(never) func generic<T: FixedWidthInteger>(_ x: T) -> T { x &* T(%d) }
public func specialized(_ x: Int) -> Int { generic(x) }
"""


@needs_swiftc
def test_swift_in_two_worktrees_has_one_identity_and_a_generic_change_breaks_it(tmp_path):
    a, b, c = worktree(tmp_path, "aaaa"), worktree(tmp_path, "bbbb"), worktree(tmp_path, "cccc")
    base = ident(a, compile_swift(a, SWIFT_SOURCE % 3))
    same = ident(b, compile_swift(b, SWIFT_SOURCE % 3))
    head = ident(c, compile_swift(c, SWIFT_SOURCE % 5))
    assert base == same
    differing = changed(base, head)
    assert differing and all(".text" in name for name in differing)
    assert any("generic" in symbol for key in head.symbols for symbol in head.symbols[key]
               if key.split(":", 1)[1] in differing)


@needs_swiftc
def test_the_module_hash_is_left_out_only_as_bytes(tmp_path, monkeypatch):
    a, b = worktree(tmp_path, "aaaa"), worktree(tmp_path, "bbbb")
    objects = [compile_swift(package, SWIFT_SOURCE % 3) for package in (a, b)]
    if _section_bytes(a / objects[0], ".swift_modhash") == _section_bytes(b / objects[1], ".swift_modhash"):
        pytest.skip("this swiftc writes one module hash in both worktrees")
    assert ident(a, objects[0]) == ident(b, objects[1])
    # Negative control: with its bytes counted, the module hash (of the paths) makes them differ.
    monkeypatch.setattr(code_identity, "UNREAD_SECTIONS", ())
    assert changed(ident(a, objects[0]), ident(b, objects[1])) == {".swift_modhash"}


def test_a_file_that_is_not_elf_is_one_piece_of_its_bytes(tmp_path):
    a, b = worktree(tmp_path, "aaaa"), worktree(tmp_path, "bbbb")
    for package, body in ((a, "x"), (b, "x")):
        (package / "main.o").write_text(f"{body} built in {package}\n")
    assert ident(a, "main.o") == ident(b, "main.o")
    (b / "main.o").write_text(f"y built in {b}\n")
    assert changed(ident(a, "main.o"), ident(b, "main.o")) == {"(file)"}
    pieces, symbols = object_pieces(b / "main.o", "main.o", ())
    assert list(pieces) == ["main.o:(file)"] and symbols == {}


def test_the_global_inputs_are_part_of_it(tmp_path):
    a, b = worktree(tmp_path, "aaaa"), worktree(tmp_path, "bbbb")
    for package in (a, b):
        (package / "main.o").write_text("code\n")
        (package / "Package.swift").write_text("// swift-tools-version: 6.1\n")
    assert ident(a, "main.o") == ident(b, "main.o")
    assert ident(a, "main.o", toolchain="6.3.1") != ident(b, "main.o", toolchain="6.3.2")
    assert ident(a, "main.o", **{"link command": "swiftc -O"}) != ident(b, "main.o", **{"link command": "swiftc"})
    (b / "Package.swift").write_text("// swift-tools-version: 6.1\n// unsafeFlags([\"-Ounchecked\"])\n")
    assert ident(a, "main.o").inputs["manifest"] != ident(b, "main.o").inputs["manifest"]
    (b / "Package.swift").write_text("// swift-tools-version: 6.1\n")
    (b / "Package.resolved").write_text('{"pins": [{"identity": "swift-argument-parser", '
                                        '"state": {"version": "1.8.2", "revision": "abc"}}], "version": 3}')
    assert ident(b, "main.o").inputs["resolved dependencies"] == "swift-argument-parser@1.8.2"
    assert ident(a, "main.o").inputs["resolved dependencies"] != ident(b, "main.o").inputs["resolved dependencies"]
    # The order objects are linked in is part of it.
    (a / "other.o").write_text("more\n")
    assert ident(a, "main.o", "other.o") != ident(a, "other.o", "main.o")


def test_an_identity_survives_its_file_and_refuses_another_format(tmp_path):
    package = worktree(tmp_path, "aaaa")
    (package / "main.o").write_text("code\n")
    kept = ident(package, "main.o")
    assert CodeIdentity.from_json(kept.to_json()) == kept
    assert CodeIdentity.from_json(kept.to_json().replace('"format": 1', '"format": 0')) is None
    assert CodeIdentity.from_json("not json") is None
