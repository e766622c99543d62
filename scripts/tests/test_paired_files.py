"""A paired run's results files are bench's writer's alone: every byte of a case is the text a worker's
``encode`` replied (bench's ResultsWriter.caseText), appended unchanged, and ``run_complete`` is rewritten by a
worker's ``complete`` (ResultsWriter.markRunComplete), never by Python. fake_bench.py's worker encodes and marks
as bench does, and logs every text it encodes."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from bench_commits.errors import ComparisonError
from bench_commits.paired import ResultsFile
from bench_commits.sides import SIDE_A, SIDE_B

from test_bench_commits import commit, git, invocations, run
from test_paired import FOUR_CASES, requests, rows, timing_files

PAIRED = ("--paired", "--rounds", "2", "--max-rounds", "2", "--visit-pairs", "2", "--no-count", "--seed", "5")


def encoded(repo: Path) -> list[tuple[str, bytes]]:
    """(side of the worker that encoded it, text) for every encode reply, in order."""
    return [(SIDE_A if entry["environment"].endswith("environment-a.json") else SIDE_B, entry["encoded"].encode())
            for entry in invocations(repo) if "encoded" in entry]


def records(text: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.decode(), newline="")))


def test_each_file_is_the_text_its_worker_encoded_and_its_worker_marked_it_complete(repo):
    assert run(repo, "HEAD", "HEAD", *PAIRED, *FOUR_CASES) in (0, 4)
    texts = encoded(repo)
    assert len(texts) == 2 * 2 * 4, "one text a side, case and round"
    by_side = {side: b"".join(text for who, text in texts if who == side) for side in (SIDE_A, SIDE_B)}
    files = {path: path.read_bytes() for path in timing_files(repo)}
    # The files hold the encoded texts, every row's run_complete rewritten to true and nothing else changed.
    column = records(by_side[SIDE_A])[0].index("run_complete")
    for side, text in by_side.items():
        sent = records(text)
        assert sent.count(sent[0]) == 1, "the header once, in the first round's text"
        for row in sent[1:]:
            assert row[column] == "false"
            row[column] = "true"
        assert [records(data) for data in files.values()].count(sent) == 1, f"side {side}'s file"
    completes = [entry for entry in requests(repo) if entry["request"] == "complete"]
    assert sorted(Path(entry["path"]) for entry in completes) == sorted(files)
    last_round = {entry["worker"] for entry in requests(repo) if entry["request"] == "sample" and entry["round"] == 2}
    assert {entry["worker"] for entry in completes} == last_round, "by the last round's workers, one a side"


def test_a_file_its_worker_refuses_to_mark_stays_as_encoded_byte_for_byte(repo, monkeypatch, capsys):
    monkeypatch.setenv("FAKE_WORKER_REFUSE_COMPLETE", "1")
    assert run(repo, "HEAD", "HEAD", *PAIRED, *FOUR_CASES) == 2
    assert "refused complete: cannot mark" in capsys.readouterr().err
    texts = encoded(repo)
    by_side = {b"".join(text for who, text in texts if who == side) for side in (SIDE_A, SIDE_B)}
    assert {path.read_bytes() for path in timing_files(repo)} == by_side, "nothing but the workers' bytes"
    assert {row["run_complete"] for path in timing_files(repo) for row in rows(path)} == {"false"}


def test_a_build_whose_worker_cannot_write_has_its_rows_written_by_the_other(repo):
    base = git(repo, "rev-parse", "HEAD")
    commit(repo, "head", {"NO_PLANS": "1\n"})  # a build of protocol 1: no encode, no complete
    assert run(repo, base, "HEAD", *PAIRED, *FOUR_CASES) in (0, 4)
    texts = encoded(repo)
    assert {side for side, _ in texts} == {SIDE_A}
    # Each case is encoded A's rows first, then B's.
    halves = {b"".join(text for _, text in texts[start::2]) for start in (0, 1)}
    assert {records(path.read_bytes())[0][0] for path in timing_files(repo)} == {"schema_version"}
    completes = [entry for entry in requests(repo) if entry["request"] == "complete"]
    assert {entry["side"] for entry in completes} == {SIDE_A} and len(completes) == 2
    column = records(next(iter(halves)))[0].index("run_complete")
    marked = set()
    for half in halves:
        sent = records(half)
        for row in sent[1:]:
            row[column] = "true"
        marked.add(str(sent))
    assert {str(records(path.read_bytes())) for path in timing_files(repo)} == marked


def test_builds_whose_workers_cannot_write_are_refused_before_any_sample(repo, capsys):
    commit(repo, "old", {"NO_PLANS": "1\n"})
    assert run(repo, "HEAD", "HEAD", *PAIRED, *FOUR_CASES) == 2
    assert "neither build's worker can write results" in capsys.readouterr().err
    assert not any(entry["request"] == "sample" for entry in requests(repo))


class _Encoder:
    """A worker that can write, whose encode replies a fixed text (not what Python's csv module would write)."""

    def __init__(self):
        self.asked = []

    def encode(self, columns, records, header):
        self.asked.append(header)
        return (b"h1;h2\n" if header else b"") + b"".join(f"<{r['h1']}|{r['h2']}>\n".encode() for r in records)


def test_a_results_file_appends_the_encoders_bytes_unchanged(tmp_path):
    file, encoder = ResultsFile(tmp_path / "a.csv"), _Encoder()
    for value in ("x", "y, \"z\""):
        text = file.encode(encoder, ["h1", "h2"], [{"h1": value, "h2": "1"}])
        file.append(text, 1)
    assert (tmp_path / "a.csv").read_bytes() == b'h1;h2\n<x|1>\n<y, "z"|1>\n'
    assert encoder.asked == [True, False], "the header with the first case only"
    assert file.rows_written == 2 and file.can_be_marked is False, "no run_complete column to mark"
    with pytest.raises(ComparisonError, match="different headers between rounds"):
        file.encode(encoder, ["h1", "h3"], [])
