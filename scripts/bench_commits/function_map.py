"""A build's code cut at the grain of functions: every function and datum of every object on the link line, each with a
digest of its code and the functions and data it refers to. What case_selection reads to tell which cases can run
changed code.

A *node* is one symbol's bytes in one section of one object (symbols at the same place, aliases, are one node, named
by the first of their names), or a run of bytes that no symbol covers: before the first symbol (``*``), or after one
(``*`` and its name); zeros fewer than their section's alignment, in no relocation and pointed at by none, are
padding, no node. Its digest covers its size, its bytes with every relocated field zeroed, and its relocations
(where, which type, and what they point at: a symbol by name, or a node and the offset in it). Where the node lies
in its section is no part of it, so a function is not changed by a change to the one before it. Its *references* are
the nodes its relocations point at, by name for a symbol other objects can define (the linker takes one definition;
all of them are kept here), by node otherwise. A relocation to a section with an addend (a local call in one
``.text``) points at the node that holds the target byte; for a PC-relative type that byte is 4 past the addend, and
both are kept, so a reference is never lost to that guess. A call within one section needs no relocation at all (the
assembler resolves it): in a section of code holding several functions, a call, jump or RIP-relative ``lea`` whose
rel32 lands on a function's start (a symbol's, or that of code no symbol names after one) is a reference too, by the
node it lands in and the offset there (``_local_branches``, x86-64); a rel32 that a relocation fills is the
relocation's, not a distance. (A rel8 jump onto another function, a short tail call, is not read: without decoding
the instructions, the bytes that look like one are too many, and each would tie a function to the next.) A run of
code no symbol names is cut into pieces where something aims at an aligned place in it that the code before cannot
run into (it ends in a ``jmp``): the thunks a whole-module Swift object emits, one for each closure, are a node each
(``_pieces``); a branch from one piece into another is a reference.

The worktree's path is cleaned out of bytes and names as code_identity does.
"""

from __future__ import annotations

import bisect
import io
import json
import re
import struct
from collections.abc import Iterable, Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from elftools.common.exceptions import ELFError
from elftools.elf.constants import SH_FLAGS
from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection
from elftools.elf.sections import SymbolTableSection

from .code_identity import _RELOCATED_BYTES, ELF_MAGIC, UNREAD_SECTIONS, _digest, _without_worktree, \
    name_cleaner, worktree_spellings

MAP_FORMAT = 13
MAP_FILE = "function-map.json"
# x86-64 and AArch64 relocation types whose target is relative to the place: a section-relative one points 4
# bytes past its addend.
_PC_RELATIVE = {2, 4, 9, 41, 42, 261, 282, 283}
UNCOVERED = "*"
# Where a program starts: its entry symbol, and sections read whole without a reference: the initializers and
# finalizers the loader runs, and the records the Swift runtime scans (types, conformances, metadata).
ENTRY_SYMBOLS = ("main", "_start")
ENTRY_SECTIONS = (".init_array", ".fini_array", ".preinit_array", ".ctors", ".dtors", ".init", ".fini", "swift5_")


@dataclass(frozen=True)
class FunctionMap:
    """``digests`` by node key (``object:section:symbol``); ``references``: each node's targets, ``=key`` for a
    node, a bare name for a symbol defined by name; ``defines``: the nodes that define each name other objects
    can refer to (global and weak symbols)."""

    digests: dict[str, str]
    references: dict[str, tuple[str, ...]]
    defines: dict[str, tuple[str, ...]]

    def named(self) -> dict[str, tuple[str, ...]]:
        """The nodes each symbol names, local ones too (a node's key ends in its first name; ``names`` holds
        them all)."""
        found: dict[str, list[str]] = {}
        for key in self.digests:
            found.setdefault(key.rsplit(":", 1)[1], []).append(key)
        for name, keys in self.defines.items():
            found.setdefault(name, []).extend(key for key in keys if key not in found.get(name, ()))
        return {name: tuple(keys) for name, keys in found.items()}

    def closure(self, roots: Iterable[str], data_only: bool = False) -> set[str]:
        """Every node reachable from ``roots`` (node keys) by references; with ``data_only``, the roots and the
        data they reach through data alone (what code that runs the roots reads, not code it could call)."""
        seen: set[str] = set()
        stack = [(key, True) for key in roots]
        while stack:
            key, root = stack.pop()
            if key in seen or key not in self.digests or (data_only and not root and is_code(key)):
                continue
            seen.add(key)
            for target in self.references.get(key, ()):
                if target.startswith("="):
                    stack.append((target[1:], False))
                else:
                    stack.extend((found, False) for found in self.defines.get(target, ()))
        return seen

    def entry_records(self) -> list[str]:
        """The nodes of the sections the loader or the Swift runtime reads whole (ENTRY_SECTIONS)."""
        return [key for key in self.digests if key.split(":")[1].startswith(ENTRY_SECTIONS)]

    def targets(self, key: str) -> set[str]:
        """The nodes ``key`` refers to."""
        found: set[str] = set()
        for target in self.references.get(key, ()):
            found.update((target[1:],) if target.startswith("=") else self.defines.get(target, ()))
        return found

    def referenced(self) -> set[str]:
        """Every node some node refers to."""
        return {target for key in self.references for target in self.targets(key)}

    def live(self) -> set[str]:
        """Every node the program can reach from where it starts (ENTRY_SYMBOLS, and the sections the loader or
        the Swift runtime reads whole: ENTRY_SECTIONS); one outside it runs in no case."""
        roots = [key for key in self.digests if key.rsplit(":", 1)[1] in ENTRY_SYMBOLS] + self.entry_records()
        roots += [key for name in ENTRY_SYMBOLS for key in self.defines.get(name, ())]
        return self.closure(roots)

    def to_json(self) -> str:
        return json.dumps({"format": MAP_FORMAT, "digests": self.digests,
                           "references": {key: list(value) for key, value in self.references.items()},
                           "defines": {key: list(value) for key, value in self.defines.items()}}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "FunctionMap | None":
        """The map in ``text``, or None when it is not one of this format."""
        try:
            saved = json.loads(text)
            if saved.get("format") != MAP_FORMAT:
                return None
            return cls(dict(saved["digests"]), {key: tuple(value) for key, value in saved["references"].items()},
                       {key: tuple(value) for key, value in saved["defines"].items()})
        except (ValueError, KeyError, TypeError, AttributeError):
            return None


# Unwind tables: read only when a stack is unwound (a crash's backtrace, a C++ exception), which no case's work
# does. A change to a function changes the function's own node; its unwind entry alone cannot change a case's cost.
UNWIND_SECTIONS = (".eh_frame",)


def unread(key: str) -> bool:
    """Whether a node is of a section no case's work reads: one the program maps but no instruction reads
    (code_identity.UNREAD_SECTIONS), or an unwind table (UNWIND_SECTIONS)."""
    return key.split(":")[1] in UNREAD_SECTIONS + UNWIND_SECTIONS


# Sections of code: a node in one runs; one in any other section is read.
CODE_SECTIONS = (".text", ".init", ".fini", ".plt")


def is_code(key: str) -> bool:
    """Whether the node ``key`` is code (in CODE_SECTIONS), not data."""
    return key.split(":")[1].startswith(CODE_SECTIONS)


def module_of(key: str) -> str:
    """The module a node belongs to: the ``NAME.build`` directory its object is in (``""`` when none)."""
    for part in reversed(key.split(":", 1)[0].split("/")[:-1]):
        if part.endswith(".build"):
            return part[: -len(".build")]
    return ""


def _elf_nodes(data: bytes, name: str, worktrees: tuple[bytes, ...], digests: dict, references: dict,
               defines: dict) -> None:
    elf = ELFFile(io.BytesIO(data))
    sections = list(elf.iter_sections())
    symtab = elf.get_section_by_name(".symtab")
    symbols = list(symtab.iter_symbols()) if isinstance(symtab, SymbolTableSection) else []
    clean = name_cleaner(worktrees)

    # Each loaded section's symbol ranges: start → (end, names, bound), and the sorted starts.
    ranges: dict[int, dict[int, list]] = {}
    for symbol in symbols:
        index = symbol["st_shndx"]
        kind = symbol["st_info"]["type"]
        if not isinstance(index, int) or not symbol.name or kind in ("STT_SECTION", "STT_FILE"):
            continue
        if not sections[index]["sh_flags"] & SH_FLAGS.SHF_ALLOC:
            continue
        start = symbol["st_value"]
        entry = ranges.setdefault(index, {}).setdefault(start, [start, [], []])
        entry[0] = max(entry[0], start + max(symbol["st_size"], 1))
        entry[1].append(clean(symbol.name))
        if symbol["st_info"]["bind"] != "STB_LOCAL":
            entry[2].append(clean(symbol.name))
    starts = {index: sorted(found) for index, found in ranges.items()}

    code_starts: dict[tuple[int, int], int] = {}
    code_bytes: dict[int, bytes] = {}  # each section of code read once, not once for each symbol's end

    def section_code(index: int) -> bytes:
        """The bytes of section ``index``, read once."""
        if index not in code_bytes:
            code_bytes[index] = sections[index].data()
        return code_bytes[index]

    def code_start(index: int, end: int) -> int:
        """Where the bytes no symbol covers after a symbol ending at ``end`` begin to count: in a section of code,
        past the filler that aligns what follows (_code_after_filler), so that a helper the compiler emitted there
        without a symbol is the same node, at the same offsets, whatever the function before it pads to."""
        if (index, end) not in code_starts:
            section = sections[index]
            code_starts[(index, end)] = end
            if section["sh_flags"] & SH_FLAGS.SHF_EXECINSTR and section["sh_type"] != "SHT_NOBITS":
                order = starts.get(index, [])
                at = bisect.bisect_left(order, end)
                following = order[at] if at < len(order) else section["sh_size"]
                code_starts[(index, end)] = _code_after_filler(section_code(index), end, following)
        return code_starts[(index, end)]

    run_of: dict[str, str] = {}  # each piece of a run of unnamed code (but its first), and the run's key

    def node(index: int, offset: int) -> tuple[str, int]:
        """The key of the node holding byte ``offset`` of section ``index``, and where that node starts."""
        order = starts.get(index, [])
        at = bisect.bisect_right(order, offset) - 1
        if at >= 0:
            start = order[at]
            end, names, _ = ranges[index][start]
            if offset < end:
                return f"{name}:{sections[index].name}:{min(names)}", start
            run = code_start(index, end)
            pieces = splits.get(index, [])
            piece = pieces[bisect.bisect_right(pieces, offset) - 1] if pieces and pieces[0] <= offset else run
            whole = f"{name}:{sections[index].name}:{UNCOVERED}{min(names)}"
            if piece > run:
                run_of[f"{whole}+{piece - run}"] = whole
                return f"{whole}+{piece - run}", piece
            return whole, run
        return f"{name}:{sections[index].name}:{UNCOVERED}", 0

    relocations: dict[int, list] = {}
    for section in sections:
        if isinstance(section, RelocationSection) and section["sh_info"]:
            relocations.setdefault(section["sh_info"], []).extend(section.iter_relocations())

    # Where a run of code that no symbol names is cut into pieces (_pieces): the places a relocation aims at in
    # each section of code, from any section.
    aimed_at: dict[int, set[int]] = {}
    # The places a relocation fills, in each section: their bytes are no distance the assembler resolved (an
    # external call's rel32 is zero there, which would seem to land on what follows the call).
    relocated = {index: {entry["r_offset"] for entry in found} for index, found in relocations.items()}
    for found_entries in relocations.values():
        for entry in found_entries:
            target = symbols[entry["r_info_sym"]] if entry["r_info_sym"] else None
            if target is None or not isinstance(target["st_shndx"], int) or not (
                    target["st_info"]["type"] == "STT_SECTION" or target["st_info"]["bind"] == "STB_LOCAL"):
                continue
            place = target["st_value"] + (entry["r_addend"] if entry.is_RELA() else 0)
            aimed_at.setdefault(target["st_shndx"], set()).update({place, place + 4})
    splits: dict[int, list[int]] = {}
    split_runs: dict[int, list[tuple[int, int]]] = {}  # the runs cut into pieces, in each section of code
    for index, section in enumerate(sections):
        if (section["sh_flags"] & SH_FLAGS.SHF_EXECINSTR and section["sh_type"] != "SHT_NOBITS"
                and len(starts.get(index, ())) > 1):
            order = starts[index]
            runs = [(code_start(index, end), following) for end, following in
                    ((ranges[index][start][0], order[at + 1] if at + 1 < len(order) else section["sh_size"])
                     for at, start in enumerate(order))]
            splits[index] = _pieces(section_code(index), [(begin, end) for begin, end in runs if begin < end],
                                    aimed_at.get(index, set()), order, relocated.get(index, set()))
            split_runs[index] = [(begin, end) for begin, end in runs
                                 if any(begin < at < end for at in splits[index])]

    padding: set[str] = set()
    pointed_at: set[str] = set()
    for index, section in enumerate(sections):
        if not section["sh_flags"] & SH_FLAGS.SHF_ALLOC or section["sh_type"] == "SHT_GROUP":
            continue
        nobits = section["sh_type"] == "SHT_NOBITS"
        raw = bytearray(b"" if nobits else section.data())
        entries: dict[str, list] = {}
        targets: dict[str, set[str]] = {}
        for entry in relocations.get(index, ()):
            offset, kind = entry["r_offset"], entry["r_info_type"]
            width = _RELOCATED_BYTES.get(kind, 0)
            raw[offset:offset + width] = bytes(width)
            source, source_start = node(index, offset)
            addend = entry["r_addend"] if entry.is_RELA() else 0
            target_symbol = symbols[entry["r_info_sym"]] if entry["r_info_sym"] else None
            found = targets.setdefault(source, set())
            if target_symbol is None:
                what = ""
            elif target_symbol["st_info"]["type"] == "STT_SECTION" or (
                    target_symbol["st_info"]["bind"] == "STB_LOCAL" and isinstance(target_symbol["st_shndx"], int)):
                place = target_symbol["st_value"] + addend
                aimed = place + 4 if kind in _PC_RELATIVE else place
                target, target_start = node(target_symbol["st_shndx"], aimed)
                found.update({f"={target}", f"={node(target_symbol['st_shndx'], place)[0]}"})
                what = f"{target}+{aimed - target_start}"
            else:
                found.add(clean(target_symbol.name))
                what = f"{clean(target_symbol.name)}{addend:+d}"
            entries.setdefault(source, []).append((offset - source_start, kind, what))
        if section["sh_flags"] & SH_FLAGS.SHF_EXECINSTR and len(starts.get(index, ())) > 1:
            # Such a rel32 is a distance, which a change to a function between the two moves: its bytes are
            # zeroed, and the node it lands in (with the offset there) stands in the digest instead, as a
            # relocation's target does.
            landings = sorted(set(starts[index]) | {node(index, end)[1] for end, _, _ in ranges[index].values()
                                                    if end < len(raw)} | set(splits.get(index, ())))
            # A branch from one piece of a run into another (one function the cut went through): a reference, so
            # that no footprint loses what runs after it. Its distance stays in the digest.
            for place, landing in _near_branches(bytes(raw), split_runs.get(index, [])):
                (caller, _), (callee, _) = node(index, place), node(index, landing)
                if (callee != caller and run_of.get(caller, caller) == run_of.get(callee, callee)
                        and place not in relocated.get(index, ())):
                    targets.setdefault(caller, set()).add(f"={callee}")
            for place, landing in _local_branches(bytes(raw), landings, relocated.get(index, set())):
                (caller, caller_start), (callee, callee_start) = node(index, place), node(index, landing)
                raw[place:place + 4] = bytes(4)
                entries.setdefault(caller, []).append((place - caller_start, -1,
                                                       f"{callee}+{landing - callee_start}"))
                if callee != caller:
                    targets.setdefault(caller, set()).add(f"={callee}")
        pointed_at.update(target[1:] for found in targets.values() for target in found if target.startswith("="))
        body = _without_worktree(bytes(raw), worktrees)
        covered = bytearray(len(body))
        for start in starts.get(index, []):
            end, names, bound = ranges[index][start]
            key = f"{name}:{section.name}:{min(names)}"
            covered[start:end] = b"\1" * (min(end, len(body)) - start) if start < len(body) else b""
            digests[key] = _digest(json.dumps([section["sh_type"], end - start, sorted(names),
                                               sorted(entries.get(key, ()))]).encode(), body[start:end])
            references[key] = tuple(sorted(targets.get(key, ())))
            for bound_name in bound:
                defines.setdefault(bound_name, []).append(key)
        # The bytes no symbol covers, one node for each run of them: before the first symbol (``*``), and after
        # each symbol up to the next (``*`` and that symbol's name).
        gaps: dict[str, bytes] = {}
        for run in re.finditer(b"\0+", bytes(covered)):
            cuts = [run.start(), *(at for at in splits.get(index, ()) if run.start() < at < run.end()), run.end()]
            for begin, end in zip(cuts, cuts[1:]):
                key, begins = node(index, begin)
                gaps[key] = gaps.get(key, b"") + body[max(begins, begin):end]
        if not starts.get(index):
            gaps.setdefault(f"{name}:{section.name}:{UNCOVERED}", b"")
        for key in set(gaps) | {key for key in entries if key.rsplit(":", 1)[1].startswith(UNCOVERED)}:
            digests[key] = _digest(json.dumps([section["sh_type"], section["sh_flags"],
                                               sorted(entries.get(key, ()))]).encode(), gaps.get(key, b""))
            references[key] = tuple(sorted(targets.get(key, ())))
            if _is_padding(gaps.get(key), section["sh_addralign"]) and key not in entries:
                padding.add(key)
    # Alignment padding that nothing points at is no node: it comes and goes with the symbols around it.
    for key in padding - pointed_at:
        del digests[key], references[key]


def _is_padding(gap: bytes | None, alignment: int) -> bool:
    """Whether a run of uncovered bytes is alignment padding: zeros, fewer than the section's alignment."""
    return gap is not None and 0 < len(gap) < alignment and not gap.strip(b"\0")


# Where a compiler starts a function: the alignment it pads the code before one to (x86-64), and the bytes of the
# filler it pads with (one-byte and multi-byte NOPs, their prefixes, int3, zeros).
FUNCTION_ALIGNMENT = 16
FILLER_BYTES = frozenset(b"\x90\x66\x2e\x0f\x1f\x00\x40\x44\x80\x84\xcc")


def _code_after_filler(code: bytes, end: int, following: int) -> int:
    """Where code may begin after a function that ends at ``end`` (the next symbol at ``following``): the next
    FUNCTION_ALIGNMENT boundary when every byte up to it is filler and it comes before ``following``, else ``end``."""
    aligned = -(-end // FUNCTION_ALIGNMENT) * FUNCTION_ALIGNMENT
    if end < aligned < following and all(byte in FILLER_BYTES for byte in code[end:aligned]):
        return aligned
    return end


def _pieces(code: bytes, runs: list[tuple[int, int]], aimed_at: set[int], symbols: list[int],
            relocated: set[int]) -> list[int]:
    """Where each run of code no symbol names (``runs``: begin and end) is cut: at a FUNCTION_ALIGNMENT boundary
    inside it that something aims at (a relocation, ``aimed_at``, or a local branch) and that the code before it
    cannot run into, because it ends in a ``jmp`` onto a symbol or such a boundary, then filler. The
    compiler emits runs of thunks there, one reached from each closure, each a tail jump: a piece each, so that a
    case's footprint holds its own thunks, not its neighbours'."""
    inside = [at for begin, end in runs for at in range(-(-(begin + 1) // FUNCTION_ALIGNMENT) * FUNCTION_ALIGNMENT,
                                                        end, FUNCTION_ALIGNMENT)]
    if not inside:
        return []
    wanted = set(inside) & (aimed_at | {landing for _, landing in _local_branches(code, inside, relocated)})
    known = set(symbols) | {begin for begin, _ in runs} | wanted
    return sorted(at for at in wanted if _ends_in_a_jump(code, at, known))


def _ends_in_a_jump(code: bytes, at: int, known: set[int]) -> bool:
    """Whether the code before ``at`` ends in a ``jmp`` rel32 (E9) onto one of ``known``, then nothing but filler:
    it cannot run on into ``at``. (Not a ``ret``: its one byte, C3, ends many another instruction too.)"""
    for end in range(at, max(at - FUNCTION_ALIGNMENT, 4), -1):
        if end < at and code[end] not in FILLER_BYTES:
            return False
        if code[end - 5] == 0xE9:
            distance = int.from_bytes(code[end - 4:end], "little", signed=True)
            if end + distance in known:
                return True
    return False


def _near_branches(code: bytes, runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Places in ``code`` (x86-64) that may be a branch's displacement and land inside one of ``runs`` (begin,
    end), with where: a rel32 after E8, E9 or 0F 80-8F, a rel8 after EB or 70-7F. Bytes that only look like one add
    references, never lose one."""
    if len(code) < 8 or not runs:
        return []
    values = np.frombuffer(code, dtype=np.uint8).astype(np.int64)
    places = np.arange(2, len(values) - 4, dtype=np.int64)
    before1, before2 = values[places - 1], values[places - 2]
    long_places = places[_calls_and_jumps(before1, before2)]
    long_aimed = _rel32_aimed(values, long_places)
    places = np.arange(1, len(values), dtype=np.int64)
    short_places = places[(values[places - 1] == 0xEB) | ((values[places - 1] >= 0x70) & (values[places - 1] <= 0x7F))]
    short_aimed = short_places + 1 + np.where(values[short_places] >= 128, values[short_places] - 256,
                                              values[short_places])
    all_places, aimed = np.concatenate([long_places, short_places]), np.concatenate([long_aimed, short_aimed])
    begins = np.asarray([begin for begin, _ in runs], dtype=np.int64)
    ends = np.asarray([end for _, end in runs], dtype=np.int64)
    at = np.searchsorted(begins, aimed, side="right") - 1
    inside = (at >= 0) & (aimed < ends[np.clip(at, 0, None)])
    return [(int(place), int(target)) for place, target in zip(all_places[inside], aimed[inside])]


def _local_branches(code: bytes, starts: list[int], relocated: AbstractSet[int] = frozenset()) -> list[tuple[int, int]]:
    """Where ``code`` (one section of x86-64 code) may refer to the start of a function in itself without a
    relocation, as the assembler resolves a call, a jump or an address within one section: each rel32 after a
    ``call`` (E8), a ``jmp`` (E9), a conditional jump (0F 80-8F) or a RIP-relative ``lea`` (REX.W 8D with mod 00, r/m
    101) that lands exactly on one of ``starts`` (a symbol's, or that of the code no symbol names after one), and
    that no relocation fills (``relocated``: its target is the relocation's). Bytes that only look like one add a
    reference, never lose one: their landing stands in the digest."""
    if len(code) < 8:
        return []
    values = np.frombuffer(code, dtype=np.uint8).astype(np.int64)
    places = np.arange(3, len(values) - 3, dtype=np.int64)
    before1, before2, before3 = values[places - 1], values[places - 2], values[places - 3]
    branch = (_calls_and_jumps(before1, before2)
              | (((before3 == 0x48) | (before3 == 0x4C)) & (before2 == 0x8D) & ((before1 & 0xC7) == 0x05)))
    places = places[branch]
    aimed = _rel32_aimed(values, places)
    hits = np.isin(aimed, np.asarray(starts, dtype=np.int64))
    return [(int(place), int(target)) for place, target in zip(places[hits], aimed[hits])
            if int(place) not in relocated]


def _calls_and_jumps(before1: np.ndarray, before2: np.ndarray) -> np.ndarray:
    """Which places follow the opcode of a rel32 ``call`` (E8), ``jmp`` (E9) or conditional jump (0F 80-8F), given
    the byte before each place and the one before that."""
    return (before1 == 0xE8) | (before1 == 0xE9) | ((before2 == 0x0F) & (before1 >= 0x80) & (before1 <= 0x8F))


def _rel32_aimed(values: np.ndarray, places: np.ndarray) -> np.ndarray:
    """Where the rel32 at each of ``places`` in ``values`` (a section's bytes) lands: 4 bytes past it, plus it."""
    words = values[places] | (values[places + 1] << 8) | (values[places + 2] << 16) | (values[places + 3] << 24)
    return places + 4 + np.where(words >= 1 << 31, words - (1 << 32), words)


def function_map(package: Path, objects: Iterable[str], built_in: Path | None = None) -> FunctionMap:
    """The function map of the objects a build in ``package`` links (paths relative to ``package`` when under
    it; those outside it are left out: code_identity's inputs cover them). An object that is not an ELF
    relocatable one is a node of its own, its bytes."""
    worktrees = worktree_spellings(built_in or package)
    digests: dict[str, str] = {}
    references: dict[str, tuple[str, ...]] = {}
    defines: dict[str, list[str]] = {}
    for name in objects:
        if Path(name).is_absolute():
            continue
        data = (package / name).read_bytes()
        if data.startswith(ELF_MAGIC):
            try:
                _elf_nodes(data, name, worktrees, digests, references, defines)
                continue
            except (ELFError, ValueError, struct.error, IndexError):
                pass
        digests[f"{name}:(file):{UNCOVERED}"] = _digest(_without_worktree(data, worktrees))
    return FunctionMap(digests, references, {key: tuple(value) for key, value in defines.items()})
