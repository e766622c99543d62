"""bench-commits reads the package it compares: DispatchBench itself or a user's package, the user's benchmark
executable as the default --product, and the path dependencies a worktree cannot follow."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_commits.errors import ComparisonError
from bench_commits.package_manifest import PathDependency, check_paths_from, chosen_product, parse, paths_leaving


def _executable(name: str, *dependencies: dict) -> dict:
    return {"name": name, "type": "executable", "dependencies": list(dependencies)}


DISPATCHBENCH = {"product": ["DispatchBench", "DispatchBench", None, None]}


def _user_package(*targets: dict, products: tuple = (), paths: tuple = ()) -> dict:
    return {"name": "LockLab", "products": list(products), "targets": list(targets),
            "dependencies": [{"fileSystem": [{"identity": Path(path).name.lower(), "path": path,
                                              "nameForTargetDependencyResolutionOnly": Path(path).name}]}
                             for path in paths]}


def test_dispatchbench_itself_defaults_to_bench():
    dump = {"name": "DispatchBench", "dependencies": [], "targets": [
        _executable("bench", {"byName": ["DispatchBench", None]})], "products": [
        {"name": "bench", "type": {"executable": None}, "targets": ["bench"]},
        {"name": "DispatchBench", "type": {"library": ["automatic"]}, "targets": ["DispatchBench"]}]}
    manifest = parse(dump)
    assert manifest.is_dispatchbench and manifest.default_product() == "bench"


def test_a_users_one_benchmark_executable_is_the_default_whatever_else_it_has():
    manifest = parse(_user_package(
        _executable("LockLab", DISPATCHBENCH),
        _executable("Tool"),  # an executable that does not run DispatchBench
        {"name": "LockLabTests", "type": "test", "dependencies": [{"byName": ["LockLab", None]}]}))
    assert not manifest.is_dispatchbench
    assert manifest.benchmark_products == ("LockLab",) and manifest.default_product() == "LockLab"


def test_a_declared_product_and_a_dependency_through_a_library_target_count():
    manifest = parse(_user_package(
        _executable("Main", {"target": ["Locks", None]}),
        {"name": "Locks", "type": "regular", "dependencies": [DISPATCHBENCH]},
        products=({"name": "lock-bench", "type": {"executable": None}, "targets": ["Main"]},)))
    assert manifest.benchmark_products == ("lock-bench",)


@pytest.mark.parametrize("targets, words", [
    ((_executable("Tool"),), "has no executable that depends on DispatchBench"),
    ((_executable("A", DISPATCHBENCH), _executable("B", DISPATCHBENCH)), "give one, --product A or --product B"),
])
def test_no_default_without_exactly_one_benchmark_executable(targets, words):
    with pytest.raises(ComparisonError, match=words):
        parse(_user_package(*targets)).default_product()


def test_a_relative_path_leaving_the_repository_is_found_with_what_to_write():
    repo = Path("/home/me/LockLab")
    manifest = parse(_user_package(_executable("LockLab", DISPATCHBENCH),
                                   paths=("/home/me/DispatchBench", "/home/me/LockLab/Vendored/Helpers")))
    leaving = paths_leaving(manifest, repo)
    assert leaving == (PathDependency("DispatchBench", Path("/home/me/DispatchBench")),)
    # From a worktree, a relative path resolves beside the worktree; an absolute one stays where it was.
    from_worktree = parse(_user_package(_executable("LockLab", DISPATCHBENCH),
                                        paths=("/tmp/bench-commits-x/DispatchBench",)))
    with pytest.raises(ComparisonError) as raised:
        check_paths_from(from_worktree, leaving, "0123456789abcdef")
    message = str(raised.value)
    assert "\n" not in message and 'write .package(path: "/home/me/DispatchBench")' in message
    check_paths_from(manifest, leaving, "0123456789abcdef")  # the negative control: an absolute path passes


def test_a_product_of_the_dependency_is_refused_before_anything_builds():
    manifest = parse(_user_package(_executable("LockLab", DISPATCHBENCH), _executable("Tool")))
    assert chosen_product(manifest, None) == chosen_product(manifest, "LockLab") == "LockLab"
    for given in ("bench", "Tool"):
        with pytest.raises(ComparisonError) as raised:
            chosen_product(manifest, given)
        assert str(raised.value).endswith("type --product LockLab")
        assert f"--product {given} is not an executable of LockLab" in str(raised.value)
