"""Every kind of bad input exits 2 with one line on stderr that names the file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from analyze_lib.cli import main
from analyze_lib.files.loader import load_results
from analyze_lib.files.schema import COLUMNS_BY_VERSION
from csvgen import case, write_results

SCRIPTS_DIR = Path(__file__).resolve().parents[1]
PNG_BYTES = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"

# The timing versions this analyze reads, as its refusal lists them.
_KNOWN = ", ".join(map(str, sorted(COLUMNS_BY_VERSION)))


def _good(path: Path, **kwargs) -> Path:
    return write_results(path, {case(): 100.0}, **kwargs)


def _edit(path: Path, old: str, new: str, line: int | None = None) -> None:
    lines = path.read_text().splitlines(keepends=True)
    targets = range(len(lines)) if line is None else [line - 1]
    for index in targets:
        lines[index] = lines[index].replace(old, new)
    path.write_text("".join(lines))


def _make_missing(tmp):
    return tmp / "nope.csv", "nope.csv: no such file"


def _make_binary(tmp):
    path = tmp / "chart.png"
    path.write_bytes(PNG_BYTES)
    return path, "chart.png: not a CSV file"


def _make_zero_bytes(tmp):
    path = tmp / "empty.csv"
    path.write_bytes(b"")
    return path, "empty.csv: empty file"


def _make_header_only(tmp):
    path = tmp / "header.csv"
    path.write_text(",".join(COLUMNS_BY_VERSION[2]) + "\n")
    return path, "header.csv: no samples"


def _make_not_results(tmp):
    path = tmp / "other.csv"
    path.write_text("name,value\na,1\n")
    return path, "other.csv:1: not a DispatchBench results CSV"


def _make_missing_column(tmp):
    path = _good(tmp / "cols.csv")
    _edit(path, ",p99_ns", ",p99", line=1)
    return path, "cols.csv:1: missing column(s) for schema_version 2: p99_ns"


def _make_unknown_version(tmp):
    path = _good(tmp / "v99.csv")
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + "".join("99" + line[1:] for line in lines[1:]))
    return path, f"v99.csv:2: unknown schema_version 99 (this analyze reads {_KNOWN})"


def _make_not_a_number(tmp):
    path = _good(tmp / "nan.csv")
    lines = path.read_text().splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    cells = lines[6].rstrip("\n").split(",")
    cells[header.index("ns_per_op")] = "abc"
    lines[6] = ",".join(cells) + "\n"
    path.write_text("".join(lines))
    return path, "nan.csv:7: ns_per_op is not a number: 'abc'"


def _make_short_row(tmp):
    path = _good(tmp / "short.csv")
    lines = path.read_text().splitlines(keepends=True)
    lines[2] = lines[2].rsplit(",", 1)[0] + "\n"
    path.write_text("".join(lines))
    return path, "short.csv:3: expected 33 fields, found 32"


def _make_two_runs(tmp):
    path = _good(tmp / "mixed.csv")
    _edit(path, "bench-1", "bench-2", line=4)
    return path, "mixed.csv:4: host 'bench-2' differs from the first row's 'bench-1'"


BAD_FILES = {
    "missing": _make_missing,
    "binary": _make_binary,
    "zero-bytes": _make_zero_bytes,
    "header-only": _make_header_only,
    "not-results": _make_not_results,
    "missing-column": _make_missing_column,
    "unknown-version": _make_unknown_version,
    "not-a-number": _make_not_a_number,
    "short-row": _make_short_row,
    "two-runs": _make_two_runs,
}


def _one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


@pytest.mark.parametrize("command", ["compare", "gate"])
@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_bad_head_exits_2_naming_the_file(tmp_path, capsys, kind, command):
    good = _good(tmp_path / "good.csv")
    bad, expected = BAD_FILES[kind](tmp_path)
    assert main([command, str(good), str(bad)]) == 2
    line = _one_error_line(capsys)
    assert line.startswith(f"analyze: {tmp_path}/")
    assert expected in line


@pytest.mark.parametrize("kind", ["binary", "header-only", "unknown-version"])
def test_bad_input_to_report_and_history(tmp_path, capsys, kind):
    bad, expected = BAD_FILES[kind](tmp_path)
    assert main(["report", str(bad), "--out", str(tmp_path / "r")]) == 2
    assert expected in _one_error_line(capsys)
    assert main(["history", str(bad), "--out", str(tmp_path / "h")]) == 2
    assert expected in _one_error_line(capsys)
    assert not (tmp_path / "r").exists() and not (tmp_path / "h").exists()


def test_no_case_in_common(tmp_path, capsys):
    base = write_results(tmp_path / "b.csv", {case(variant="a"): 1.0})
    head = write_results(tmp_path / "h.csv", {case(variant="b"): 1.0})
    assert main(["gate", str(base), str(head)]) == 2
    assert _one_error_line(capsys) == f"analyze: {base}, {head}: no case in common"


def test_bad_filter_regex(tmp_path, capsys):
    good = _good(tmp_path / "good.csv")
    assert main(["compare", str(good), str(good), "--filter", "("]) == 2
    assert "--filter: invalid regular expression '('" in _one_error_line(capsys)


@pytest.mark.parametrize("argv", [[], ["gate"], ["gate", "a.csv"], ["compare", "a", "b", "--alpha", "2"],
                                  ["compare", "a", "b", "--format", "xml"], ["frobnicate"]])
def test_usage_errors_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2


def test_version_1_file_loads(tmp_path):
    path = write_results(tmp_path / "v1.csv", {case(): 100.0}, version=1)
    results = load_results(path)
    assert results.schema_version == 1
    [loaded] = results.cases.values()
    assert loaded.n == 15
    assert loaded.columns["p99_ns"].size == 15  # v2-only columns are NaN in v1 files


def test_params_parse_numbers(tmp_path):
    path = write_results(tmp_path / "p.csv", {case("isolation", "roles", "rw-lock", 4, "read_pct=90;role=read"): 1.0})
    [key] = load_results(path).cases
    assert key.params_dict == {"read_pct": 90, "role": "read"}
    assert key.label == "isolation/roles/rw-lock threads:4 read_pct=90;role=read"


def test_cli_subprocess_has_no_traceback(tmp_path):
    """The real entry point (python -m analyze_lib) prints one line and exits 2."""
    bad, expected = _make_not_a_number(tmp_path)
    result = subprocess.run([sys.executable, "-m", "analyze_lib", "gate", str(bad), str(bad)],
                            cwd=SCRIPTS_DIR, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"analyze: {bad}:7: ns_per_op is not a number: 'abc'"]
    assert result.stdout == ""
