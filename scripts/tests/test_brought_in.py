"""A user's gate never passes what it did not measure: a comparison of a user's package that would measure none
of the package's own variants stops before timing anything, with what to type instead; link lines are read as
SwiftPM writes them, and a comparison that ran from copies says so in its verdict."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from analyze_lib.judge.evidence import CPU_BOUND_HARNESS
from bench_commits.brought_in import ListedCase, check_measures_package, parse_list
from bench_commits.errors import ComparisonError
from bench_commits.link_kit import LinkError, read_response_file
from test_bench_commits import CI_GATE, commit, invocations, run

LISTED = """\
harness/empty/loop threads:1
once/hit/array-token-once threads:1 tokens:100 from:LockLab
isolation/mixed/ttas-lock threads:8 read_pct:0 from:LockLab
3 cases
"""


def test_the_list_is_read_with_each_brought_in_cases_module():
    assert parse_list(LISTED) == [ListedCase("harness/empty/loop", None),
                                  ListedCase("once/hit/array-token-once", "LockLab"),
                                  ListedCase("isolation/mixed/ttas-lock", "LockLab")]


def test_a_control_is_read_as_one_and_only_a_control_is():
    listed = ("harness/empty/loop threads:2 (control)\n"
              "harness/spin/loop threads:1\n"  # the filter selected it: no mark, no control
              "once/hit/array-token-once threads:1 tokens:100 from:LockLab\n"
              "2 cases + 1 control (--no-controls leaves the controls out)\n")
    assert parse_list(listed) == [ListedCase("harness/empty/loop", None, control=True),
                                  ListedCase("harness/spin/loop", None, control=False),
                                  ListedCase("once/hit/array-token-once", "LockLab", control=False)]


BENCH = Path(__file__).resolve().parents[2] / ".build" / "release" / "bench"


def test_bench_lists_as_controls_the_cpu_bound_harness_cases_the_analysis_reads():
    """bench's controls (BenchmarkRegistry.cpuBoundHarnessPaths) and their mark, as this module reads them, are the
    analysis's CPU_BOUND_HARNESS at every --threads count; --no-controls lists none."""
    if not BENCH.exists():
        pytest.skip(f"{BENCH} is not built (scripts/test builds it before pytest): swift build -c release")

    def listed(*options: str) -> list[ListedCase]:
        return parse_list(subprocess.run([str(BENCH), "--list", "--filter", "^once/hit/atomic-flag$", "--threads",
                                          "1,2", *options], capture_output=True, text=True, check=True).stdout)

    cases = listed()
    assert sorted(case.path for case in cases if case.control) == sorted(
        "/".join(name) for name in CPU_BOUND_HARNESS for _threads in (1, 2))
    assert [case.path for case in cases if not case.control] == ["once/hit/atomic-flag"] * 2
    assert listed("--no-controls") == [ListedCase("once/hit/atomic-flag", None)] * 2


def test_a_selection_with_one_of_the_packages_cases_passes_the_check():
    every = parse_list(LISTED)
    # The unfiltered list is asked only to word a refusal: a selection that passes never asks it.
    check_measures_package("LockLab", "LockLab", lambda: pytest.fail("asked for every case"), every[1:2],
                           ["--filter", "once"], "LockLab")


def test_a_product_that_brings_nothing_is_refused_with_the_product_to_type():
    built_ins = [ListedCase("isolation/mixed/mutex", None)]
    with pytest.raises(ComparisonError) as raised:
        check_measures_package("LockLab", "bench", lambda: built_ins, built_ins, ["--filter", "mutex"], "LockLab")
    assert "--product bench brings none of LockLab's variants" in str(raised.value)
    assert str(raised.value).endswith("type --product LockLab")


def test_a_filter_that_selects_none_of_the_packages_variants_is_refused_with_a_filter_that_does():
    every = parse_list(LISTED)
    with pytest.raises(ComparisonError) as raised:
        check_measures_package("LockLab", "LockLab", lambda: every, every[:1], ["--filter", "^harness/"], "LockLab")
    message = str(raised.value)
    assert "\n" not in message and "--filter '^harness/' selects none of LockLab's variants" in message
    assert message.endswith("-- --filter '/(array-token-once|ttas-lock)$'")


# End to end through bench-commits, with the fake build and bench (test_bench_commits).

USER_MANIFEST = {"name": "LockLab", "products": [], "dependencies": [], "targets": [
    {"name": "LockLab", "type": "executable",
     "dependencies": [{"product": ["DispatchBench", "DispatchBench", None, None]}]}]}


@pytest.fixture
def user_repo(repo):
    """The fake repository as a user's package whose build brings rwlock (isolation/roles/rwlock)."""
    commit(repo, "a user's package", {"manifest.json": json.dumps(USER_MANIFEST), "BROUGHT": "rwlock LockLab\n"})
    return repo


def _timed(repo: Path) -> list[dict]:
    return [call for call in invocations(repo) if "argv" in call and "--list" not in call["argv"]]


@pytest.mark.parametrize("paired", [[], ["--abba", "--pairs", "2"]])
def test_a_filter_with_none_of_the_packages_cases_stops_before_timing_anything(user_repo, capsys, paired):
    assert run(user_repo, "HEAD", "HEAD", "--no-count", *paired, "--", "--filter", "^harness/") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "selects none of LockLab's variants (rwlock)" in err[-1] and err[-1].endswith("--filter '/(rwlock)$'")
    assert _timed(user_repo) == [], "nothing was timed"


def test_the_dependencys_product_is_refused_before_anything_builds(user_repo, capsys):
    assert run(user_repo, "HEAD", "HEAD", "--no-count", "--product", "bench") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "--product bench is not an executable of LockLab" in err[-1] and err[-1].endswith("type --product LockLab")
    assert invocations(user_repo) == [] and not (user_repo.parent / "builds").exists(), "nothing built or run"


def test_a_product_that_brings_none_of_the_packages_variants_stops_before_timing_anything(user_repo, capsys):
    commit(user_repo, "the build brings nothing", {"BROUGHT": None})
    assert run(user_repo, "HEAD", "HEAD", "--no-count") == 2
    assert "--product LockLab brings none of LockLab's variants" in capsys.readouterr().err.strip().splitlines()[-1]
    assert _timed(user_repo) == []


@pytest.mark.parametrize("path, refused", [("../DispatchBench", True), ("Vendored/Helpers", False)])
def test_a_relative_path_that_leaves_the_repository_is_refused_before_anything_builds(user_repo, capsys, path,
                                                                                      refused):
    manifest = {**USER_MANIFEST, "dependencies": [{"fileSystem": [
        {"identity": "dispatchbench", "path": path, "nameForTargetDependencyResolutionOnly": "DispatchBench"}]}]}
    commit(user_repo, "a path dependency", {"manifest.json": json.dumps(manifest)})
    code = run(user_repo, "HEAD", "HEAD", "--no-count", "--", "--filter", "rwlock")
    last = capsys.readouterr().err.strip().splitlines()[-1]
    if refused:
        outside = (user_repo.parent / "DispatchBench").resolve()
        assert code == 2 and "by a relative path that leaves the repository" in last
        assert f'write .package(path: "{outside}") or its URL instead' in last
        assert invocations(user_repo) == [], "refused before anything built or ran"
    else:  # the control: a path inside the repository is in every worktree too
        assert code in (0, 4) and _timed(user_repo)


def test_ci_gate_refuses_a_filter_with_none_of_the_packages_variants(user_repo):
    # The fake build leaves its binary where bench's would be, whatever the product.
    env = {**os.environ, "BENCH_COMMITS_BINARY": ".build/release/bench"}
    done = subprocess.run([str(CI_GATE), "HEAD", "HEAD", "--no-count", "--", "--filter", "^harness/"],
                          cwd=user_repo, capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "selects none of LockLab's variants" in done.stderr


def test_a_selection_with_the_packages_case_is_compared(user_repo):
    assert run(user_repo, "HEAD", "HEAD", "--no-count", "--", "--filter", "rwlock|harness") in (0, 4)
    assert _timed(user_repo), "the comparison ran"


def test_dispatchbench_itself_is_not_asked_for_brought_in_variants(repo):
    assert run(repo, "HEAD", "HEAD", "--no-count", "--", "--filter", "^harness/") in (0, 4)
    assert not any("--list" in call.get("argv", []) for call in invocations(repo))


# Link lines as SwiftPM writes them.

def test_a_response_file_is_read_as_a_shell_splits_words(tmp_path):
    listed = tmp_path / "Objects.LinkFileList"
    listed.write_text("/b/plain.o\n'/b/Unmanaged extensions.swift.o'\n\"/b/double quoted.o\"\n"
                      "/b/back\\ slashed.o\n'/b/it'\\''s.o'\n")
    assert read_response_file(listed) == ["/b/plain.o", "/b/Unmanaged extensions.swift.o", "/b/double quoted.o",
                                          "/b/back slashed.o", "/b/it's.o"]
    listed.write_text("'/b/unclosed.o\n")
    with pytest.raises(LinkError, match="line 1"):
        read_response_file(listed)


def test_a_build_with_a_spaced_file_name_runs_every_round_from_a_fresh_link(repo, capsys):
    # fake_build lists `Unmanaged extensions.swift.o` single-quoted, as SwiftPM does.
    assert run(repo, "HEAD", "HEAD", "--no-count", "--rounds", "2", "--max-rounds", "2") in (0, 4)
    out, err = capsys.readouterr()
    workers = [call for call in invocations(repo) if "worker" in call.get("argv", [])]
    assert workers and all(call["link"] for call in workers)
    assert "from a copy" not in err and "layout not shuffled" not in out


def test_a_comparison_from_copies_says_so_in_its_headline_and_verdict(repo, monkeypatch, capsys):
    monkeypatch.setenv("FAKE_BUILD_NO_LINK_LINE", "1")
    assert run(repo, "HEAD", "HEAD", "--no-count", "--rounds", "2", "--max-rounds", "2") in (0, 4)
    out = capsys.readouterr().out
    assert "**Layout not shuffled:** every round ran A and B from a copy of its build" in out
    verdict = [line for line in out.splitlines() if line.startswith("**Verdict:")]
    assert len(verdict) == 2 and verdict[0] == verdict[1] and "layout not shuffled" in verdict[0]
