"""Loading results CSVs into cases: validation with messages that name file and line.

``load_results(path)`` either returns a fully typed ``ResultsFile`` or raises
``AnalyzeError``; it never returns a partially loaded file.
"""

from __future__ import annotations

import csv
import io
import math
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from .errors import AnalyzeError
from .model import Case, CaseKey, ResultsFile, parse_params
from .schema import (
    CASE_COLUMNS,
    COLUMNS_BY_VERSION,
    DEFAULT_ROUND,
    KNOWN_VERSIONS,
    METRIC,
    SAMPLE_NUMERIC_COLUMNS,
    column_type,
    run_columns,
)

BOOL_TEXT = {"true": True, "false": False}
# Version 3's dirty: git could not be read.
UNKNOWN_TEXT = "unknown"
LINE_END = re.compile(r"\r\n|\r|\n")
TORN_ROW_WARNING = "ignored the last row: it has no line end (a torn row: was the write interrupted?)"


def _parse_int(raw: str, column: str) -> int:
    try:
        return int(raw.strip())
    except ValueError:
        raise ValueError(f"{column} is not an integer: {raw!r}") from None


def _parse_float(raw: str, column: str) -> float:
    try:
        value = float(raw.strip())
    except ValueError:
        raise ValueError(f"{column} is not a number: {raw!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{column} is not a finite number: {raw!r}")
    return value


def _parse_float_or_inf(raw: str, column: str) -> float:
    try:
        value = float(raw.strip())
    except ValueError:
        raise ValueError(f"{column} is not a number: {raw!r}") from None
    if math.isnan(value) or value == -math.inf:
        raise ValueError(f"{column} is not a number or 'inf': {raw!r}")
    return value


def _parse_cell(raw: str, column: str, kind: str) -> Any:
    if kind == "str":
        return raw
    if kind == "int":
        return _parse_int(raw, column)
    if kind == "float":
        return _parse_float(raw, column)
    if kind == "float_or_inf":
        return _parse_float_or_inf(raw, column)
    if kind in ("opt_int", "opt_float"):
        if raw.strip() == "":
            return math.nan
        return float(_parse_int(raw, column)) if kind == "opt_int" else _parse_float(raw, column)
    if kind == "bool":
        if raw not in BOOL_TEXT:
            raise ValueError(f"{column} must be 'true' or 'false': {raw!r}")
        return BOOL_TEXT[raw]
    if kind == "bool_or_unknown":
        if raw == UNKNOWN_TEXT:
            return None
        if raw not in BOOL_TEXT:
            raise ValueError(f"{column} must be 'true', 'false' or 'unknown': {raw!r}")
        return BOOL_TEXT[raw]
    if kind == "timestamp":
        try:
            stamp = datetime.fromisoformat(raw.strip())
        except ValueError:
            raise ValueError(f"{column} is not an ISO 8601 time: {raw!r}") from None
        if stamp.tzinfo is None:
            stamp = stamp.replace(tzinfo=timezone.utc)
        return stamp
    if kind == "params":
        return parse_params(raw)
    raise AssertionError(f"unknown column type {kind!r} for {column}")


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise AnalyzeError("no such file", path) from None
    except IsADirectoryError:
        raise AnalyzeError("is a directory, not a results CSV", path) from None
    except OSError as error:
        raise AnalyzeError(f"cannot read: {error.strerror or error}", path) from None
    if not data.strip():
        raise AnalyzeError("empty file: no header and no samples", path)
    if b"\x00" in data:
        raise AnalyzeError("not a CSV file (binary content)", path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise AnalyzeError("not a CSV file (not UTF-8 text)", path) from None


def _split_torn_row(text: str, path: Path) -> tuple[str, int | None]:
    """The text without a torn last row, and the torn row's line number (None if whole).

    bench ends every row with a line end, so a last line without one was cut short by
    an interrupted write: its last field may be a prefix of the real value (p99_ns 31
    read as 3), so it is never read as data. A lone "\\r" ends a row too: every field of
    it is there.
    """
    if text.endswith(("\n", "\r")):
        return text, None
    cut = max(text.rfind("\n"), text.rfind("\r"))
    if cut < 0:
        raise AnalyzeError("no samples: the file ends inside its header (was the write interrupted?)", path, 1)
    kept, tail = text[:cut + 1], text[cut + 1:]
    if tail.strip() == "":
        return kept, None
    return kept, len(LINE_END.findall(kept)) + 1


def _check_header(header: list[str], version: int, path: Path) -> None:
    expected = COLUMNS_BY_VERSION[version]
    missing = [c for c in expected if c not in header]
    if missing:
        raise AnalyzeError(
            f"missing column(s) for schema_version {version}: {', '.join(missing)}", path, 1)
    extra = [c for c in header if c not in expected]
    if extra:
        raise AnalyzeError(
            f"unexpected column(s) for schema_version {version}: {', '.join(extra)}", path, 1)
    duplicated = sorted({c for c in header if header.count(c) > 1})
    if duplicated:
        raise AnalyzeError(f"duplicated column(s): {', '.join(duplicated)}", path, 1)


def _metric_problem(ops: int, ns_per_op: float, raw: str) -> str | None:
    """Why a row's ops / ns_per_op pair is impossible, or None when it is fine.

    A starved sample (ops = 0) has ns_per_op = inf and nothing else has: bench writes
    exactly that, and every ratio downstream needs a positive metric.
    """
    if ops < 0:
        return f"ops must not be negative: {ops}"
    if math.isinf(ns_per_op):
        if ops != 0:
            return (f"{METRIC} is {raw!r} but ops is {ops}: only a starved sample "
                    "(ops = 0) may have an infinite ns_per_op")
        return None
    if ops == 0:
        return (f"ops is 0 but {METRIC} is {raw!r}: a starved sample (no operation "
                "completed) must have ns_per_op = inf")
    if ns_per_op == 0:
        return (f"{METRIC} is 0: bench never writes 0 (the smallest real values are about "
                "0.1 ns), and ratios of medians need positive values")
    if ns_per_op < 0:
        return f"{METRIC} must be positive: {raw!r}"
    return None


def _check_unique(seen: dict, key: CaseKey, parsed: dict, version: int, path: Path, line: int) -> None:
    """Refuse a second row for the same (case, round, sample): a file whose rows were
    appended twice would otherwise double n and shrink every p-value."""
    round_ = parsed.get("round", DEFAULT_ROUND)
    identity = (key, round_, parsed["sample"])
    first = seen.setdefault(identity, line)
    if first != line:
        where = f" round {round_}" if "round" in COLUMNS_BY_VERSION[version] else ""
        raise AnalyzeError(
            f"duplicate sample: {key.label}{where} sample {parsed['sample']} is also on line {first}",
            path, line)


def load_results(path: str | Path) -> ResultsFile:
    """Load and validate one results CSV (any of schema.KNOWN_VERSIONS).

    ``ns_per_op`` may be ``inf`` on a starved sample (ops = 0; see schema.COLUMN_TYPES).

    Raises AnalyzeError, naming the file and line, for anything that is not a
    well-formed results file: unreadable, binary, empty, header only, unknown
    schema_version, missing columns, bad values, rows from different runs, or a
    duplicate sample (the same case, round and sample twice). A torn last row (no
    line end) is dropped and named in ``warnings``; a short row elsewhere is an error.
    """
    path = Path(path)
    text, torn_line = _split_torn_row(_read_text(path), path)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = [name.strip() for name in next(reader)]
        if "schema_version" not in header:
            raise AnalyzeError(
                "not a DispatchBench results CSV: the header has no schema_version column", path, 1)
        version_index = header.index("schema_version")
        results: ResultsFile | None = None
        kinds: dict[str, str] = {}
        run_level: tuple[str, ...] = ()
        first_run_raw: dict[str, str] = {}
        values: dict[CaseKey, dict[str, list[float]]] = {}
        # (case, round, sample) -> the line it was first seen on.
        seen: dict[tuple[CaseKey, int, int], int] = {}
        for row in reader:
            line = reader.line_num
            if not row or all(cell.strip() == "" for cell in row):
                continue
            if results is None:
                raw_version = row[version_index] if version_index < len(row) else ""
                try:
                    version = _parse_int(raw_version, "schema_version")
                except ValueError as error:
                    raise AnalyzeError(str(error), path, line) from None
                if version not in COLUMNS_BY_VERSION:
                    known = ", ".join(str(v) for v in KNOWN_VERSIONS)
                    raise AnalyzeError(
                        f"unknown schema_version {version} (this analyze reads {known}); "
                        "update scripts/analyze", path, line)
                _check_header(header, version, path)
                results = ResultsFile(str(path), version, {})
                kinds = {column: column_type(column, version) for column in header}
                run_level = run_columns(version)
            if len(row) != len(header):
                raise AnalyzeError(
                    f"expected {len(header)} fields, found {len(row)}", path, line)
            cells = dict(zip(header, row))
            try:
                parsed = {column: _parse_cell(cells[column], column, kinds[column]) for column in header}
            except ValueError as error:
                raise AnalyzeError(str(error), path, line) from None
            if not results.run:
                results.run = {c: parsed[c] for c in run_level}
                first_run_raw = {c: cells[c] for c in run_level}
                if results.run["logical_cpus"] < 1:
                    raise AnalyzeError(f"logical_cpus must be at least 1: {cells['logical_cpus']!r}", path, line)
            else:
                for column in run_level:
                    if cells[column] != first_run_raw[column]:
                        raise AnalyzeError(
                            f"{column} {cells[column]!r} differs from the first row's "
                            f"{first_run_raw[column]!r}: one file must hold one run", path, line)
            if parsed["threads"] < 1:
                raise AnalyzeError(f"threads must be at least 1: {cells['threads']!r}", path, line)
            if parsed.get("round", DEFAULT_ROUND) < 1:
                raise AnalyzeError(f"round must be at least 1: {cells['round']!r}", path, line)
            problem = _metric_problem(parsed["ops"], parsed[METRIC], cells[METRIC])
            if problem:
                raise AnalyzeError(problem, path, line)
            key = CaseKey(*(parsed[c] for c in CASE_COLUMNS))
            _check_unique(seen, key, parsed, results.schema_version, path, line)
            columns = values.setdefault(key, {c: [] for c in SAMPLE_NUMERIC_COLUMNS})
            for column in SAMPLE_NUMERIC_COLUMNS:
                columns[column].append(float(parsed.get(column, math.nan)))
    except csv.Error as error:
        raise AnalyzeError(f"malformed CSV: {error}", path, reader.line_num) from None
    if results is None:
        if torn_line is not None:
            raise AnalyzeError("no samples: the only row is torn (it has no line end: "
                               "was the write interrupted?)", path, torn_line)
        raise AnalyzeError("no samples: the file has a header but no rows", path)
    if torn_line is not None:
        results.warnings.append(f"{path}:{torn_line}: {TORN_ROW_WARNING}")
    results.cases = {
        key: Case(key, {c: np.asarray(v, dtype=float) for c, v in cols.items()})
        for key, cols in values.items()
    }
    return results
