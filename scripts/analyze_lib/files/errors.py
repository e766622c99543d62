"""The one error type the CLI turns into exit code 2 and a single line on stderr."""

from __future__ import annotations

from pathlib import Path


class AnalyzeError(Exception):
    """Bad input or usage: a message naming the file (and line, where there is one).

    ``str(error)`` is the complete line to print, e.g. ``base.csv:7: ns_per_op is not
    a number: 'abc'``.
    """

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        where = ""
        if self.path is not None:
            where = f"{self.path}:" if line is None else f"{self.path}:{line}:"
        super().__init__(f"{where} {message}" if where else message)
