"""What a build's binary is made of, in a form that two builds of the same code share and any change to the
code breaks: the build's *code identity*. The rule that reads it is same_code's.

A binary is what the linker makes of its object files, by its link command, against the toolchain's libraries.
So the identity is:

- **pieces**: every section a program loads (``SHF_ALLOC``) of every object file on the link line, and every
  COMDAT group, each a digest of its type, flags, alignment and size, its bytes, its relocations (offset, type,
  the *name* of the target symbol or section, addend) and the symbols it defines (name, offset, size, kind,
  binding, visibility). Addresses are left to the linker, so where things land (which every round's link shuffles
  anyway) is no part of it; names are what the code refers to. A piece is named by its object (relative to the
  package) and section: Swift and clang emit one section per function and datum here, so a piece is mostly one
  symbol, and ``symbols`` names the symbols of each piece for the report. Debug sections and the other sections
  the loader never maps are left out: they hold the worktree's path, and no instruction reads them.
- **inputs**: what can move every case without being a section: the toolchain (``swift --version``), the build
  command, the link command and its object list, the manifest (``Package.swift``, every ``Package@swift-*``) and
  the resolved dependency versions (``Package.resolved``), and the bytes of any link input from outside the
  package.

Two builds of one commit are made in two worktrees, so the worktree's path is in their bytes wherever a
``#filePath`` literal put it: it is replaced by ``WORKTREE_MARK`` before a digest. Its length stays in the
instructions that use such a literal; bench-commits gives every worktree a path of one length, and two paths of
different lengths make two identities differ, which costs a comparison its selection, never its soundness.

An object that is not ELF (a build that is not SwiftPM's, a test's fake) is one piece, the digest of its bytes
(the worktree's path replaced).
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from elftools.common.exceptions import ELFError
from elftools.elf.constants import SH_FLAGS
from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection
from elftools.elf.sections import SymbolTableSection

# What an identity file holds; an identity of another format is computed again, not compared.
IDENTITY_FORMAT = 1
IDENTITY_FILE = "code-identity.json"
# The worktree's path, wherever it stands in a section's bytes.
WORKTREE_MARK = b"<worktree>"
# The manifests of a package (SwiftPM reads the newest Package@swift-X.swift that the toolchain allows).
MANIFEST_GLOB = "Package*.swift"
RESOLVED_FILE = "Package.resolved"
ELF_MAGIC = b"\x7fELF"
# Sections the program maps but no instruction reads, whose bytes say how a module was built (the paths, the
# flags) rather than what it does: Swift writes a hash of the module's compile into .swift_modhash, kept in the
# binary (SHF_GNU_RETAIN) and referred to by nothing. Their type, flags, alignment and size still count (they
# take room), and their bytes too in an object where a relocation refers to them or a symbol is defined in them.
UNREAD_SECTIONS = (".swift_modhash",)
# How many bytes each x86-64 and AArch64 relocation type overwrites: zeroed before a digest, so that an
# addend kept in place (REL) does not read as code. Types not listed are left as they are (RELA keeps the
# addend in the entry, and the bytes are zero).
_RELOCATED_BYTES = {1: 8, 2: 4, 4: 4, 9: 4, 10: 4, 11: 4, 19: 4, 22: 4, 23: 4, 24: 8, 41: 4, 42: 4}


@dataclass(frozen=True)
class CodeIdentity:
    """A build's code identity (the module's doc): ``inputs`` by name (a digest or a text), ``pieces`` by
    ``object:section`` (a digest each), and the symbols each piece defines."""

    inputs: dict[str, str]
    pieces: dict[str, str]
    symbols: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def code_key(self) -> str:
        """A digest of what the same-code rule compares (same_code.compare_identities: the inputs and the pieces,
        not the symbols they name): two identities the rule calls the same code have the same key, and a key is
        shared by no two identities it tells apart."""
        return _digest(json.dumps({"inputs": self.inputs, "pieces": self.pieces}, sort_keys=True).encode())[:32]

    def to_json(self) -> str:
        return json.dumps({"format": IDENTITY_FORMAT, "inputs": self.inputs, "pieces": self.pieces,
                           "symbols": {key: list(names) for key, names in self.symbols.items()}}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "CodeIdentity | None":
        """The identity in ``text``, or None when it is not one of this format."""
        try:
            saved = json.loads(text)
            if saved.get("format") != IDENTITY_FORMAT:
                return None
            return cls(dict(saved["inputs"]), dict(saved["pieces"]),
                       {key: tuple(names) for key, names in saved["symbols"].items()})
        except (ValueError, KeyError, TypeError, AttributeError):
            return None


def _digest(*parts: bytes) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(struct.pack("<Q", len(part)))
        hasher.update(part)
    return hasher.hexdigest()


def _text_digest(value) -> str:
    return _digest(json.dumps(value, sort_keys=True).encode())


def _without_worktree(data: bytes, worktrees: tuple[bytes, ...]) -> bytes:
    for path in worktrees:
        if path and path in data:
            data = data.replace(path, WORKTREE_MARK)
    return data


def name_cleaner(worktrees: tuple[bytes, ...]) -> Callable[[str], str]:
    """What turns a symbol's name into one without the worktree's path (clang names a string literal's symbol
    after its text): each spelling of ``worktrees`` replaced by WORKTREE_MARK."""
    marks = tuple((path.decode(errors="surrogateescape"), WORKTREE_MARK.decode()) for path in worktrees)

    def clean(name: str) -> str:
        for path, mark in marks:
            name = name.replace(path, mark)
        return name

    return clean


def _section_names(elf: ELFFile) -> list[str]:
    """Each section's name, made unique within the object by ``#n`` for the n-th repeat of a name."""
    seen: dict[str, int] = {}
    names = []
    for section in elf.iter_sections():
        count = seen.get(section.name, 0)
        seen[section.name] = count + 1
        names.append(section.name if count == 0 else f"{section.name}#{count}")
    return names


def elf_pieces(data: bytes, name: str, worktrees: tuple[bytes, ...]) -> tuple[dict[str, str], dict[str, tuple]]:
    """The pieces of one ELF relocatable object (``data``) named ``name``, and their symbols (module doc).
    ELFError when it is not one that can be read."""
    import io

    elf = ELFFile(io.BytesIO(data))
    names = _section_names(elf)
    symtab = elf.get_section_by_name(".symtab")
    symbols = list(symtab.iter_symbols()) if isinstance(symtab, SymbolTableSection) else []

    clean = name_cleaner(worktrees)

    def target(index: int) -> str:
        symbol = symbols[index]
        if symbol["st_info"]["type"] == "STT_SECTION":
            return f"section {names[symbol['st_shndx']]}"
        return clean(symbol.name)

    defined: dict[int, list[tuple]] = {}
    for symbol in symbols:
        shndx = symbol["st_shndx"]
        if isinstance(shndx, int) and symbol.name and symbol["st_info"]["type"] != "STT_SECTION":
            defined.setdefault(shndx, []).append(
                (clean(symbol.name), symbol["st_value"], symbol["st_size"], symbol["st_info"]["type"],
                 symbol["st_info"]["bind"], symbol["st_other"]["visibility"]))
    relocations: dict[int, list[tuple]] = {}
    for section in elf.iter_sections():
        if isinstance(section, RelocationSection) and section["sh_info"]:
            entries = relocations.setdefault(section["sh_info"], [])
            for relocation in section.iter_relocations():
                entries.append((relocation["r_offset"], relocation["r_info_type"],
                                target(relocation["r_info_sym"]) if relocation["r_info_sym"] else "",
                                relocation["r_addend"] if relocation.is_RELA() else None))
    referenced = {entry[2] for entries in relocations.values() for entry in entries}
    pieces: dict[str, str] = {}
    piece_symbols: dict[str, tuple] = {}
    for index, section in enumerate(elf.iter_sections()):
        kind = section["sh_type"]
        if not (section["sh_flags"] & SH_FLAGS.SHF_ALLOC) and kind != "SHT_GROUP":
            continue
        if kind == "SHT_GROUP":
            members = [names[member] for member in struct.unpack(f"<{section.data_size // 4}I", section.data())[1:]]
            body = json.dumps([target(section["sh_info"]), members]).encode()
        elif kind == "SHT_NOBITS" or (section.name in UNREAD_SECTIONS and index not in defined
                                      and f"section {names[index]}" not in referenced):
            body = b""
        else:
            cleared = bytearray(section.data())
            for offset, rtype, _, _ in relocations.get(index, ()):
                width = _RELOCATED_BYTES.get(rtype, 0)
                cleared[offset:offset + width] = bytes(width)
            body = _without_worktree(bytes(cleared), worktrees)
        header = json.dumps([kind, section["sh_flags"], section["sh_addralign"], section["sh_size"],
                             sorted(relocations.get(index, ()), key=lambda r: (r[0], r[1], r[2])),
                             sorted(defined.get(index, ()))]).encode()
        key = f"{name}:{names[index]}"
        pieces[key] = _digest(header, body)
        piece_symbols[key] = tuple(sorted({symbol[0] for symbol in defined.get(index, ())}))
    return pieces, piece_symbols


def object_pieces(path: Path, name: str, worktrees: tuple[bytes, ...]) -> tuple[dict[str, str], dict[str, tuple]]:
    """The pieces of the object file at ``path``, named ``name`` (ELF: ``elf_pieces``; anything else: one
    piece, its bytes)."""
    data = path.read_bytes()
    if data.startswith(ELF_MAGIC):
        try:
            return elf_pieces(data, name, worktrees)
        except (ELFError, ValueError, struct.error, IndexError):
            pass
    return {f"{name}:(file)": _digest(_without_worktree(data, worktrees))}, {}


def worktree_spellings(package: Path) -> tuple[bytes, ...]:
    """The ways the worktree's path can stand in the bytes: as given and resolved, longest first."""
    spellings = {str(package).rstrip("/"), str(package.resolve()).rstrip("/")}
    return tuple(sorted((spelling.encode() for spelling in spellings if spelling not in ("", "/")),
                        key=len, reverse=True))


def identity(package: Path, objects: Iterable[str], inputs: dict[str, str],
             built_in: Path | None = None) -> CodeIdentity:
    """The code identity of the build in ``package`` (the package's directory in its worktree), linked from
    ``objects`` (paths as the link line lists them, relative to ``package`` when under it), with ``inputs``
    (toolchain, build and link command) to which the manifest, the resolved versions, the object list and the
    bytes of every object from outside the package are added. ``built_in``: the directory the objects were
    built in, when they have moved since (``package`` by default)."""
    worktrees = worktree_spellings(built_in or package)
    objects = list(objects)
    pieces: dict[str, str] = {}
    symbols: dict[str, tuple] = {}
    outside = {}
    for name in objects:
        path = Path(name) if Path(name).is_absolute() else package / name
        if Path(name).is_absolute():
            outside[name] = _digest(path.read_bytes())
            continue
        found, named = object_pieces(path, name, worktrees)
        pieces.update(found)
        symbols.update({key: names for key, names in named.items() if names})
    every = dict(inputs)
    every["object list"] = _text_digest(objects)
    every["objects from outside the package"] = _text_digest(outside)
    every["manifest"] = _text_digest({path.name: path.read_text(errors="replace")
                                      for path in sorted(package.glob(MANIFEST_GLOB))})
    resolved = package / RESOLVED_FILE
    every["resolved dependencies"] = _resolved_pins(resolved) if resolved.is_file() else "none"
    return CodeIdentity(every, pieces, symbols)


def _resolved_pins(path: Path) -> str:
    """The pinned versions of ``Package.resolved`` as ``identity@revision`` lines, or its digest when it is not
    a file SwiftPM wrote."""
    try:
        pins = json.loads(path.read_text())["pins"]
        return ", ".join(sorted(f"{pin['identity']}@{pin['state'].get('version') or pin['state']['revision']}"
                                for pin in pins))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return _digest(path.read_bytes())
