"""The package's public surface is the door, and one DocC page lists all of it.

A package that depends on the `DispatchBench` product can import any module of this package, not only the door:
SwiftPM puts every module of a dependency's targets on the search path. So every module is scanned here, and
every public (or open) declaration of every one of them must be in the door or in a module the door re-exports
(`@_exported import`); the others share what they share with `package` access. Each public declaration must be
listed on the landing page of the DocC catalog, each symbol the page lists must be a public declaration, and so the
count of public declarations equals the page's count. None of them may be a test hook.

A public declaration planted in BenchCore, one missing from the page, and a public test hook are each caught (the
negative controls below).
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[2]
DOOR_MODULE = "DispatchBench"
# The page, under the package root.
SURFACE_PAGE = Path("Sources/DispatchBench/DispatchBench.docc/DispatchBench.md")
# The modules the door re-exports: the protocols a variant conforms to, and Variant with its factories.
REEXPORTED = ["VariantProtocols", "VariantRegistration"]
# Test instrumentation: never public.
TEST_HOOKS = {"QueueBlockProbe", "QueueBlockKind", "QueueStore"}

# A target of Package.swift, up to the next target: its name and, when it is not Sources/<name>, its path.
TARGET = re.compile(r'\.(target|executableTarget|testTarget)\(\s*name: "(\w+)"(.*?)(?=\.(?:target|executableTarget|'
                    r'testTarget)\(|\]\s*,\s*swiftLanguageModes|\Z)', re.DOTALL)
# A scope: a type or an extension, whatever its access; its members are named under it.
SCOPE = re.compile(r"^( *)(?:(?:@\w+(?:\([^)\n]*\))?|public|package|internal|private|fileprivate|open|final|indirect)"
                   r" +)*(?:struct|enum|class|actor|protocol|extension) +(?!func\b|var\b|let\b)([A-Za-z_][\w.]*)",
                   re.MULTILINE)
# A declaration whose modifiers make it public: `public`, or `open` (public and overridable).
PUBLIC = re.compile(r"^( *)(?:@\w+(?:\([^)\n]*\))? +)*"  # attributes
                    r"(?:(?:override|final|static|class|mutating|nonisolated|convenience|required|dynamic) +)*"
                    r"(?:public|open)(?:\(set\))? +(?=[A-Za-z_])"  # not `open = …`, a variable named open
                    r"(?:(?:private|fileprivate|internal|package)\(set\) +)?(.*)$", re.MULTILINE)
NAMED = re.compile(r"(?:(?:final|static|class|mutating|nonisolated|convenience|required|override|dynamic|indirect) +)*"
                   r"(struct|enum|class|actor|protocol|typealias|associatedtype|func|var|let|init[?!]?|subscript|"
                   r"extension)\b *([^\s(<:=]*)")


class Declaration(NamedTuple):
    module: str
    name: str  # as a DocC link names it under its module: `Variant/lock(_:fileID:_:)`
    where: str  # file:line

    @property
    def path(self) -> str:
        return f"{self.module}/{self.name}"


def swift_modules(root: Path) -> dict[str, Path]:
    """Every Swift module of the package's targets but its tests, by name: its directory under `root`."""
    modules = {}
    for kind, name, rest in TARGET.findall((root / "Package.swift").read_text()):
        if kind == "testTarget":
            continue
        custom = re.search(r'\bpath: "([^"]+)"', rest)
        directory = root / (custom.group(1) if custom else f"Sources/{name}")
        if any(directory.rglob("*.swift")):
            modules[name] = directory
    return modules


def reexported_modules(root: Path) -> list[str]:
    """The modules the door's sources re-export, sorted."""
    found = set()
    for path in swift_modules(root)[DOOR_MODULE].glob("*.swift"):
        found.update(re.findall(r"^@_exported import (\w+)\s*$", path.read_text(), re.MULTILINE))
    return sorted(found)


def _balanced(text: str, start: int, opening: str, closing: str) -> tuple[str, int]:
    """The text inside the bracket that opens at `start`, and the index just past its closing bracket."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == opening:
            depth += 1
        elif text[index] == closing:
            depth -= 1
            if depth == 0:
                return text[start + 1:index], index + 1
    raise ValueError(f"unbalanced {opening} at {start}")


def _labels(text: str, start: int) -> str:
    """`(_:fileID:_:)`: the argument labels of the parameter list after `start` (past any generic clause)."""
    text = text.replace("->", "-_")  # same length, so that `>` closes only a generic clause
    index = start
    while text[index].isspace():
        index += 1
    if text[index] == "<":
        _, index = _balanced(text, index, "<", ">")
    parameters, _ = _balanced(text, text.index("(", index), "(", ")")
    labels, depth, current = [], 0, ""
    for char in parameters + ",":
        if char in "([<":
            depth += 1
        elif char in ")]>":
            depth -= 1
        if char == "," and depth == 0:
            if current.strip():
                labels.append(current.split(":")[0].split()[0])
            current = ""
        else:
            current += char
    return "(" + "".join(f"{label}:" for label in labels) + ")"


def public_declarations(module: str, directory: Path) -> list[Declaration]:
    """Each public or open declaration of the module's sources, named as its DocC link names it."""
    found = []
    for path in sorted(directory.rglob("*.swift")):
        text = path.read_text()
        scopes = sorted([(m.start(), len(m.group(1)), m.group(2).replace(".", "/")) for m in SCOPE.finditer(text)])
        for match in PUBLIC.finditer(text):
            indent, rest = len(match.group(1)), match.group(2)
            line = text.count("\n", 0, match.start()) + 1
            named = NAMED.match(rest)
            if not named:
                raise ValueError(f"{path}:{line}: a public declaration this test cannot name: {rest}")
            kind, name = named.groups()
            if kind == "extension":
                name = f"extension {name}"  # every member public: never on the page
            elif kind.startswith("init") or kind in ("func", "subscript"):
                after = match.start(2) + named.end()
                name = ("init" if kind.startswith("init") else name or kind) + _labels(text, after)
            # The enclosing scopes: the innermost one at each smaller indent, declared before this line.
            enclosing: dict[int, str] = {}
            for position, scope_indent, scope in scopes:
                if position >= match.start():
                    break
                if scope_indent < indent:
                    enclosing = {i: s for i, s in enclosing.items() if i < scope_indent}
                    enclosing[scope_indent] = scope
            qualified = "/".join([enclosing[i] for i in sorted(enclosing)] + [name])
            found.append(Declaration(module, qualified, f"{path.relative_to(directory.parent)}:{line}"))
    return found


def package_surface(root: Path) -> list[Declaration]:
    """Every public declaration of every module of the package under `root`."""
    return [declaration for module, directory in sorted(swift_modules(root).items())
            for declaration in public_declarations(module, directory)]


def listed_on(page: str) -> list[str]:
    """The symbols the page's Topics list, `Module/Type/member`, without DocC's disambiguation suffixes."""
    topics = page.split("## Topics", 1)[1]
    links = re.findall(r"^- ``/?([^`]+)``\s*$", topics, re.MULTILINE)
    return [re.sub(r"-(?:>.*|\(.*\)|[\w.]+)$", "", link) for link in links]


class Findings(NamedTuple):
    outside_the_door: list[Declaration]
    missing_from_page: list[Declaration]
    listed_not_public: list[str]
    public_count: int
    page_count: int


def check(root: Path) -> Findings:
    """What keeps the package under `root` from having only the door public, every bit of it on the page."""
    surface = package_surface(root)
    listed = listed_on((root / SURFACE_PAGE).read_text())
    door = {DOOR_MODULE, *reexported_modules(root)}
    unlisted = Counter(d.path for d in surface) - Counter(listed)
    return Findings(
        outside_the_door=[d for d in surface if d.module not in door],
        missing_from_page=[d for d in surface if unlisted[d.path] > 0],
        listed_not_public=sorted((Counter(listed) - Counter(d.path for d in surface)).elements()),
        public_count=len(surface),
        page_count=len(listed),
    )


def planted_copy(tmp_path: Path) -> Path:
    """A copy of the package's manifest, Swift sources and DocC page, to plant declarations in."""
    root = tmp_path / "package"
    root.mkdir()
    shutil.copy(REPO / "Package.swift", root / "Package.swift")
    for directory in swift_modules(REPO).values():
        shutil.copytree(directory, root / directory.relative_to(REPO), ignore=shutil.ignore_patterns(".build"))
    return root


def test_the_door_reexports_exactly_the_small_modules() -> None:
    assert reexported_modules(REPO) == sorted(REEXPORTED)


def test_every_module_is_scanned() -> None:
    modules = swift_modules(REPO)
    assert {"BenchCore", "BenchResults", "SyncVariants", "VariantCatalog", "BenchSuites", "StressChecks",
            "BenchPlatform", "BenchCommandLine", "BenchTestSupport", "bench", *REEXPORTED, DOOR_MODULE} <= set(modules)
    assert modules["BenchSuites"] == REPO / "Benchmarks"


def test_only_the_door_is_public_and_the_page_lists_all_of_it() -> None:
    findings = check(REPO)
    assert [f"{d.where}: {d.path}" for d in findings.outside_the_door] == []
    assert [f"{d.where}: {d.path}" for d in findings.missing_from_page] == []
    assert findings.listed_not_public == []
    assert findings.public_count == findings.page_count


def test_the_surface_is_what_a_package_conforms_to_and_calls() -> None:
    paths = {d.path for d in package_surface(REPO)}
    assert {"DispatchBench/DispatchBench/main(_:)", "VariantRegistration/Variant",
            "VariantRegistration/Variant/lock(_:fileID:_:)", "VariantProtocols/ExclusiveLock",
            "VariantProtocols/IdentityModel/init(id:value:)"} <= paths


def test_no_test_hook_is_public() -> None:
    assert TEST_HOOKS.isdisjoint(d.name for d in package_surface(REPO))


def test_a_public_declaration_planted_in_benchcore_is_caught(tmp_path: Path) -> None:
    root = planted_copy(tmp_path)
    (root / "Sources/BenchCore/Planted.swift").write_text(
        "/// Planted.\npublic struct PlantedClock {\n    public static func now() -> UInt64 { 0 }\n}\n")
    findings = check(root)
    planted = ["BenchCore/PlantedClock", "BenchCore/PlantedClock/now()"]
    assert [d.path for d in findings.outside_the_door] == planted
    assert [d.path for d in findings.missing_from_page] == planted
    assert findings.public_count == findings.page_count + 2


def test_an_open_class_and_a_public_extension_are_caught(tmp_path: Path) -> None:
    root = planted_copy(tmp_path)
    (root / "Sources/SyncVariants/Planted.swift").write_text(
        "open class PlantedOperation {}\n\npublic extension PlantedOperation {\n    func run() {}\n}\n")
    assert [d.path for d in check(root).outside_the_door] == [
        "SyncVariants/PlantedOperation", "SyncVariants/extension PlantedOperation"]


def test_a_public_declaration_of_the_door_missing_from_the_page_is_caught(tmp_path: Path) -> None:
    root = planted_copy(tmp_path)
    (root / "Sources/VariantRegistration/Planted.swift").write_text(
        "public protocol PlantedLock: Sendable {}\n"
        "extension Variant {\n    public static func planted(_ id: String, limit: Int) {}\n}\n")
    findings = check(root)
    assert findings.outside_the_door == []
    assert [d.path for d in findings.missing_from_page] == [
        "VariantRegistration/PlantedLock", "VariantRegistration/Variant/planted(_:limit:)"]
    assert findings.public_count == findings.page_count + 2


def test_a_page_entry_that_is_not_public_is_caught(tmp_path: Path) -> None:
    root = planted_copy(tmp_path)
    page = root / SURFACE_PAGE
    page.write_text(page.read_text() + "- ``/VariantRegistration/Variant/retired(_:)``\n")
    assert check(root).listed_not_public == ["VariantRegistration/Variant/retired(_:)"]


def test_a_public_test_hook_is_caught(tmp_path: Path) -> None:
    root = planted_copy(tmp_path)
    (root / "Sources/SyncVariants/Hook.swift").write_text("public protocol QueueBlockProbe: AnyObject {}\n")
    assert not TEST_HOOKS.isdisjoint(d.name for d in package_surface(root))
