"""Which cases can run changed code, decided before anything is timed: the rule, stated once.

Cases are taken by *group*, ``suite/benchmark/variant`` (every thread count and parameter of a variant in one
benchmark runs the same code on more or fewer threads). A group's **footprint** is every function and datum its
cases ran in either build, each case's whole life (setup, run, drain, teardown) at its fewest threads, on every
thread, GCD's and Swift's pools too, under callgrind (``bench count --functions``), and everything those refer to
in the build's function map (function_map), followed to the end: the slow path a lock takes only under more
contention, a witness table's every entry, a callee inlined or not. The two builds' function maps are compared
node by node; a node whose digest differs, or that only one build has, is **changed**.

What this rests on: at more threads, a case runs only code its run at its fewest threads ran or refers to. Code
that only more threads reach by another way (not a call, a reference or a table from what ran) would be missed;
rule 3 catches it whenever no other case runs it.

In this order:

1. **Every case is timed** when an input that moves every case differs (``EVERY_CASE_INPUTS``: the toolchain, the
   build and link commands, the manifest, the resolved dependencies, a library from outside the package).
2. **Every case is timed** when a changed node lies outside the modules that hold variants and suites
   (``selective_modules``): the harness's timing loop, the platform seam, the results writer, a dependency, the
   executable's start-up. They run in every case, and a footprint does not show the timed loop that runs it.
3. **Every case is timed** when a changed node lies in no group's footprint but the program can reach it from
   where it starts (``FunctionMap.live``: ``main``, the initializers, the records the Swift runtime scans): some
   case may run it where the footprints cannot see (at another thread count, by a way no reference shows). A
   changed node the program cannot reach (a generic whose every caller uses a specialization) runs in no case.
4. Otherwise a group is **timed** when its footprint holds a changed node, or when it has no footprint (a case
   the functions pass did not run); every other group is **unchanged: same code**, not timed, with its evidence:
   the number of its functions and data, all identical.

**Whose footprints.** The head's footprints are needed only where the base's cannot answer. When nothing the base's
start-up ran or read changed (``START_UP``: what its process ran before the first case, under callgrind, and the data
that and the records the Swift runtime scans reach through data), the head's process starts as the base's did, and
each case's life then runs as it did in the base up to the first changed node it meets: a node its base footprint
holds. So a group whose base footprint holds no changed node runs, in the head, exactly what it ran in the base, and
the head's footprints would time no other group (``head_footprints_needed``). A changed start-up (a variant
registered anew, a type's records) needs them, as does a base without a start-up footprint.

Sections no case's work reads are not compared: Swift's hash of a module's compile, and unwind tables (read when a
stack is unwound, which no case does; a function's change is its own node's). A changed node that nothing refers to
(a record the Swift runtime scans) belongs to what it refers to: a footprint holds it when it holds one of the
nodes it refers to.

Nothing here needs a case to be timed first; where the footprints cannot be had (no valgrind, another platform),
or a build has no function map, every case is timed as before and the comparison says why.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from . import same_code
from .function_map import UNCOVERED, FunctionMap, module_of, unread

# The inputs of a code identity that move every case (code_identity). Its object list is not one: an added or
# removed object is its nodes, changed, and selects the cases that run them.
EVERY_CASE_INPUTS = ("toolchain", "build command", "link command", "manifest", "resolved dependencies",
                     "objects from outside the package")
# DispatchBench's modules that hold variants, suites and stress checks, whose functions run only in the cases
# that call them. A package that brings its own variants adds its own modules (selective_modules).
VARIANT_MODULES = ("SyncVariants", "VariantCatalog", "VariantProtocols", "VariantRegistration", "CSyncSupport",
                   "StressChecks", "BenchSuites")
# How many changed nodes a reason names.
NAMED_CHANGES = 3

# The functions file's name for what the process ran before its first case (bench count --functions).
START_UP = "(start-up)"
TIMED = "timed"
SAME = "unchanged: same code"


def selective_modules(package_modules: Iterable[str] = ()) -> frozenset[str]:
    """The modules whose changed nodes select cases by footprint: VARIANT_MODULES and ``package_modules`` (a
    package's own modules, when it brings variants)."""
    return frozenset(VARIANT_MODULES) | frozenset(package_modules)


@dataclass(frozen=True)
class Selection:
    """What the rule (module doc) decided: ``every`` is the reason every case is timed (empty when some are not);
    ``groups`` maps each group to (TIMED or SAME, why)."""

    every: str
    groups: dict[str, tuple[str, str]] = field(default_factory=dict)
    changed: tuple[str, ...] = ()

    def timed(self) -> list[str]:
        return sorted(group for group, (status, _) in self.groups.items() if status == TIMED)

    def same(self) -> list[str]:
        return sorted(group for group, (status, _) in self.groups.items() if status == SAME)


def changed_nodes(base: FunctionMap, head: FunctionMap) -> list[str]:
    """The nodes whose digests differ or that one build lacks, sorted; not those of sections no case's work reads
    (function_map.unread: Swift's hash of a module's compile, which differs between two worktrees; unwind
    tables), nor a definition one build lacks of a name the other defines elsewhere with equal bytes (a weak
    mangled name such as ``symbolic Si``, of which the linker keeps one: the program's is the same)."""
    def linked_alike(key: str, own: FunctionMap, other: FunctionMap) -> bool:
        """Whether ``other`` defines ``key``'s name elsewhere with the bytes ``own`` has at ``key``."""
        name = key.rsplit(":", 1)[1]
        return any(other.digests.get(found) == own.digests[key] for found in other.defines.get(name, ()))

    return sorted(key for key in set(base.digests) | set(head.digests)
                  if base.digests.get(key) != head.digests.get(key) and not unread(key)
                  and not (key not in base.digests and linked_alike(key, head, base))
                  and not (key not in head.digests and linked_alike(key, base, head)))


def head_footprints_needed(base: FunctionMap, head: FunctionMap, base_footprints: dict[str, set[str]],
                           changed: Iterable[str]) -> str:
    """Why the head's footprints are needed besides the base's (module doc, "Whose footprints"), or "" when they
    are not: the changed nodes the base's start-up ran or read, or that it has no start-up footprint."""
    start_up = base_footprints.get(START_UP)
    if start_up is None:
        return "the base's footprints have no start-up"
    def reads(build: FunctionMap) -> set[str]:
        names = build.named()
        roots = [key for name in start_up for key in names.get(name, ())] + build.entry_records()
        return build.closure(roots, data_only=True)

    read = reads(base) | reads(head)
    hit = [key for key in changed if key in read]
    return f"the start-up runs or reads changed code: {_named(hit)}" if hit else ""


def select(groups: Iterable[str], base_inputs: dict[str, str], head_inputs: dict[str, str], base: FunctionMap,
           head: FunctionMap, footprints: dict[str, set[str]], modules: frozenset[str]) -> Selection:
    """Apply the rule (module doc) to the compared ``groups``: the builds' identity inputs and function maps, the
    functions each group's cases ran (``footprints``, in either build) and the selective ``modules``."""
    groups = sorted(set(groups))
    moved = [name for name in EVERY_CASE_INPUTS if base_inputs.get(name) != head_inputs.get(name)]
    if moved:
        return Selection(f"{' and '.join(moved)} differ{'s' if len(moved) == 1 else ''}")
    changed = changed_nodes(base, head)
    if not changed:
        return Selection("the object list differs and no function or datum does: every case is timed as the "
                         "whole-build rule asks")
    outside = [key for key in changed if module_of(key) not in modules]
    if outside:
        return Selection(f"{_named(outside)} changed, outside the modules of variants and suites: it runs in "
                         "every case", changed=tuple(changed))
    named = (base.named(), head.named())
    reach: dict[str, set[str]] = {}
    for group in groups:
        functions = footprints.get(group)
        if functions:
            reach[group] = set().union(*(build.closure(key for name in functions for key in names.get(name, ()))
                                         for build, names in zip((base, head), named)))
    # What a changed node that nothing refers to belongs to: the nodes it refers to (module doc).
    referenced = base.referenced() | head.referenced()
    owners = {key: (set() if key in referenced else base.targets(key) | head.targets(key)) for key in changed}

    def holds(nodes: set[str], key: str) -> bool:
        return key in nodes or not owners[key].isdisjoint(nodes)

    live = base.live() | head.live()
    unseen = [key for key in changed if key in live and not any(holds(nodes, key) for nodes in reach.values())]
    if unseen:
        return Selection(f"{_named(unseen)} changed and no case's footprint holds it: a case may run it where the "
                         "footprints cannot see", changed=tuple(changed))
    decided: dict[str, tuple[str, str]] = {}
    for group in groups:
        nodes = reach.get(group)
        if nodes is None:
            decided[group] = (TIMED, "no footprint (the functions pass did not run it)")
            continue
        hits = [key for key in changed if holds(nodes, key)]
        decided[group] = ((TIMED, f"runs changed code: {_named(hits)}") if hits else
                          (SAME, f"its {len(nodes)} functions and data identical"))
    return Selection("", decided, tuple(changed))


def _named(keys: list[str]) -> str:
    """Up to NAMED_CHANGES nodes by symbol, and how many more."""
    shown = ", ".join(f"`{_name(key)}`" for key in keys[:NAMED_CHANGES])
    return shown + (f" and {len(keys) - NAMED_CHANGES} more" if len(keys) > NAMED_CHANGES else "")


def _name(key: str) -> str:
    """A node by its symbol, or by its object and section when no symbol covers it."""
    place, symbol = key.rsplit(":", 1)
    return symbol if symbol != UNCOVERED else place


def read_functions(text: str) -> dict[str, set[str]]:
    """The functions file of ``bench count --functions``, by group (a case's name up to its first space)."""
    found: dict[str, set[str]] = {}
    lines = text.splitlines()
    if not lines or lines[0] != "case\tfunction":
        raise ValueError("not a functions file of bench count (its first line is not 'case<TAB>function')")
    for line in lines[1:]:
        case, _, function = line.partition("\t")
        if function:
            found.setdefault(case.split(" ", 1)[0], set()).add(function)
    return found


def filter_pattern(groups: Iterable[str]) -> str:
    """A bench ``--filter`` that matches exactly ``groups`` (``suite/benchmark/variant`` each)."""
    return "^(?:" + "|".join(re.escape(group) for group in sorted(groups)) + ")$"


def describe(selection: Selection, cases: dict[str, int]) -> list[str]:
    """The selection in Markdown lines: why every case was timed, or which groups were timed and why, and how many
    cases were not (``cases``: how many cases each group has)."""
    if selection.every:
        return [f"**Cases: every case timed**: {selection.every} "
                "(docs/comparison-rule.md#which-cases-run-changed-code)."]
    timed, same = selection.timed(), selection.same()
    count = sum(cases.get(group, 0) for group in same)
    lines = [f"**Cases: {sum(cases.get(group, 0) for group in timed)} timed, {count} unchanged: same code** "
             f"({len(timed)} and {len(same)} of {len(timed) + len(same)} variants in their benchmarks; "
             "docs/comparison-rule.md#which-cases-run-changed-code). A case not timed runs no changed function or "
             "datum: its footprint (what its cases ran under callgrind, and all that refers to) is identical in "
             "both builds.", "", "| timed | cases | why (demangled) |", "| --- | ---: | --- |"]
    for group, shown in zip(timed, demangled([selection.groups[group][1] for group in timed])):
        lines.append(f"| `{group}` | {cases.get(group, 0)} | {shown} |")
    if same:
        lines += ["", "Unchanged: same code, not timed: " + ", ".join(f"`{group}`" for group in same) + "."]
    return lines


def demangled(reasons: list[str]) -> list[str]:
    """The reasons of a selection's groups with their Swift symbols demangled (same_code.demangle), fit for a Markdown
    table cell."""
    names = sorted({name for reason in reasons for name in re.findall(r"`(\$s[^`]+)`", reason)})
    readable = dict(zip(names, same_code.demangle(names)))
    return [re.sub(r"`(\$s[^`]+)`", lambda found: "`" + readable[found.group(1)].replace("|", "\\|") + "`", reason)
            for reason in reasons]
