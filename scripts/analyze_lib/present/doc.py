"""A tiny document model (headings, paragraphs, tables, images, a table of contents and
folded sections) rendered to Markdown or HTML.

Reports are built once as a list of blocks so report.md and report.html always say the
same thing. Inline text may use `code`, **bold** and links to a heading of the page, [text](#anchor),
nothing else. Headings get the anchors GitHub gives them, so the contents' links work in both renderings.
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass
from pathlib import Path

# The HTML page's content width in CSS pixels; figures are laid out to fit it unshrunk.
PAGE_WIDTH_PX = 1000
# The report's first screen (its conditions, headlines and one chart) may use a wider window than that, up to this.
FIRST_SCREEN_WIDTH_PX = 1360
CONTENTS_TITLE = "Contents"


@dataclass(frozen=True)
class Heading:
    """A heading; level 1 is the document title."""
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of inline text."""
    text: str


@dataclass(frozen=True)
class Bullets:
    """An unordered list of inline texts."""
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """A table; ``aligns`` has one ``l`` or ``r`` per column. A newline in a cell breaks
    the line (``<br>`` in both renderings). ``widths``, when given, are the columns' shares
    of the page's width in percent (HTML only; the table then takes the whole width).

    ``folds``, when given, has one (detail, heading text) per row: the row's details one click
    away. In HTML its last cell folds the detail (a ``<details>`` whose summary is the cell) with
    a link to that heading; in Markdown, whose table cells cannot fold, the last cell links to
    the heading, where the details are."""
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    aligns: str
    widths: tuple[int, ...] = ()
    folds: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Section:
    """Blocks kept together under a name: in HTML a ``<section>`` with that id (the report's first
    screen, laid out by the page's style), in Markdown just the blocks."""
    name: str
    blocks: tuple


@dataclass(frozen=True)
class Image:
    """A PNG in the output directory, referenced by file name."""
    filename: str
    alt: str


@dataclass(frozen=True)
class Contents:
    """A table of contents: links to the headings that follow it, of level 2 up to
    ``max_level``, leaving out those folded inside Details."""
    max_level: int = 3


@dataclass(frozen=True)
class Details:
    """Reference material, folded: a one-line summary and blocks shown on request
    (an HTML ``<details>``, which GitHub's Markdown folds too)."""
    summary: str
    blocks: tuple


def anchor_slug(text: str) -> str:
    """GitHub's anchor for a heading: markup dropped, lower case, punctuation other than
    ``-`` and ``_`` removed, spaces turned into hyphens (``once/hit`` -> ``oncehit``)."""
    plain = text.replace("`", "").replace("**", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", plain).replace(" ", "-")


def _anchors(blocks) -> dict[int, str]:
    """id(heading) -> its unique anchor, numbered -1, -2, … on repeats as GitHub does."""
    used = {anchor_slug(CONTENTS_TITLE)}
    anchors = {}

    def visit(items):
        for block in items:
            if isinstance(block, Heading):
                slug = base = anchor_slug(block.text)
                number = 0
                while slug in used:
                    number += 1
                    slug = f"{base}-{number}"
                used.add(slug)
                anchors[id(block)] = slug
            elif isinstance(block, (Details, Section)):
                visit(block.blocks)

    visit(blocks)
    return anchors


def _heading_anchor(document, anchors, text: str) -> str:
    """The anchor of the first heading of ``document`` whose text is ``text`` (GitHub's slug of it when none)."""
    def find(items):
        for block in items:
            if isinstance(block, Heading) and block.text == text:
                return anchors[id(block)]
            if isinstance(block, (Details, Section)):
                found = find(block.blocks)
                if found:
                    return found
        return None
    return find(document) or anchor_slug(text)


def _folded_rows(table: Table, document, anchors) -> list[tuple[str, ...]]:
    """The Markdown rows of a table with folds: the last cell links to where the row's details are."""
    if not table.folds:
        return list(table.rows)
    return [(*row[:-1], f"{row[-1]} ([more](#{_heading_anchor(document, anchors, heading)}))")
            for row, (_, heading) in zip(table.rows, table.folds)]


def _contents_entries(blocks, contents: Contents, anchors) -> list[tuple[int, str, str]]:
    """(level, text, anchor) of the headings after ``contents`` that it lists."""
    after = blocks[next(i for i, b in enumerate(blocks) if b is contents) + 1:]
    return [(b.level, b.text, anchors[id(b)]) for b in after
            if isinstance(b, Heading) and 2 <= b.level <= contents.max_level]


def markdown_table(headers, aligns: str, rows) -> list[str]:
    """A Markdown table's lines, the one writer of them: ``aligns`` has one ``l`` or ``r`` per
    column; a ``|`` in a cell is escaped and a newline becomes ``<br>``."""
    lines = ["| " + " | ".join(headers) + " |",
             "| " + " | ".join("---:" if a == "r" else "---" for a in aligns) + " |"]
    lines += ["| " + " | ".join(c.replace("|", "\\|").replace("\n", "<br>") for c in row) + " |" for row in rows]
    return lines


def to_markdown(blocks) -> str:
    """Markdown with images as relative links to the PNGs beside it."""
    return _markdown(blocks, blocks, _anchors(blocks)) + "\n"


def _markdown(items, document, anchors) -> str:
    out = []
    for block in items:
        if isinstance(block, Heading):
            out.append(f"{'#' * block.level} {block.text}")
        elif isinstance(block, Contents):
            lines = [f"{'  ' * (level - 2)}- [{text}](#{anchor})"
                     for level, text, anchor in _contents_entries(document, block, anchors)]
            out.append(f"## {CONTENTS_TITLE}\n\n" + "\n".join(lines))
        elif isinstance(block, Details):
            out.append(f"<details><summary>{html.escape(block.summary, quote=False)}</summary>\n\n"
                       + _markdown(block.blocks, document, anchors) + "\n\n</details>")
        elif isinstance(block, Paragraph):
            out.append(block.text)
        elif isinstance(block, Bullets):
            out.append("\n".join(f"- {item}" for item in block.items))
        elif isinstance(block, Table):
            out.append("\n".join(markdown_table(block.headers, block.aligns, _folded_rows(block, document, anchors))))
        elif isinstance(block, Section):
            out.append(_markdown(block.blocks, document, anchors))
        elif isinstance(block, Image):
            out.append(f"![{block.alt}]({block.filename})")
        else:
            raise TypeError(f"unknown block {block!r}")
    return "\n\n".join(out)


_CODE = re.compile(r"`([^`]*)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_LINK = re.compile(r"\[([^\]]+)\]\((#[\w-]+)\)")

HTML_STYLE = f"""
body {{ font-family: -apple-system, system-ui, sans-serif; max-width: {PAGE_WIDTH_PX}px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }}
h2 {{ border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 1.8em; }}
table {{ border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }}
th, td {{ border: 1px solid #ccc; padding: 0.25em 0.6em; vertical-align: top; }}
th {{ background: #f3f3f3; }}
td.r, th.r {{ text-align: right; font-variant-numeric: tabular-nums; }}
code {{ background: #f3f3f3; padding: 0 0.2em; }}
table.wide {{ width: 100%; table-layout: fixed; font-size: 0.85em; }}
table.wide th, table.wide td {{ padding: 0.25em 0.4em; }}
img {{ max-width: 100%; height: auto; display: block; margin: 0.5em 0 1.5em; }}
nav.contents {{ background: #f8f8f8; border: 1px solid #ddd; padding: 0.4em 1.2em; margin: 1em 0; }}
nav.contents h2 {{ border: none; margin: 0.3em 0; font-size: 1.1em; }}
nav.contents ul {{ margin: 0.2em 0; padding-left: 1.2em; }}
nav.contents > ul > li {{ margin: 0.15em 0; }}
nav.contents ul ul {{ display: inline; padding: 0; }}
nav.contents ul ul li {{ display: inline; }}
nav.contents ul ul li::before {{ content: " · "; color: #888; }}
nav.contents ul ul li:first-child::before {{ content: " — "; }}
details {{ margin: 0.8em 0; }}
summary {{ cursor: pointer; color: #0645ad; }}
body > h1:first-of-type, section#first-screen {{ width: min({FIRST_SCREEN_WIDTH_PX}px, calc(100vw - 2em));
       position: relative; left: 50%; transform: translateX(-50%); }}
body > h1:first-of-type {{ font-size: 1.5em; margin: 0.4em 0 0.3em; }}
section#first-screen {{ font-size: 0.92em; line-height: 1.35; }}
section#first-screen p, section#first-screen ul {{ margin: 0.35em 0; }}
section#at-a-glance {{ display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0 1.2em; align-items: start; }}
section#at-a-glance > p {{ grid-column: 1 / -1; }}
section#at-a-glance > table {{ grid-column: 1; margin: 0.3em 0; font-size: 0.92em; }}
section#at-a-glance > img {{ grid-column: 2; grid-row: 2; margin: 0.3em 0; }}
section#at-a-glance td details {{ margin: 0; }}
section#at-a-glance td summary {{ color: inherit; }}
@media (max-width: {FIRST_SCREEN_WIDTH_PX - 300}px) {{ section#at-a-glance {{ display: block; }} }}
"""


def _inline_html(text: str) -> str:
    escaped = html.escape(text, quote=False)
    escaped = _CODE.sub(r"<code>\1</code>", escaped)
    escaped = _LINK.sub(r'<a href="\2">\1</a>', escaped)
    return _BOLD.sub(r"<strong>\1</strong>", escaped).replace("\n", "<br>")


def to_html(blocks, image_dir: Path, title: str) -> str:
    """A self-contained HTML page: every image embedded as a base64 data URI."""
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{html.escape(title)}</title>", f"<style>{HTML_STYLE}</style>", "</head>", "<body>"]
    out += _html(blocks, blocks, _anchors(blocks), image_dir)
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _html_contents(entries) -> str:
    out, open_sub = ["<ul>"], False
    for level, text, anchor in entries:
        link = f'<a href="#{anchor}">{_inline_html(text)}</a>'
        if level == 2:
            if open_sub:
                out.append("</ul>")
                open_sub = False
            if len(out) > 1:
                out.append("</li>")
            out.append(f"<li>{link}")
        else:
            if not open_sub:
                out.append("<ul>")
                open_sub = True
            out.append(f"<li>{link}</li>")
    if open_sub:
        out.append("</ul>")
    if len(out) > 1:
        out.append("</li>")
    out.append("</ul>")
    return "".join(out)


def _html(items, document, anchors, image_dir: Path) -> list[str]:
    out = []
    for block in items:
        if isinstance(block, Heading):
            out.append(f'<h{block.level} id="{anchors[id(block)]}">{_inline_html(block.text)}</h{block.level}>')
        elif isinstance(block, Contents):
            entries = _contents_entries(document, block, anchors)
            out.append(f'<nav class="contents"><h2>{CONTENTS_TITLE}</h2>{_html_contents(entries)}</nav>')
        elif isinstance(block, Details):
            out.append(f"<details><summary>{_inline_html(block.summary)}</summary>")
            out += _html(block.blocks, document, anchors, image_dir)
            out.append("</details>")
        elif isinstance(block, Paragraph):
            out.append(f"<p>{_inline_html(block.text)}</p>")
        elif isinstance(block, Bullets):
            out.append("<ul>" + "".join(f"<li>{_inline_html(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, Table):
            head = "".join(f'<th class="{a}">{_inline_html(h)}</th>' for h, a in zip(block.headers, block.aligns))
            cells = [[_inline_html(c) for c in row] for row in block.rows]
            for row, (detail, heading) in zip(cells, block.folds):
                link = f' <a href="#{_heading_anchor(document, anchors, heading)}">{html.escape(heading)}</a>'
                row[-1] = (f"<details><summary>{row[-1]}</summary>{_inline_html(detail)}{link}</details>")
            body = "".join("<tr>" + "".join(f'<td class="{a}">{c}</td>' for c, a in zip(row, block.aligns))
                           + "</tr>" for row in cells)
            if block.widths:
                columns = "".join(f'<col style="width: {w}%">' for w in block.widths)
                opening = f'<table class="wide"><colgroup>{columns}</colgroup>'
            else:
                opening = "<table>"
            out.append(f"{opening}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        elif isinstance(block, Section):
            out.append(f'<section id="{html.escape(block.name)}">')
            out += _html(block.blocks, document, anchors, image_dir)
            out.append("</section>")
        elif isinstance(block, Image):
            data = base64.b64encode((image_dir / block.filename).read_bytes()).decode("ascii")
            out.append(f'<img alt="{html.escape(block.alt)}" src="data:image/png;base64,{data}">')
        else:
            raise TypeError(f"unknown block {block!r}")
    return out
