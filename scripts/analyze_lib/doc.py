"""A tiny document model (headings, paragraphs, tables, images) rendered to Markdown or HTML.

Reports are built once as a list of blocks so report.md and report.html always say the
same thing. Inline text may use `code` and **bold**, nothing else.
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass
from pathlib import Path


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
    """A table; ``aligns`` has one ``l`` or ``r`` per column."""
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    aligns: str


@dataclass(frozen=True)
class Image:
    """A PNG in the output directory, referenced by file name."""
    filename: str
    alt: str


def to_markdown(blocks) -> str:
    """Markdown with images as relative links to the PNGs beside it."""
    out = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"{'#' * block.level} {block.text}")
        elif isinstance(block, Paragraph):
            out.append(block.text)
        elif isinstance(block, Bullets):
            out.append("\n".join(f"- {item}" for item in block.items))
        elif isinstance(block, Table):
            lines = ["| " + " | ".join(block.headers) + " |",
                     "| " + " | ".join("---:" if a == "r" else "---" for a in block.aligns) + " |"]
            lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in block.rows]
            out.append("\n".join(lines))
        elif isinstance(block, Image):
            out.append(f"![{block.alt}]({block.filename})")
        else:
            raise TypeError(f"unknown block {block!r}")
    return "\n\n".join(out) + "\n"


_CODE = re.compile(r"`([^`]*)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")

HTML_STYLE = """
body { font-family: -apple-system, system-ui, sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; vertical-align: top; }
th { background: #f3f3f3; }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; }
code { background: #f3f3f3; padding: 0 0.2em; }
img { max-width: 100%; height: auto; }
"""


def _inline_html(text: str) -> str:
    escaped = html.escape(text, quote=False)
    escaped = _CODE.sub(r"<code>\1</code>", escaped)
    return _BOLD.sub(r"<strong>\1</strong>", escaped)


def to_html(blocks, image_dir: Path, title: str) -> str:
    """A self-contained HTML page: every image embedded as a base64 data URI."""
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{html.escape(title)}</title>", f"<style>{HTML_STYLE}</style>", "</head>", "<body>"]
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"<h{block.level}>{_inline_html(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            out.append(f"<p>{_inline_html(block.text)}</p>")
        elif isinstance(block, Bullets):
            out.append("<ul>" + "".join(f"<li>{_inline_html(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, Table):
            head = "".join(f'<th class="{a}">{_inline_html(h)}</th>' for h, a in zip(block.headers, block.aligns))
            body = "".join("<tr>" + "".join(f'<td class="{a}">{_inline_html(c)}</td>'
                                            for c, a in zip(row, block.aligns)) + "</tr>"
                           for row in block.rows)
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        elif isinstance(block, Image):
            data = base64.b64encode((image_dir / block.filename).read_bytes()).decode("ascii")
            out.append(f'<p><img alt="{html.escape(block.alt)}" src="data:image/png;base64,{data}"></p>')
        else:
            raise TypeError(f"unknown block {block!r}")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
