"""Which cases run changed code (bench_commits.case_selection, on function maps: bench_commits.function_map).

The maps are read from small objects compiled here with clang into one ``.text`` (no function sections), so that
a function is cut out of its section by its symbol: a change to one function changes its node and no other, an
inlined helper's change shows in its caller, a table's in the table; two compiles in two worktrees are equal (the
negative control of each). The rule runs on synthetic maps: each of its four ways to time every case, a group
selected by its footprint and none other, and the same maps selecting nothing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bench_commits.case_selection import SAME, START_UP, TIMED, changed_nodes, filter_pattern, head_footprints_needed, \
    read_functions, select, selective_modules
from bench_commits.function_map import FunctionMap, _is_padding, function_map, module_of

CLANG = shutil.which("clang")
needs_clang = pytest.mark.skipif(CLANG is None, reason="clang is not on PATH")

SOURCE = """\
static inline int helper(int x) { return x * %d; }
const int table[4] = {1, 2, %d, 4};
int look(int i) { return table[i & 3]; }
int twice(int x) { return helper(x); }
__attribute__((noinline)) int body(int x) { return x + %d; }
int calls_body(int x) { return body(x) + 1; }
__attribute__((noinline)) static int hidden(int x) { return x * 7 + 1; }
__attribute__((noinline)) static int middle(int x) { return x * %d + 2; }
int calls_hidden(int x) { return hidden(x) + middle(x); }
int lone(int x) { return x - 1; }
"""


def compiled(tmp_path: Path, name: str, factor: int = 2, constant: int = 3, addend: int = 7,
             spread: int = 9) -> FunctionMap:
    package = tmp_path / f"worktree-{name}"
    (package / "Lib.build").mkdir(parents=True)
    (package / "lib.c").write_text(SOURCE % (factor, constant, addend, spread))
    subprocess.run([CLANG, "-c", "-O1", str(package / "lib.c"), "-o",
                    str(package / "Lib.build" / "lib.c.o")], check=True, cwd=package)
    return function_map(package, ["Lib.build/lib.c.o"])


def changed_symbols(base: FunctionMap, head: FunctionMap) -> set[str]:
    return {key.rsplit(":", 1)[1] for key in changed_nodes(base, head)}


@needs_clang
def test_two_compiles_in_two_worktrees_are_equal(tmp_path):
    assert changed_symbols(compiled(tmp_path, "a"), compiled(tmp_path, "b")) == set()


@needs_clang
@pytest.mark.parametrize("change, symbols", [({"addend": 8}, {"body"}), ({"factor": 3}, {"twice"}),
                                             ({"constant": 5}, {"table"}),
                                             # middle grows (an imm32, not an imm8) between hidden and its caller,
                                             # whose call's distance moves: the caller is the same code (the
                                             # padding after middle changes too).
                                             ({"spread": 100000}, {"middle", "*middle"})])
def test_a_change_changes_its_function_and_no_other(tmp_path, change, symbols):
    assert changed_symbols(compiled(tmp_path, "a"), compiled(tmp_path, "b", **change)) == symbols


TAIL_JUMP = """\
__asm__(".text\\n"
        ".globl target\\n.type target,@function\\ntarget:\\n .fill %d, 1, 0x90\\n ret\\n.size target, .-target\\n"
        ".p2align 4\\n.Lhelper:\\n ret\\n"
        ".globl grows\\n.type grows,@function\\ngrows:\\n .fill %d, 1, 0x90\\n ret\\n.size grows, .-grows\\n"
        ".globl caller\\n.type caller,@function\\ncaller:\\n .byte 0xe9\\n .long .Lhelper - . - 4\\n"
        ".size caller, .-caller\\n");
"""


def tail_jump_maps(tmp_path: Path, before: tuple[int, int], after: tuple[int, int]) -> list[FunctionMap]:
    """Two compiles of TAIL_JUMP, with ``target``'s and ``grows``' sizes (bytes of nop) before and after."""
    maps = []
    for name, (target, grows) in (("a", before), ("b", after)):
        package = tmp_path / f"worktree-{name}"
        (package / "Lib.build").mkdir(parents=True)
        (package / "lib.c").write_text(TAIL_JUMP % (target, grows))
        subprocess.run([CLANG, "-c", str(package / "lib.c"), "-o", str(package / "Lib.build" / "lib.c.o")],
                       check=True, cwd=package)
        maps.append(function_map(package, ["Lib.build/lib.c.o"]))
    return maps


@needs_clang
def test_unnamed_code_after_a_function_is_the_same_node_whatever_the_function_pads_to(tmp_path):
    # The helper after target sits at the next 16-byte boundary: target growing from 1 to 5 bytes of nop changes
    # the filler before the helper, not the helper, nor the caller that jumps to it.
    assert changed_symbols(*tail_jump_maps(tmp_path, (1, 1), (5, 1))) == {"target"}


@needs_clang
def test_a_jump_into_another_function_is_a_reference_not_a_distance(tmp_path):
    # As a Swift value witness's tail jump to a helper no symbol names, aligned after a function: the caller's rel32
    # moves when a function between the two grows, and the caller is the same code (issue 74: every pthread_mutex_t
    # witness read as changed, tying a package's one change to the built-in stores).
    maps = tail_jump_maps(tmp_path, (1, 1), (1, 9))
    assert changed_symbols(*maps) == {"grows"}
    named = maps[0].named()
    assert "*target" in {key.rsplit(":", 1)[1] for key in maps[0].closure(named["caller"])}


THUNKS = """\
__asm__(".text\\n"
        "ta:\\n .fill %d, 1, 0x90\\n ret\\n.size ta, .-ta\\n"
        "tb:\\n ret\\n.size tb, .-tb\\n"
        ".globl before\\n.type before,@function\\nbefore:\\n ret\\n.size before, .-before\\n"
        ".p2align 4\\n.Lthunk_a:\\n push %%rbp\\n pop %%rbp\\n .byte %s\\n .long ta - . - 4\\n"
        ".p2align 4\\n.Lthunk_b:\\n push %%rbp\\n .byte 0xe9\\n .long tb - . - 4\\n"
        ".globl caller_a\\n.type caller_a,@function\\ncaller_a:\\n lea .Lthunk_a(%%rip), %%rax\\n ret\\n"
        ".size caller_a, .-caller_a\\n"
        ".globl caller_b\\n.type caller_b,@function\\ncaller_b:\\n lea .Lthunk_b(%%rip), %%rax\\n ret\\n"
        ".size caller_b, .-caller_b\\n"
        ".globl calls_out\\n.type calls_out,@function\\ncalls_out:\\n call abort\\n"
        ".size calls_out, .-calls_out\\n"
        ".globl after_call\\n.type after_call,@function\\nafter_call:\\n ret\\n.size after_call, .-after_call\\n");
"""


def thunk_map(tmp_path: Path, name: str, ta_size: int = 1, thunk_a_ends: str = "0xe9") -> FunctionMap:
    """THUNKS compiled: two unnamed thunks after ``before``, each reached by its caller's ``lea`` and tail-jumping
    to its own function (``ta`` of ``ta_size`` bytes of nop); ``thunk_a_ends`` is the opcode of thunk a's last
    instruction, a rel32 to ``ta``: by default a ``jmp``, which does not run on into thunk b."""
    package = tmp_path / f"worktree-{name}"
    (package / "Lib.build").mkdir(parents=True)
    (package / "lib.c").write_text(THUNKS % (ta_size, thunk_a_ends))
    subprocess.run([CLANG, "-c", str(package / "lib.c"), "-o", str(package / "Lib.build" / "lib.c.o")],
                   check=True, cwd=package)
    return function_map(package, ["Lib.build/lib.c.o"])


def reached(built: FunctionMap, name: str) -> set[str]:
    return {key.rsplit(":", 1)[1] for key in built.closure(built.named()[name])}


@needs_clang
def test_a_run_of_unnamed_thunks_is_a_node_for_each_thunk(tmp_path):
    # As the thunks a whole-module Swift object emits after a specialization, one for each closure (issue 74: a
    # package's change to one lock timed its neighbours, whose thunks shared one node with its own).
    built = thunk_map(tmp_path, "a")
    assert "ta" in reached(built, "caller_a") and "tb" not in reached(built, "caller_a")
    assert "tb" in reached(built, "caller_b") and "ta" not in reached(built, "caller_b")
    # A change to ta's body changes ta alone: not thunk b, nor its caller.
    assert changed_symbols(built, thunk_map(tmp_path, "b", ta_size=3)) == {"ta"}


@needs_clang
def test_code_that_can_run_on_into_the_next_thunk_is_not_cut_from_it(tmp_path):
    # The negative control: thunk a ends in a conditional jump (0F 85), which can fall through to thunk b.
    built = thunk_map(tmp_path, "a", thunk_a_ends="0x0f, 0x85")
    assert "tb" in reached(built, "caller_a")


@needs_clang
def test_a_relocated_call_at_a_function_s_end_is_no_reference_to_the_next_function(tmp_path):
    # As a Swift function that ends in a call to a fatal error: the call's rel32 is zero until linked, and would
    # seem to land on the function after it (issue 74: a TTAS lock's closure seemed to call the ticket lock's).
    built = thunk_map(tmp_path, "a")
    assert "after_call" not in reached(built, "calls_out")
    assert "after_call" in reached(built, "after_call")


NAMES = """\
__attribute__((used, section("names"), aligned(2))) const char first[] = "SaySSG";
"""


@needs_clang
def test_alignment_padding_that_comes_with_a_new_datum_is_no_change(tmp_path):
    # As in a Swift object's swift5_typeref when a type gains a field: a new name, and before it a zero to align it.
    maps = []
    for name, source in (("a", NAMES), ("b", NAMES + NAMES.replace("first", "second").replace("SaySSG", "Si"))):
        package = tmp_path / f"worktree-{name}"
        (package / "Lib.build").mkdir(parents=True)
        (package / "lib.c").write_text(source)
        subprocess.run([CLANG, "-c", str(package / "lib.c"), "-o", str(package / "Lib.build" / "lib.c.o")],
                       check=True, cwd=package)
        maps.append(function_map(package, ["Lib.build/lib.c.o"]))
    assert changed_symbols(*maps) == {"second"}
    # The negative control: the same bytes would be a node if they were not padding.
    assert _is_padding(b"\0", 2) and not _is_padding(b"\0\0", 2) and not _is_padding(b"\1", 2)


@needs_clang
def test_a_footprint_follows_calls_and_data(tmp_path):
    built = compiled(tmp_path, "a")
    named = built.named()

    def reach(name: str) -> set[str]:
        return {key.rsplit(":", 1)[1] for key in built.closure(named[name])}

    assert {"calls_body", "body"} <= reach("calls_body")
    # A call to a static function in the same section has no relocation: it is found in the code itself.
    assert "hidden" in reach("calls_hidden")
    assert "hidden" not in reach("lone") and reach("lone") == {"lone"}
    assert "table" in reach("look")
    assert "body" not in reach("look") and "table" not in reach("body")
    assert module_of(named["body"][0]) == "Lib"


def node_map(digests: dict[str, str], references: dict[str, tuple[str, ...]] | None = None) -> FunctionMap:
    return FunctionMap(digests, references or {}, {key.rsplit(":", 1)[1]: (key,) for key in digests})


BASE = {"V.build/a.o:.text:run_a": "1", "V.build/a.o:.text:lock": "2", "V.build/b.o:.text:run_b": "3",
        "Core.build/loop.o:.text:loop": "4", "V.build/c.o:.text:setup_c": "5", "Core.build/main.o:.text:main": "0"}
# main reaches every variant (as the registry does), so that each may run.
REFERENCES = {"V.build/a.o:.text:run_a": ("lock",), "Core.build/main.o:.text:main": ("run_a", "run_b", "setup_c")}
INPUTS = {"toolchain": "t", "manifest": "m"}
FOOTPRINTS = {"s/b/a": {"run_a", "loop"}, "s/b/b": {"run_b", "loop"}}
GROUPS = ["s/b/a", "s/b/b", "s/b/c"]


def run(head: dict[str, str], head_inputs: dict[str, str] | None = None, footprints=None):
    return select(GROUPS, INPUTS, head_inputs or INPUTS, node_map(BASE, REFERENCES), node_map(head, REFERENCES),
                  FOOTPRINTS if footprints is None else footprints, selective_modules(["V"]))


def test_a_change_a_footprint_reaches_selects_its_group_and_no_other():
    selection = run({**BASE, "V.build/a.o:.text:lock": "changed"})
    assert selection.every == ""
    assert selection.groups["s/b/a"][0] == TIMED and "lock" in selection.groups["s/b/a"][1]
    assert selection.groups["s/b/b"][0] == SAME
    assert selection.groups["s/b/c"][0] == TIMED  # no footprint: always timed


def test_an_added_function_in_a_footprint_selects_its_group():
    head = {**BASE, "V.build/d.o:.text:extra": "9"}
    selection = select(GROUPS, INPUTS, INPUTS, node_map(BASE, REFERENCES),
                       node_map(head, {**REFERENCES, "V.build/b.o:.text:run_b": ("extra",)}), FOOTPRINTS,
                       selective_modules(["V"]))
    assert selection.groups["s/b/b"][0] == TIMED and selection.groups["s/b/a"][0] == SAME


@pytest.mark.parametrize("new_bytes, changed", [("Si", []), ("other", ["V.build/b.o:swift5_typeref:symbolic Si"])],
                         ids=["same-bytes", "control-other-bytes"])
def test_a_new_definition_of_a_weak_name_changes_nothing_when_its_bytes_are_the_ones_linked(new_bytes, changed):
    # A type that gains an Int field defines `symbolic Si` in its object too; the linker keeps one of them.
    kept = "V.build/a.o:swift5_typeref:symbolic Si"
    base = FunctionMap({kept: "Si"}, {}, {"symbolic Si": (kept,)})
    added = "V.build/b.o:swift5_typeref:symbolic Si"
    head = FunctionMap({kept: "Si", added: new_bytes}, {}, {"symbolic Si": (kept, added)})
    assert changed_nodes(base, head) == changed
    assert changed_nodes(head, base) == changed, "and a definition gone the same way"


def test_the_same_maps_change_nothing_and_time_every_case_only_by_the_whole_build_rule():
    assert run(dict(BASE)).every.startswith("the object list differs")


@pytest.mark.parametrize("head, head_inputs, footprints, why", [
    ({**BASE, "Core.build/loop.o:.text:loop": "changed"}, None, None, "outside the modules"),
    ({**BASE, "V.build/c.o:.text:setup_c": "changed"}, None, None, "no case's footprint"),
    ({**BASE, "V.build/a.o:.text:lock": "changed"}, {**INPUTS, "toolchain": "u"}, None, "toolchain differs"),
    ({**BASE, "V.build/a.o:.text:lock": "changed"}, None, {"s/b/b": {"run_b"}}, "no case's footprint"),
])
def test_what_may_run_anywhere_times_every_case(head, head_inputs, footprints, why):
    selection = run(head, head_inputs, footprints)
    assert why in selection.every and selection.groups == {}


def test_an_object_list_alone_is_not_an_input_that_moves_every_case():
    selection = run({**BASE, "V.build/a.o:.text:lock": "changed"}, {**INPUTS, "object list": "other"})
    assert selection.every == ""


def test_the_filter_matches_exactly_the_groups():
    import re
    pattern = re.compile(filter_pattern(["once/hit/os-lock", "isolation/mixed/mutex"]))
    assert pattern.search("once/hit/os-lock") and pattern.search("isolation/mixed/mutex")
    assert not pattern.search("once/hit/os-lock-x") and not pattern.search("isolation/mixed/mutexes")


def test_a_functions_file_is_read_by_group_and_another_file_refused():
    found = read_functions("case\tfunction\ns/b/a threads:1 n:1\tf\ns/b/a threads:1 n:2\tg\n")
    assert found == {"s/b/a": {"f", "g"}}
    with pytest.raises(ValueError):
        read_functions("suite,benchmark\n")


def test_a_selection_gets_the_budget_of_its_cases_within_bounds():
    from bench_commits.paired_plan import DEFAULT_BUDGET_MINUTES, LEAST_SELECTED_BUDGET_MINUTES, selected_budget
    assert selected_budget(False, 604, 604) == DEFAULT_BUDGET_MINUTES
    assert selected_budget(False, 302, 604) == DEFAULT_BUDGET_MINUTES / 2
    assert selected_budget(False, 12, 604) == LEAST_SELECTED_BUDGET_MINUTES


@pytest.mark.parametrize("section", [".swift_modhash", ".eh_frame"])
def test_a_section_no_case_reads_changes_nothing(section):
    head = {**BASE, f"V.build/a.o:{section}:*": "other"}
    assert changed_nodes(node_map({**BASE, f"V.build/a.o:{section}:*": "one"}), node_map(head)) == []
    assert changed_nodes(node_map({**BASE, "V.build/a.o:.data:*": "one"}),
                         node_map({**BASE, "V.build/a.o:.data:*": "other"})) == ["V.build/a.o:.data:*"]


def test_a_record_nothing_refers_to_belongs_to_what_it_refers_to():
    base = {**BASE, "V.build/a.o:swift5_records:*": "1", "V.build/b.o:swift5_records:*": "2"}
    references = {**REFERENCES, "V.build/a.o:swift5_records:*": ("=V.build/a.o:.text:lock",),
                  "V.build/b.o:swift5_records:*": ("=V.build/b.o:.text:run_b",)}
    selection = select(GROUPS, INPUTS, INPUTS, node_map(base, references),
                       node_map({**base, "V.build/a.o:swift5_records:*": "changed"}, references), FOOTPRINTS,
                       selective_modules(["V"]))
    assert selection.groups["s/b/a"][0] == TIMED and selection.groups["s/b/b"][0] == SAME
    # The control: a referenced datum is held only by the footprints that reach it.
    referenced = {**references, "V.build/b.o:.text:run_b": ("=V.build/a.o:swift5_records:*",)}
    selection = select(GROUPS, INPUTS, INPUTS, node_map(base, referenced),
                       node_map({**base, "V.build/a.o:swift5_records:*": "changed"}, referenced), FOOTPRINTS,
                       selective_modules(["V"]))
    assert selection.groups["s/b/b"][0] == TIMED and selection.groups["s/b/a"][0] == SAME


def test_a_change_the_program_cannot_reach_runs_in_no_case():
    base = {**BASE, "V.build/g.o:.text:generic": "7"}
    references = dict(REFERENCES)
    head = {**base, "V.build/g.o:.text:generic": "changed"}
    selection = select(GROUPS, INPUTS, INPUTS, node_map(base, references), node_map(head, references), FOOTPRINTS,
                       selective_modules(["V"]))
    assert selection.every == "" and selection.timed() == ["s/b/c"]  # only the group without a footprint
    # The control: main calls it, so some case may run it.
    called = {**references, "Core.build/main.o:.text:main": ("run_a", "run_b", "setup_c", "generic")}
    selection = select(GROUPS, INPUTS, INPUTS, node_map(base, called), node_map(head, called), FOOTPRINTS,
                       selective_modules(["V"]))
    assert "no case's footprint" in selection.every


# A start-up that runs main and a registry, which reads a table of the variants' entry points (code it does not run).
START_BASE = {"Core.build/main.o:.text:main": "0", "V.build/r.o:.text:register": "1",
              "V.build/r.o:.rodata:table": "2", "V.build/a.o:.text:run_a": "3", "V.build/b.o:.text:run_b": "4",
              "V.build/a.o:swift5_types:record": "5", "V.build/a.o:.rodata:descriptor": "6"}
START_REFERENCES = {"Core.build/main.o:.text:main": ("register",), "V.build/r.o:.text:register": ("table",),
                    "V.build/r.o:.rodata:table": ("run_a", "run_b"), "V.build/a.o:swift5_types:record": ("descriptor",)}
START_FOOTPRINTS = {START_UP: {"main", "register"}, "s/b/a": {"run_a"}, "s/b/b": {"run_b"}}


@pytest.mark.parametrize("node, footprints, needed", [
    ("V.build/a.o:.text:run_a", START_FOOTPRINTS, ""),
    ("V.build/r.o:.text:register", START_FOOTPRINTS, "the start-up runs or reads changed code: `register`"),
    ("V.build/r.o:.rodata:table", START_FOOTPRINTS, "the start-up runs or reads changed code: `table`"),
    ("V.build/a.o:.rodata:descriptor", START_FOOTPRINTS, "the start-up runs or reads changed code: `descriptor`"),
    ("V.build/a.o:.text:run_a", {"s/b/a": {"run_a"}}, "the base's footprints have no start-up"),
], ids=["variant-code", "control-registry-code", "control-registry-data", "control-a-record's-data",
        "control-no-start-up"])
def test_the_head_footprints_are_needed_only_where_the_start_up_ran_or_read_changed_code(node, footprints, needed):
    base = node_map(START_BASE, START_REFERENCES)
    head = node_map({**START_BASE, node: "changed"}, START_REFERENCES)
    assert head_footprints_needed(base, head, footprints, changed_nodes(base, head)) == needed

