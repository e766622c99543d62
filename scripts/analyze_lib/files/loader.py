"""Loading results CSVs into cases: validation with messages that name file and line.

Timing files (``bench``) load as ``ResultsFile``, counts files (``bench count``) as
``CountsFile``, stress files (``bench stress``) as ``StressFile``; the header tells them
apart (schema.file_kind). ``load_results(path)`` reads a timing file, ``load_counts(path)``
a counts file, ``load_stress(path)`` a stress file, ``load_any(path)`` any of them. Each
returns a fully typed file or raises ``AnalyzeError``; none returns a partially loaded
file. The kinds share the reading: torn last rows, headers, versions, cell types and
run-level columns are checked the same way.
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from .errors import AnalyzeError
from .model import (
    Case,
    CaseCounts,
    CaseKey,
    CountsFile,
    OutcomeCount,
    ResultsFile,
    StressFile,
    StressResult,
    parse_params,
)
from .schema import (
    BUILT_IN_ORIGIN,
    CASE_COLUMNS,
    ORIGIN_COLUMN,
    COLUMNS_BY_VERSION,
    CONTROL_KIND,
    CONTROL_KINDS,
    CONTROL_PREFIX,
    COUNTS,
    COUNTS_COLUMNS_BY_VERSION,
    COUNTS_PER_OP,
    DEFAULT_ROUND,
    METRIC,
    PAIR_ORDERS,
    RUN_COMPLETE,
    RUN_SETTING_DEFAULTS,
    RUN_SETTING_FROM,
    RUN_SETTINGS_SINCE_VERSION,
    SAMPLE_NUMERIC_COLUMNS,
    STRESS,
    STRESS_COLUMNS_BY_VERSION,
    STRESS_GRADES,
    STRESS_VERSION_COLUMN,
    MINIMUM_TRIALS,
    TRIALS,
    TRIALS_TO_FIRST_FORBIDDEN,
    TRIAL,
    THREADS_MEANING,
    TIMING,
    column_type,
    counts_run_columns,
    file_kind,
    run_columns,
    stress_column_type,
    stress_run_columns,
)

BOOL_TEXT = {"true": True, "false": False}
# Version 3's dirty: git could not be read.
UNKNOWN_TEXT = "unknown"
LINE_END = re.compile(r"\r\n|\r|\n")
TORN_ROW_WARNING = "ignored the last row: it has no line end (a torn row: was the write interrupted?)"
# What load_results and load_counts say when handed the other kind of file.
COUNTS_NOT_TIMING = "a counts file (written by bench count), not a timing results file"
TIMING_NOT_COUNTS = "a timing results file, not a counts file (written by bench count)"
STRESS_NOT_TIMING = "a stress outcomes file (written by bench stress), not a timing results file"
STRESS_NOT_COUNTS = "a stress outcomes file (written by bench stress), not a counts file (written by bench count)"
NOT_STRESS = "not a stress outcomes file (written by bench stress): its first column is not stress_schema_version"
# Relative slack when a per-op column is checked against count / operations (on top of
# the rounding the column's written digits allow).
PER_OP_RELATIVE_SLACK = 1e-9
# bench writes ns_per_op with 4 decimals ("%.4f" of elapsed_ns / ops in doubles), so a value
# within half a unit of the 4th decimal of elapsed_ns / ops, plus a double's relative
# rounding (2^-52, with room), agrees with it, whatever digits another writer used.
NS_PER_OP_WRITTEN_SLACK = 0.5e-4
NS_PER_OP_RELATIVE_SLACK = 1e-12
# The largest magnitude of a number in any column: every value bench writes is a count that
# fits in 64 bits or a ratio of such counts (at most 2^64 operations per nanosecond, 1.8e28
# a second); the analysis sums and averages them, which stays finite far below 1e300.
MAX_MAGNITUDE = 1e30
# Integers are 64-bit in bench (Int and UInt64).
INT_RANGE = (-(2 ** 63), 2 ** 64 - 1)
# Schema 9's column that marks the row of a case bench abandoned as hung (docs/running.md#hung-cases): no sample,
# no operation. A case hung in any round is read from its hung rows alone (``_hung_rows_only``).
HUNG = "hung"


@dataclass(frozen=True)
class _Layout:
    """One kind of results file: its columns per version, its run-level columns, and what
    its rows are called in messages."""

    kind: str
    columns_by_version: dict[int, tuple[str, ...]]
    run_columns: Callable[[int], tuple[str, ...]]
    rows: str
    # How an "unknown schema_version" message names the versions this kind reads.
    known_versions: str
    # The column that holds the file's version (the first of its header), and each
    # column's type name in a given version.
    version_column: str = "schema_version"
    column_type: Callable[[str, int], str] = column_type


LAYOUTS = {
    TIMING: _Layout(TIMING, COLUMNS_BY_VERSION, run_columns, "samples",
                    ", ".join(map(str, sorted(COLUMNS_BY_VERSION)))),
    COUNTS: _Layout(COUNTS, COUNTS_COLUMNS_BY_VERSION, counts_run_columns, "cases",
                    "counts files of version " + ", ".join(map(str, sorted(COUNTS_COLUMNS_BY_VERSION)))),
    STRESS: _Layout(STRESS, STRESS_COLUMNS_BY_VERSION, stress_run_columns, "outcomes",
                    "stress files of version " + ", ".join(map(str, sorted(STRESS_COLUMNS_BY_VERSION))),
                    STRESS_VERSION_COLUMN, stress_column_type),
}


def _parse_int(raw: str, column: str) -> int:
    try:
        value = int(raw.strip())
    except ValueError:
        raise ValueError(f"{column} is not an integer: {raw!r}") from None
    if not INT_RANGE[0] <= value <= INT_RANGE[1]:
        raise ValueError(f"{column} is out of range: {raw.strip()} does not fit in 64 bits, as every count bench "
                         "writes does")
    return value


def _check_magnitude(value: float, raw: str, column: str) -> float:
    if abs(value) > MAX_MAGNITUDE:
        raise ValueError(f"{column} is out of range: {raw.strip()} is above {MAX_MAGNITUDE:g}, more than any "
                         "value bench writes")
    return value


def _parse_float(raw: str, column: str) -> float:
    try:
        value = float(raw.strip())
    except ValueError:
        raise ValueError(f"{column} is not a number: {raw!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{column} is not a finite number: {raw!r}")
    return _check_magnitude(value, raw, column)


def _parse_float_or_inf(raw: str, column: str) -> float:
    try:
        value = float(raw.strip())
    except ValueError:
        raise ValueError(f"{column} is not a number: {raw!r}") from None
    if math.isnan(value) or value == -math.inf:
        raise ValueError(f"{column} is not a number or 'inf': {raw!r}")
    return value if math.isinf(value) else _check_magnitude(value, raw, column)


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
    if kind == "pair_order":
        if raw == "":
            return None
        if raw not in PAIR_ORDERS:
            raise ValueError(f"{column} must be empty, {' or '.join(map(repr, PAIR_ORDERS))}: {raw!r}")
        return raw
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


def _split_torn_row(text: str, path: Path, rows: str) -> tuple[str, int | None]:
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
        raise AnalyzeError(f"no {rows}: the file ends inside its header (was the write interrupted?)", path, 1)
    kept, tail = text[:cut + 1], text[cut + 1:]
    if tail.strip() == "":
        return kept, None
    return kept, len(LINE_END.findall(kept)) + 1


def _check_header(header: list[str], expected: tuple[str, ...], version: int, path: Path,
                  version_column: str = "schema_version") -> None:
    missing = [c for c in expected if c not in header]
    if missing:
        raise AnalyzeError(
            f"missing column(s) for {version_column} {version}: {', '.join(missing)}", path, 1)
    extra = [c for c in header if c not in expected]
    if extra:
        raise AnalyzeError(
            f"unexpected column(s) for {version_column} {version}: {', '.join(extra)}", path, 1)
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


def _elapsed_problem(parsed: dict[str, Any], cells: dict[str, str]) -> str | None:
    """Why a timing row's ns_per_op disagrees with its elapsed_ns / ops, or None (also for a
    starved sample, whose ns_per_op is inf by rule). The tolerance is the writer's rounding
    (NS_PER_OP_WRITTEN_SLACK)."""
    ops, elapsed, ns_per_op = parsed["ops"], parsed["elapsed_ns"], parsed[METRIC]
    if ops <= 0 or math.isinf(ns_per_op):
        return None
    if elapsed < 0:
        return f"elapsed_ns must not be negative: {cells['elapsed_ns']!r}"
    expected = elapsed / ops
    if abs(ns_per_op - expected) > NS_PER_OP_WRITTEN_SLACK + NS_PER_OP_RELATIVE_SLACK * expected:
        return (f"{METRIC} {cells[METRIC].strip()} does not match elapsed_ns / ops = {elapsed} / {ops} = "
                f"{expected:.4f}")
    return None


def _check_unique_sample(seen: dict[tuple[CaseKey, int, int], int], key: CaseKey, parsed: dict[str, Any],
                         version: int, path: Path, line: int) -> None:
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


@dataclass
class _Table:
    """A results CSV being read: its header and layout (from the header), then its rows.

    ``rows()`` yields each data row as (line, raw cells, parsed cells) after the checks
    every kind shares: the schema version (from the first row), the header against it,
    the field count, each cell's type, and run-level columns equal on every row. It fills
    ``version`` and ``run`` from the first row; ``finish()`` checks that there was one.
    """

    path: Path
    layout: _Layout
    header: list[str]
    reader: Any
    torn_line: int | None
    version: int | None = None
    run: dict[str, Any] = field(default_factory=dict)
    # The first line whose run_complete is false (None: none is, or the version has no
    # run_complete).
    incomplete_line: int | None = None
    _kinds: dict[str, str] = field(default_factory=dict)
    _first_run_raw: dict[str, str] = field(default_factory=dict)
    # The version's run-level columns, and the others, in file order (set by _start).
    _run_level: tuple[str, ...] = ()
    _row_level: tuple[str, ...] = ()
    # The first row's run-level cells parsed: every later row holds the same text in them (_check_run).
    _first_run_parsed: dict[str, Any] = field(default_factory=dict)

    @property
    def read_version(self) -> int:
        """``version``, once rows() has read the first row (it fills it before it yields one)."""
        assert self.version is not None, "no row read yet"
        return self.version

    def rows(self) -> Iterator[tuple[int, dict[str, str], dict[str, Any]]]:
        path, header = self.path, self.header
        try:
            for row in self.reader:
                line = self.reader.line_num
                if not row or all(cell.strip() == "" for cell in row):
                    continue
                if self.version is None:
                    self._start(row, line)
                if len(row) != len(header):
                    raise AnalyzeError(f"expected {len(header)} fields, found {len(row)}", path, line)
                cells = dict(zip(header, row))
                parsed = self._parse_row(cells, line)
                if parsed.get(RUN_COMPLETE) is False and self.incomplete_line is None:
                    self.incomplete_line = line
                if parsed["threads"] < 1:
                    raise AnalyzeError(f"threads must be at least 1: {cells['threads']!r}", path, line)
                yield line, cells, parsed
        except csv.Error as error:
            raise AnalyzeError(f"malformed CSV: {error}", path, self.reader.line_num) from None

    def _parse_row(self, cells: dict[str, str], line: int) -> dict[str, Any]:
        """Every cell of a row parsed. The first row's run-level cells are parsed and kept (_check_run); a later
        row's must be the same text, so they take the first row's values and only its other cells are parsed."""
        kinds = self._kinds
        try:
            if not self.run:
                parsed = {column: _parse_cell(cells[column], column, kinds[column]) for column in self.header}
                self._check_run(cells, parsed, line)
                return parsed
            first = self._first_run_raw
            for column in self._run_level:
                if cells[column] != first[column]:
                    _parse_cell(cells[column], column, kinds[column])  # a cell that cannot be read says so first
                    raise AnalyzeError(
                        f"{column} {cells[column]!r} differs from the first row's {first[column]!r}: one file must "
                        "hold one run", self.path, line)
            parsed = dict(self._first_run_parsed)
            for column in self._row_level:
                parsed[column] = _parse_cell(cells[column], column, kinds[column])
            return parsed
        except ValueError as error:
            raise AnalyzeError(str(error), self.path, line) from None

    def _start(self, row: list[str], line: int) -> None:
        """Read the schema version from the first row and check the header against it."""
        layout, path = self.layout, self.path
        name = layout.version_column
        index = self.header.index(name)
        raw_version = row[index] if index < len(row) else ""
        try:
            version = _parse_int(raw_version, name)
        except ValueError as error:
            raise AnalyzeError(str(error), path, line) from None
        if version not in layout.columns_by_version:
            raise AnalyzeError(
                f"unknown {name} {version} (this analyze reads {layout.known_versions}); "
                "update scripts/analyze", path, line)
        _check_header(self.header, layout.columns_by_version[version], version, path, name)
        self.version = version
        self._kinds = {column: layout.column_type(column, version) for column in self.header}
        self._run_level = layout.run_columns(version)
        self._row_level = tuple(column for column in self.header if column not in self._run_level)

    def _check_run(self, cells: dict[str, str], parsed: dict[str, Any], line: int) -> None:
        """Keep the first row's run-level columns (and their text, which every later row must repeat)."""
        run_level = self._run_level
        self._first_run_parsed = {c: parsed[c] for c in run_level}
        self._first_run_raw = {c: cells[c] for c in run_level}
        self.run = dict(self._first_run_parsed)
        if self.layout.kind == TIMING and self.read_version >= RUN_SETTINGS_SINCE_VERSION:
            for column, value in RUN_SETTING_DEFAULTS.items():
                self.run.setdefault(column, value)
            for column, source in RUN_SETTING_FROM.items():
                self.run.setdefault(column, self.run[source])
        if self.run["logical_cpus"] < 1:
            raise AnalyzeError(f"logical_cpus must be at least 1: {cells['logical_cpus']!r}", self.path, line)

    def finish(self) -> list[str]:
        """After the rows: refuse a file without any; the warnings of what was worked
        around (a torn last row dropped)."""
        rows = self.layout.rows
        if self.version is None:
            if self.torn_line is not None:
                raise AnalyzeError(f"no {rows}: the only row is torn (it has no line end: "
                                   "was the write interrupted?)", self.path, self.torn_line)
            raise AnalyzeError(f"no {rows}: the file has a header but no rows", self.path)
        if self.torn_line is not None:
            return [f"{self.path}:{self.torn_line}: {TORN_ROW_WARNING}"]
        return []


def incompleteness(table: _Table, rounds: set[int] | None = None) -> str | None:
    """Why a loaded file is known to be incomplete, or None: a row says run_complete false
    (bench rewrites every row to true only when the whole run completed), or a timing file
    holds fewer distinct ``rounds`` than every case of its run gets (how files before version 5
    show an interrupted run of rounds): run_rounds, or in an adaptive run, whose cases stop
    between run_min_rounds and run_rounds, run_min_rounds."""
    if table.incomplete_line is not None:
        return (f"{RUN_COMPLETE} is false (line {table.incomplete_line}): the run that wrote it did not "
                "complete (interrupted, killed, or still running)")
    expected = table.run.get("run_min_rounds", table.run.get("run_rounds"))
    if rounds is not None and expected is not None and len(rounds) < expected:
        held = f"round{'s' if len(rounds) != 1 else ''} {', '.join(map(str, sorted(rounds)))}"
        if expected != table.run.get("run_rounds"):
            return (f"it holds {len(rounds)} rounds, fewer than the {expected} every case of its adaptive run "
                    f"gets (run_min_rounds {expected}; {held}): the run did not complete")
        return (f"it holds {len(rounds)} of the run's {expected} rounds (run_rounds {expected}; {held}): "
                "the run did not complete")
    return None


def _open_table(path: Path) -> _Table:
    """Read ``path``'s text and header and tell its kind from the header."""
    text = _read_text(path)
    # Which noun messages use before the header is read: a cut header has no kind yet.
    first_line = LINE_END.split(text, 1)[0]
    provisional = LAYOUTS[file_kind(name.strip() for name in first_line.split(","))]
    text, torn_line = _split_torn_row(text, path, provisional.rows)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = [name.strip() for name in next(reader)]
    except csv.Error as error:
        raise AnalyzeError(f"malformed CSV: {error}", path, reader.line_num) from None
    layout = LAYOUTS[file_kind(header)]
    if layout.version_column not in header:
        raise AnalyzeError(
            "not a DispatchBench results CSV: the header has no schema_version column", path, 1)
    return _Table(path, layout, header, reader, torn_line)


def _results(table: _Table) -> ResultsFile:
    """The rows of a timing file as cases of samples."""
    path = table.path
    values: dict[CaseKey, dict[str, list[float]]] = {}
    rounds: dict[CaseKey, list[int]] = {}
    # Each row's hung flag, per case (False for files before schema 9).
    hung: dict[CaseKey, list[bool]] = {}
    # (case, round, sample) -> the line it was first seen on.
    seen: dict[tuple[CaseKey, int, int], int] = {}
    origins: dict[tuple[str, str], str] = {}
    for line, cells, parsed in table.rows():
        if parsed.get("round", DEFAULT_ROUND) < 1:
            raise AnalyzeError(f"round must be at least 1: {cells['round']!r}", path, line)
        problem = (_metric_problem(parsed["ops"], parsed[METRIC], cells[METRIC])
                   or _elapsed_problem(parsed, cells))
        if parsed.get(HUNG) and parsed["ops"] != 0:
            problem = f"{HUNG} is true but ops is {parsed['ops']}: bench writes a hung case's row with no operation"
        if problem:
            raise AnalyzeError(problem, path, line)
        key = CaseKey(*(parsed[c] for c in CASE_COLUMNS))
        _note_origin(origins, key, parsed)
        _check_unique_sample(seen, key, parsed, table.read_version, path, line)
        columns = values.setdefault(key, {c: [] for c in SAMPLE_NUMERIC_COLUMNS})
        for column in SAMPLE_NUMERIC_COLUMNS:
            columns[column].append(float(parsed.get(column, math.nan)))
        rounds.setdefault(key, []).append(int(parsed.get("round", DEFAULT_ROUND)))
        hung.setdefault(key, []).append(bool(parsed.get(HUNG, False)))
    warnings = table.finish()
    held = {r for ids in rounds.values() for r in ids}
    for key, flags in hung.items():
        if any(flags) and not all(flags):
            warnings.append(_hung_rows_only(key, flags, values[key], rounds[key]))
    cases = {key: Case(key, {c: np.asarray(v, dtype=float) for c, v in cols.items()},
                       np.asarray(rounds[key], dtype=int), any(hung[key]))
             for key, cols in values.items()}
    return ResultsFile(str(path), table.read_version, table.run, cases, warnings, incompleteness(table, held),
                       origins)


def _hung_rows_only(key: CaseKey, flags: list[bool], columns: dict[str, list[float]], rounds: list[int]) -> str:
    """Keeps only the hung rows of a case that hung in one round and was measured in others (bench measured it
    before it hung, and no later round measured it), in place; returns the warning that says so.

    A variant that hangs is broken: its timings from the rounds it got through would give it a finite median
    whenever fewer than half its rounds hung, and a broken variant would read as fast. From its hung rows alone
    it reads as starved, everywhere the analysis looks."""
    hung_rounds = sorted({r for r, flag in zip(rounds, flags) if flag})
    dropped = flags.count(False)
    for column, cells in columns.items():
        columns[column] = [cell for cell, flag in zip(cells, flags) if flag]
    rounds[:] = [r for r, flag in zip(rounds, flags) if flag]
    return (f"{key.label} hung in round {', '.join(map(str, hung_rounds))} (no progress for bench's "
            f"--hang-timeout): its {dropped} sample{'s' if dropped != 1 else ''} of other rounds are left out, "
            "and it reads as starved")


def _note_origin(origins: dict[tuple[str, str], str], key: CaseKey, parsed: dict[str, Any]) -> None:
    """Records where a brought-in variant comes from (files before schema 6 have no origin: all built in)."""
    origin = parsed.get(ORIGIN_COLUMN, BUILT_IN_ORIGIN)
    if origin != BUILT_IN_ORIGIN:
        origins[(key.suite, key.variant)] = origin


def _written_precision(raw: str) -> float:
    """Half a unit in the last digit ``raw`` was written with: ``12.35`` -> 0.005, ``1e-05``
    -> 5e-06, ``40`` -> 0.5. A per-op value written to fewer digits is rounded that much."""
    try:
        exponent = Decimal(raw.strip()).as_tuple().exponent
    except InvalidOperation:
        return 0.0
    return 0.5 * 10.0 ** exponent if isinstance(exponent, int) else 0.0


def _counts_problem(parsed: dict[str, Any], cells: dict[str, str]) -> str | None:
    """Why a counts row's numbers cannot be (see COUNTS_CSV.md), or None when they are fine."""
    iterations, operations = parsed["iterations"], parsed["operations"]
    if iterations < 1:
        return f"iterations must be at least 1: {cells['iterations']!r}"
    if operations < 1:
        return f"operations must be at least 1: {cells['operations']!r}"
    if operations % iterations:
        return (f"operations {operations} is not a multiple of iterations {iterations} "
                "(operations = iterations × operations per iteration)")
    if parsed["instructions"] == 0:
        return ("instructions is 0: callgrind counted nothing (the harness loop alone costs "
                "instructions; was collection turned on around the loop?)")
    for per_op, count in COUNTS_PER_OP.items():
        if parsed[count] < 0:
            return f"{count} must not be negative: {cells[count]!r}"
        if parsed[per_op] < 0:
            return f"{per_op} must not be negative: {cells[per_op]!r}"
        expected = parsed[count] / operations
        slack = _written_precision(cells[per_op]) + PER_OP_RELATIVE_SLACK * expected
        if abs(parsed[per_op] - expected) > slack:
            return (f"{per_op} {cells[per_op].strip()} does not match {count} / operations = "
                    f"{parsed[count]} / {operations} = {expected:.6g}")
    return None


def _counts(table: _Table) -> CountsFile:
    """The rows of a counts file as one CaseCounts per case."""
    path = table.path
    cases: dict[CaseKey, CaseCounts] = {}
    lines: dict[CaseKey, int] = {}
    origins: dict[tuple[str, str], str] = {}
    for line, cells, parsed in table.rows():
        problem = _counts_problem(parsed, cells)
        if problem:
            raise AnalyzeError(problem, path, line)
        key = CaseKey(*(parsed[c] for c in CASE_COLUMNS))
        _note_origin(origins, key, parsed)
        first = lines.setdefault(key, line)
        if first != line:
            # A case is counted once: a second row is a file appended to twice.
            raise AnalyzeError(f"duplicate case: {key.label} is also on line {first}", path, line)
        cases[key] = CaseCounts(key, parsed["iterations"], parsed["operations"],
                                parsed["instructions"], parsed["allocations"])
    warnings = table.finish()
    return CountsFile(str(path), table.read_version, table.run, cases, warnings, incompleteness(table), origins)


def _stress_problem(parsed: dict[str, Any], cells: dict[str, str]) -> str | None:
    """Why a stress row cannot be what bench stress writes, or None when it is fine."""
    if parsed["grade"] not in STRESS_GRADES:
        return f"grade must be one of {', '.join(STRESS_GRADES)}: {cells['grade']!r}"
    if parsed["outcome"].strip() == "":
        return "outcome is empty"
    for column in ("iterations", "count"):
        if parsed[column] < 0:
            return f"{column} must not be negative: {cells[column]!r}"
    if parsed["seconds"] < 0:
        return f"seconds must not be negative: {cells['seconds']!r}"
    named_control = parsed["check"].startswith(CONTROL_PREFIX)
    if parsed["is_control"] != named_control:
        return (f"is_control is {cells['is_control']} but check {parsed['check']!r} "
                f"{'starts' if named_control else 'does not start'} with {CONTROL_PREFIX!r}")
    first = parsed["seconds_to_first_forbidden"]
    if not math.isnan(first):
        if not parsed["is_control"]:
            return "seconds_to_first_forbidden is only for a control, but this row is a variant's"
        if first < 0:
            return f"seconds_to_first_forbidden must not be negative: {cells['seconds_to_first_forbidden']!r}"
    return _trials_problem(parsed, cells) if TRIALS in parsed else None


def _trials_problem(parsed: dict[str, Any], cells: dict[str, str]) -> str | None:
    """Why a row's trial counts (stress_schema_version 4 on) cannot be what bench stress writes, or None."""
    for column in (TRIALS, MINIMUM_TRIALS):
        if parsed[column] < 0:
            return f"{column} must not be negative: {cells[column]!r}"
    kind = parsed[CONTROL_KIND]
    if parsed["is_control"] and kind not in CONTROL_KINDS:
        return f"{CONTROL_KIND} of a control must be one of {', '.join(CONTROL_KINDS)}: {cells[CONTROL_KIND]!r}"
    if not parsed["is_control"] and kind != "":
        return f"{CONTROL_KIND} is only for a control, but this row is a variant's: {cells[CONTROL_KIND]!r}"
    trials_to_first = parsed[TRIALS_TO_FIRST_FORBIDDEN]
    if math.isnan(trials_to_first) != math.isnan(parsed["seconds_to_first_forbidden"]):
        return (f"{TRIALS_TO_FIRST_FORBIDDEN} and seconds_to_first_forbidden must both be given (a control caught) "
                f"or both be empty: {cells[TRIALS_TO_FIRST_FORBIDDEN]!r}, {cells['seconds_to_first_forbidden']!r}")
    if trials_to_first < 0:
        return f"{TRIALS_TO_FIRST_FORBIDDEN} must not be negative: {cells[TRIALS_TO_FIRST_FORBIDDEN]!r}"
    return None


# What every row of one check at one thread count shares: they were written from one slot (a file has those of
# its version).
STRESS_SLOT_COLUMNS = ("is_control", "iterations", "seconds", "seconds_to_first_forbidden",
                       TRIALS, MINIMUM_TRIALS, CONTROL_KIND, TRIALS_TO_FIRST_FORBIDDEN, TRIAL, THREADS_MEANING)


def _optional_int(value: float) -> int | None:
    """An opt_int cell as parsed (NaN when empty) as an int or None."""
    return None if math.isnan(value) else int(value)


def _stress(table: _Table) -> StressFile:
    """The rows of a stress file as one StressResult per (check, threads)."""
    path = table.path
    outcomes: dict[tuple[str, int], list[OutcomeCount]] = {}
    slots: dict[tuple[str, int], tuple[int, dict[str, str], dict[str, Any]]] = {}
    # (check, threads, outcome) -> the line it was first seen on.
    seen: dict[tuple[str, int, str], int] = {}
    for line, cells, parsed in table.rows():
        problem = _stress_problem(parsed, cells)
        if problem:
            raise AnalyzeError(problem, path, line)
        key = (parsed["check"], parsed["threads"])
        first = seen.setdefault((*key, parsed["outcome"]), line)
        if first != line:
            # One row per outcome: a second one is a file appended to twice.
            raise AnalyzeError(f"duplicate outcome: {key[0]} threads:{key[1]} {parsed['outcome']} "
                               f"is also on line {first}", path, line)
        slot_line, slot_cells, _ = slots.setdefault(key, (line, cells, parsed))
        for column in (c for c in STRESS_SLOT_COLUMNS if c in cells):
            if cells[column] != slot_cells[column]:
                raise AnalyzeError(
                    f"{column} {cells[column]!r} differs from line {slot_line}'s {slot_cells[column]!r}: "
                    f"the rows of {key[0]} threads:{key[1]} come from one run of the check", path, line)
        outcomes.setdefault(key, []).append(OutcomeCount(parsed["outcome"], parsed["grade"], parsed["count"]))
    warnings = table.finish()
    results = {}
    for key, (_, _, parsed) in slots.items():
        first = parsed["seconds_to_first_forbidden"]
        origin = parsed.get(ORIGIN_COLUMN, BUILT_IN_ORIGIN)
        counted = TRIALS in parsed  # stress_schema_version 4 on
        results[key] = StressResult(key[0], key[1], parsed["is_control"], parsed["iterations"],
                                    parsed["seconds"], tuple(outcomes[key]),
                                    None if math.isnan(first) else first,
                                    None if origin == BUILT_IN_ORIGIN else origin,
                                    trials=parsed[TRIALS] if counted else None,
                                    minimum_trials=parsed[MINIMUM_TRIALS] if counted else None,
                                    control_kind=(parsed[CONTROL_KIND] or None) if counted else None,
                                    trials_to_first_forbidden=(_optional_int(parsed[TRIALS_TO_FIRST_FORBIDDEN])
                                                               if counted else None),
                                    trial=parsed.get(TRIAL) or None,
                                    threads_meaning=parsed.get(THREADS_MEANING) or None)
    return StressFile(str(path), table.read_version, table.run, results, warnings, incompleteness(table))


_BUILDERS: dict[str, Callable[[_Table], ResultsFile | CountsFile | StressFile]] = {
    TIMING: _results, COUNTS: _counts, STRESS: _stress}


def load_any(path: str | Path) -> ResultsFile | CountsFile | StressFile:
    """Load and validate a timing, counts or stress file, whichever its header says it is.

    Raises AnalyzeError, naming the file and line, as load_results, load_counts and
    load_stress do.
    """
    table = _open_table(Path(path))
    return _BUILDERS[table.layout.kind](table)


def load_counts(path: str | Path) -> CountsFile:
    """Load and validate one counts CSV (``bench count``; schema.COUNTS_COLUMNS_BY_VERSION).

    Raises AnalyzeError, naming the file and line, for anything that is not a well-formed
    counts file: what load_results refuses (unreadable, empty, header only, unknown
    schema_version, missing columns, bad values, rows from different runs), a timing file,
    impossible counts (no operations, no instructions, negative counts, a per-op column that
    does not match its count / operations), or a case counted twice. A torn last row is
    dropped and named in ``warnings``.
    """
    table = _open_table(Path(path))
    if table.layout.kind != COUNTS:
        raise AnalyzeError(STRESS_NOT_COUNTS if table.layout.kind == STRESS else TIMING_NOT_COUNTS, path, 1)
    return _counts(table)


def load_stress(path: str | Path) -> StressFile:
    """Load and validate one stress outcomes CSV (``bench stress``;
    schema.STRESS_COLUMNS_BY_VERSION), recognised by its first column,
    ``stress_schema_version``.

    Raises AnalyzeError, naming the file and line, for anything that is not a well-formed
    stress file: what load_results refuses (unreadable, empty, header only, an unknown
    stress_schema_version, missing columns, bad values, rows from different runs), another
    kind of file, an unknown grade, negative counts, iterations or seconds, is_control
    that disagrees with the check's ``control/`` prefix, a variant row with a
    seconds_to_first_forbidden, rows of one check and thread count that disagree on its
    iterations, seconds or time to first forbidden, or an outcome twice for the same check
    and thread count. A torn last row is dropped and named in ``warnings``.
    """
    table = _open_table(Path(path))
    if table.layout.kind != STRESS:
        raise AnalyzeError(NOT_STRESS, path, 1)
    return _stress(table)


def load_results(path: str | Path) -> ResultsFile:
    """Load and validate one timing results CSV (any of schema.KNOWN_VERSIONS).

    ``ns_per_op`` may be ``inf`` on a starved sample (ops = 0; see schema.COLUMN_TYPES).

    Raises AnalyzeError, naming the file and line, for anything that is not a
    well-formed results file: unreadable, binary, empty, header only, unknown
    schema_version, missing columns, bad values, rows from different runs, a
    duplicate sample (the same case, round and sample twice), or a counts file. A torn
    last row (no line end) is dropped and named in ``warnings``; a short row elsewhere
    is an error.
    """
    table = _open_table(Path(path))
    if table.layout.kind != TIMING:
        raise AnalyzeError(STRESS_NOT_TIMING if table.layout.kind == STRESS else COUNTS_NOT_TIMING, path, 1)
    return _results(table)
