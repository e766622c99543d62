"""report with a counts file, beside a timing file or alone: the counts table beside the
one-thread timing medians, and once/hit's instructions/op against tokens, drawn without a
noise band and as legible as every other chart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from analyze_lib.cli import main
from csvgen import case, once_hit_counts, write_counts, write_results

PAGE_WIDTH_PX = 1000
MIN_TEXT_PX = 12
TOKENS = (1, 10, 100, 1000)
# Variant -> instructions per op at one token (array-tracker's grow with the tokens).
INSTRUCTIONS = {"dispatch-once": 12.0, "lock": 40.0, "array-tracker": 15.0}
COUNTS_CHART = "counts-once-hit-by-tokens.png"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    directory = tmp_path_factory.mktemp("runs")
    timing = {case("once", "hit", v, t, f"tokens={n}"): cost * (n ** 0.5 if v == "array-tracker" else 1)
              for v, cost in (("dispatch-once", 1.0), ("lock", 18.0), ("array-tracker", 3.0))
              for t in (1, 4) for n in TOKENS}
    timing[case("harness", "empty", "loop")] = 0.4
    counts = once_hit_counts(variants=tuple((v, i, 0.0) for v, i in INSTRUCTIONS.items()), tokens=TOKENS)
    counts[case("once", "first", "lock")] = (55.5, 1.0)
    return (write_results(directory / "run.csv", timing, version=3),
            write_counts(directory / "counts.csv", counts))


def _report(paths, out: Path, *options) -> tuple[str, list]:
    """Run report; return report.md and the figures it saved, as (name, Figure, dpi)."""
    drawn = []
    original = Figure.savefig

    def recording(figure, fname, *args, **kwargs):
        original(figure, fname, *args, **kwargs)
        drawn.append((Path(fname).name, figure, kwargs.get("dpi") or figure.dpi))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Figure, "savefig", recording)
        assert main(["report", *map(str, paths), "--out", str(out), *options]) == 0
    return (out / "report.md").read_text(), drawn


@pytest.fixture(scope="module")
def both(files, tmp_path_factory):
    return _report(files, tmp_path_factory.mktemp("both") / "report")


def test_counts_table_sits_beside_the_one_thread_timing_medians(both):
    markdown, _ = both
    assert "\n## Counts per operation\n" in markdown
    assert "| Case | Instructions/op | Allocations/op | Timing median ns/op |" in markdown
    # Instructions and allocations of the counted run, the timing median of the same
    # one-thread case (about 18 ns for lock), and nothing where the run timed no such case.
    assert re.search(r"\| hit/lock threads:1 tokens=10 \| 40\.00 \| 0\.000 \| 1[78]\.\d \|", markdown)
    assert "| first/lock threads:1 | 55.50 | 1.000 |  |" in markdown
    assert "| empty/loop threads:1 | 3.00 | 0.000 | 0.4" in markdown
    # The counts section comes after the families, before the harness floor.
    headings = [line for line in markdown.splitlines() if line.startswith("## ")]
    assert headings.index("## Counts per operation") == headings.index("## once") + 1
    assert headings.index("## Harness overhead") == headings.index("## Counts per operation") + 1


def test_token_chart_and_its_table(both, tmp_path_factory):
    markdown, drawn = both
    assert f"![once/hit: instructions/op vs tokens at 1 thread]({COUNTS_CHART})" in markdown
    assert ("| Variant | tokens=1 | tokens=10 | tokens=100 | tokens=1000 |\n"
            "| --- | ---: | ---: | ---: | ---: |\n"
            "| array-tracker | 15.00 | 150.00 | 1,500.00 | 15,000.00 |\n"
            "| dispatch-once | 12.00 | 12.00 | 12.00 | 12.00 |\n"
            "| lock | 40.00 | 40.00 | 40.00 | 40.00 |") in markdown
    [(name, figure, _)] = [d for d in drawn if d[0] == COUNTS_CHART]
    [ax] = [a for a in figure.axes if a.lines]
    assert figure._suptitle.get_text() == "once/hit: instructions/op vs tokens at 1 thread"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("tokens", "instructions/op (one counted run)")
    lines = {line.get_label(): line for line in ax.lines}
    assert sorted(lines) == sorted(INSTRUCTIONS)
    for variant, instructions in INSTRUCTIONS.items():
        grows = TOKENS if variant == "array-tracker" else (1,) * len(TOKENS)
        assert list(lines[variant].get_xdata()) == list(TOKENS)
        assert list(lines[variant].get_ydata()) == [instructions * g for g in grows]
    # Counts are exact: no interquartile bars (not even zero-length ones), no band.
    assert [type(c).__name__ for c in ax.collections] == []


def test_every_chart_stays_legible_and_names_its_threads(both):
    _, drawn = both
    assert len(drawn) >= 3
    for name, figure, dpi in drawn:
        title = figure._suptitle.get_text()
        assert re.search(r"\bat \d+( and \d+)? threads?\b|vs threads \(\d+(, \d+)*\)", title), title
        shrink = min(1.0, PAGE_WIDTH_PX / (figure.get_figwidth() * dpi))
        for text in figure.findobj(Text):
            if text.get_visible() and text.get_text().strip():
                px = text.get_fontsize() * dpi / 72 * shrink
                assert px >= MIN_TEXT_PX, f"{name}: {text.get_text()!r} is {px:.1f} px at page width"


def test_html_embeds_the_counts_chart(files, tmp_path):
    out = tmp_path / "report"
    _report(files, out)
    html = (out / "report.html").read_text()
    assert html.count('<img alt="once/hit: instructions/op vs tokens at 1 thread" src="data:image/png;base64,') == 1
    assert 'id="counts-per-operation"' in html


def test_environment_has_a_column_per_file(both):
    markdown, _ = both
    assert "| Field | Timings | Counts |" in markdown
    assert "| Allocator | system | jemalloc |" in markdown


def test_files_in_either_order_give_the_same_report(files, both, tmp_path):
    markdown, _ = _report(reversed(files), tmp_path / "report")
    assert markdown == both[0]


def test_counts_alone(files, tmp_path, monkeypatch):
    _, counts = files
    monkeypatch.chdir(tmp_path)
    assert main(["report", str(counts)]) == 0
    out = counts.parent / "report-counts"
    markdown = (out / "report.md").read_text()
    assert markdown.startswith("# DispatchBench report: counts\n\n14 counted cases from ")
    headings = [line for line in markdown.splitlines() if line.startswith("## ")]
    assert headings == ["## Contents", "## Counts per operation", "## Environment"]
    assert "| Case | Instructions/op | Allocations/op |\n" in markdown  # no timing column
    assert (out / COUNTS_CHART).is_file()


def test_filter_applies_to_counts(files, tmp_path):
    markdown, drawn = _report(files, tmp_path / "report", "--filter", "^once/first/")
    assert "| first/lock threads:1 | 55.50 | 1.000 |  |" in markdown
    assert "hit/lock" not in markdown and not drawn


def test_counts_from_another_commit_are_flagged(files, tmp_path):
    timing, _ = files
    other = write_counts(tmp_path / "other.csv", {case(): (12.0, 0.0)}, run={"commit": "f" * 40})
    markdown, _ = _report((timing, other), tmp_path / "report")
    assert ("**Note:** the counts come from commit `fffffff` and the timings from `0123456`: they may not "
            "measure the same code.") in markdown


@pytest.mark.parametrize("which, message", [
    ("two-timing", "are both timing files: report takes at most one timing file, one counts file and one "
                   "stress file"),
    ("two-counts", "are both counts files: report takes at most one timing file, one counts file and one "
                   "stress file"),
    ("four", "report takes at most one timing file, one counts file and one stress file, not 4 files"),
])
def test_report_refuses_files_it_cannot_pair(files, tmp_path, capsys, which, message):
    timing, counts = files
    paths = {"two-timing": [timing, timing], "two-counts": [timing, counts, counts],
             "four": [timing, counts, counts, timing]}[which]
    assert main(["report", *map(str, paths), "--out", str(tmp_path / "r")]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and message in captured.err
    assert not (tmp_path / "r").exists()
