"""docs/bring-your-own.md states every public protocol of Sources/VariantProtocols/ with its requirements, each with
its exact types, so that a user copies a signature from the page instead of learning it from compiler errors.

The page's section "The protocols and their requirements" holds one ```swift block a protocol. A protocol is its
header (`public protocol OnceTable: OnceTracker where Token: Sendable`, refinements and constraints included) and
its requirements, one statement of its body each. The sources' `public protocol … { … }` blocks and the page's
are read by the same small parser: comments dropped (so the page may comment its blocks in its own words) and
whitespace folded (so it may wrap a long signature). Each factory of Variant+Factories.swift is named in the
subsection of the protocol it takes, so the page says which call registers what.

A requirement with a changed type, a header changed, a protocol missing, a requirement the sources lack and a factory
left unnamed are each caught (the negative controls below, on doctored copies of the real page).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "bring-your-own.md"
PROTOCOL_SOURCES = REPO / "Sources" / "VariantProtocols"
FACTORIES = REPO / "Sources" / "VariantRegistration" / "Variant+Factories.swift"
SECTION = "## The protocols and their requirements"

# Comments, line (`//`, `///`) and block: a protocol body holds no string literal they could be part of.
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
# The start of a protocol's declaration, attributes included; group 1 is its name.
PROTOCOL = re.compile(r"^[ \t]*(?:@\w+(?:\([^)\n]*\))?\s+)*public\s+protocol\s+(\w+)", re.MULTILINE)
# A line that continues the statement before it rather than starting a requirement.
CONTINUATION = re.compile(r"(?:->|where\b|throws\b|rethrows\b|async\b|,)")
# A line of attributes alone (`@available(…)`): the requirement it belongs to is on the next line.
ATTRIBUTES_ONLY = re.compile(r"(?:@\w+(?:\([^)]*\))?\s*)+")
# A factory that registers a variant, with the protocol its generic parameter conforms to.
FACTORY = re.compile(r"public\s+static\s+func\s+(\w+)<\w+:\s*(\w+)>")


class Protocol(NamedTuple):
    header: str  # `public protocol Name: Refined where …`, folded
    requirements: tuple[str, ...]  # one statement a requirement, folded, in the order declared


def fold(text: str) -> str:
    """`text` on one line, as a reader compares it: runs of whitespace as one space, none inside the brackets'
    edges, one after a comma."""
    text = " ".join(text.split())
    text = re.sub(r"([(\[])\s+", r"\1", text)
    text = re.sub(r"\s+([)\]])", r"\1", text)
    return re.sub(r"\s*,\s*", ", ", text)


def _open_brackets(text: str) -> int:
    return sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")


def requirements(body: str) -> tuple[str, ...]:
    """The statements of a protocol body (comments already dropped), folded: a line continues the one before it
    while that one's brackets are open, when that one is attributes alone, or when it starts with `->`, `where`,
    `throws`, `rethrows`, `async` or a comma."""
    statements: list[str] = []
    for line in (line.strip() for line in body.splitlines()):
        if not line:
            continue
        if statements and (_open_brackets(statements[-1]) > 0 or ATTRIBUTES_ONLY.fullmatch(statements[-1])
                           or CONTINUATION.match(line)):
            statements[-1] += " " + line
        else:
            statements.append(line)
    return tuple(fold(statement) for statement in statements)


def _closing_brace(text: str, opening: int) -> int:
    """The index of the `}` that closes the `{` at `opening`."""
    depth = 0
    for index in range(opening, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return index
    raise ValueError(f"unbalanced braces after: {text[opening:opening + 80]!r}")


def declarations(swift: str) -> list[tuple[str, Protocol]]:
    """Every `public protocol` of a Swift text, by name, in the order declared."""
    text = COMMENT.sub("", swift)
    found = []
    for match in PROTOCOL.finditer(text):
        opening = text.index("{", match.end())
        closing = _closing_brace(text, opening)
        found.append((match.group(1), Protocol(fold(text[match.start():opening]),
                                                requirements(text[opening + 1:closing]))))
    return found


def source_protocols(directory: Path = PROTOCOL_SOURCES) -> dict[str, Protocol]:
    """The public protocols declared in the Swift files of `directory`, each file parsed on its own."""
    return {name: protocol for path in sorted(directory.glob("*.swift")) for name, protocol in
            declarations(path.read_text())}


def section(page: str) -> str:
    """The page's section of protocols: from its heading to the next heading of its level."""
    start = page.index(SECTION)
    end = page.find("\n## ", start + len(SECTION))
    return page[start:] if end < 0 else page[start:end]


def swift_blocks(text: str) -> str:
    """The contents of the ```swift blocks of a Markdown text, one after another."""
    return "\n".join(re.findall(r"^```swift\n(.*?)^```", text, re.MULTILINE | re.DOTALL))


def mismatches(sources: dict[str, Protocol], page: str) -> list[str]:
    """Where the page's section disagrees with the declarations: a protocol missing, stated twice or unknown, a
    header that differs, a requirement missing or one the sources lack. Empty when they agree."""
    stated = declarations(swift_blocks(section(page)))
    problems = [f"{name}: stated twice on the page" for index, (name, _) in enumerate(stated)
                if name in (earlier for earlier, _ in stated[:index])]
    on_page = dict(stated)
    problems += [f"{name}: declared in the sources, missing from the page" for name in sources if name not in on_page]
    problems += [f"{name}: on the page, not a public protocol of the sources" for name in on_page
                 if name not in sources]
    for name in (name for name in sources if name in on_page):
        source, doc = sources[name], on_page[name]
        if doc.header != source.header:
            problems.append(f"{name}: the page declares `{doc.header}`, the sources `{source.header}`")
        problems += [f"{name}: missing from the page: `{requirement}`" for requirement in source.requirements
                     if requirement not in doc.requirements]
        problems += [f"{name}: not a requirement in the sources: `{requirement}`" for requirement in doc.requirements
                     if requirement not in source.requirements]
    return problems


def factories(swift: str) -> list[tuple[str, str]]:
    """(factory, the protocol it takes) for each public factory of a Swift text."""
    return FACTORY.findall(swift)


def unnamed_factories(pairs: list[tuple[str, str]], page: str) -> list[str]:
    """The factories that the subsection of the protocol they take (`### `Name``) does not name as `.factory(`."""
    subsections = {}
    for part in re.split(r"^### ", section(page), flags=re.MULTILINE)[1:]:
        heading = re.match(r"`(\w+)`", part)
        if heading:
            subsections[heading.group(1)] = part
    return [f"{protocol}: its subsection does not name `.{factory}(`" for factory, protocol in pairs
            if f".{factory}(" not in subsections.get(protocol, "")]


# --- The parser, on a planted declaration. ---

def test_the_parser_drops_comments_and_folds_wrapped_signatures():
    swift = """
/// A lock.
@preconcurrency public protocol Planted<Token>: AnyObject,
        Sendable where Token: Sendable {
    /// A token.
    associatedtype Token
    var count: Int { get }  // a property with braces
    @available(*, deprecated)
    func run(
        tasks: Int, _ task: @escaping @Sendable (Int) -> Void
    )
        -> Bool
}
public protocol Empty: Planted {}
"""
    assert declarations(swift) == [
        ("Planted", Protocol("@preconcurrency public protocol Planted<Token>: AnyObject, Sendable "
                             "where Token: Sendable",
                             ("associatedtype Token", "var count: Int { get }",
                              "@available(*, deprecated) func run(tasks: Int, _ task: @escaping @Sendable (Int) -> "
                              "Void) -> Bool"))),
        ("Empty", Protocol("public protocol Empty: Planted", ())),
    ]


def test_the_parser_reads_every_public_protocol_of_the_sources():
    """Not vacuous: every `public protocol` the sources spell is parsed, with its requirements."""
    spelled = {name for path in PROTOCOL_SOURCES.glob("*.swift")
               for name in re.findall(r"\bpublic\s+protocol\s+(\w+)", path.read_text())}
    parsed = source_protocols()
    assert set(parsed) == spelled
    assert {"ExclusiveLock", "LockStore", "OnceTable", "TaskWaiter", "Handoff"} <= spelled
    assert parsed["OnceTable"].requirements == ("static func makeTable(tokens: Int) -> Self",
                                                "static func makeTokens(_ count: Int) -> [Token]")


# --- The checker, on doctored copies of the page (it must catch each kind of drift). ---

def _doctored(old: str, new: str) -> str:
    page = PAGE.read_text()
    assert page.count(old) == 1, f"the page no longer has exactly one {old!r}: update this negative control"
    return page.replace(old, new)


def test_a_requirement_with_a_changed_type_is_caught():
    page = _doctored("static func makeTable(tokens: Int) -> Self", "static func makeTable(tokens: UInt) -> Self")
    assert mismatches(source_protocols(), page) == [
        "OnceTable: missing from the page: `static func makeTable(tokens: Int) -> Self`",
        "OnceTable: not a requirement in the sources: `static func makeTable(tokens: UInt) -> Self`",
    ]


def test_a_missing_protocol_is_caught():
    block = re.search(r"```swift\npublic protocol Handoff\b.*?```\n", PAGE.read_text(), re.DOTALL)
    assert block is not None
    assert mismatches(source_protocols(), _doctored(block.group(0), "")) == [
        "Handoff: declared in the sources, missing from the page"]


def test_a_requirement_the_sources_lack_and_a_changed_header_are_caught():
    page = _doctored("    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result\n",
                     "    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result\n    func unlock()\n")
    page = page.replace("public protocol OnceTable: OnceTracker where Token: Sendable {",
                        "public protocol OnceTable: OnceTracker {")
    assert mismatches(source_protocols(), page) == [
        "ExclusiveLock: not a requirement in the sources: `func unlock()`",
        "OnceTable: the page declares `public protocol OnceTable: OnceTracker`, the sources "
        "`public protocol OnceTable: OnceTracker where Token: Sendable`",
    ]


def test_a_wrapped_and_commented_signature_still_agrees():
    page = _doctored("    func run(tasks: Int, deadline: DispatchTime, _ task: @escaping @Sendable (Int) -> Void)"
                     " -> DispatchTimeoutResult\n",
                     "    func run(tasks: Int, deadline: DispatchTime,  // when to give up\n"
                     "             _ task: @escaping @Sendable (Int) -> Void)\n"
                     "        -> DispatchTimeoutResult\n")
    assert mismatches(source_protocols(), page) == []


def test_a_factory_left_unnamed_is_caught():
    page = _doctored('Registered with `.handoff("my-handoff") { MyHandoff() }`.', "Registered as a pair.")
    assert unnamed_factories(factories(FACTORIES.read_text()), page) == [
        "Handoff: its subsection does not name `.handoff(`"]


# --- The real page against the real declarations. ---

def test_the_page_states_every_protocol_and_requirement_exactly():
    assert mismatches(source_protocols(), PAGE.read_text()) == []


def test_the_page_names_the_call_that_registers_each_protocol():
    pairs = factories(FACTORIES.read_text())
    assert {"lock", "lockStore", "actorStore", "once", "fanOut", "throttle", "handoff"} <= {f for f, _ in pairs}
    assert unnamed_factories(pairs, PAGE.read_text()) == []


def test_the_top_of_the_page_links_the_section():
    page = PAGE.read_text()
    assert "](#the-protocols-and-their-requirements)" in page[:page.index("\n## ")]
