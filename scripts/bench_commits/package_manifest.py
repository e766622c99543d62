"""What bench-commits needs to know of the package it compares, read from its manifest (``swift package
dump-package``): whether it is DispatchBench itself or a package of a user's, which of its executables run
DispatchBench (the default ``--product``), and which of its dependencies it names by a path."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import ComparisonError

# The library a user's benchmark executable depends on, and the product DispatchBench itself runs.
LIBRARY = "DispatchBench"
OWN_PRODUCT = "bench"
# For tests: a command that prints a manifest's JSON instead of `swift package dump-package`.
DUMP_COMMAND_ENV = "BENCH_COMMITS_DUMP"
DUMP_TIMEOUT_SECONDS = 300


@dataclass(frozen=True)
class PathDependency:
    """A dependency named by ``path:`` in the manifest; ``path`` is where SwiftPM resolved it (absolute)."""

    name: str
    path: Path


@dataclass(frozen=True)
class Manifest:
    """A package as bench-commits sees it.

    ``is_dispatchbench`` when the package declares the DispatchBench library (this repository); else
    ``benchmark_products`` are its executable products that depend on DispatchBench, directly or through a
    target of the package, in the manifest's order."""

    name: str
    is_dispatchbench: bool
    benchmark_products: tuple[str, ...]
    path_dependencies: tuple[PathDependency, ...]

    def default_product(self) -> str:
        """The product to build when ``--product`` is not given: ``bench`` in DispatchBench itself, else the
        one executable of the package that depends on DispatchBench. ComparisonError, with what to type, when
        there is none or more than one."""
        if self.is_dispatchbench:
            return OWN_PRODUCT
        if len(self.benchmark_products) == 1:
            return self.benchmark_products[0]
        if not self.benchmark_products:
            raise ComparisonError(f"package {self.name} has no executable that depends on {LIBRARY}: add one whose "
                                  "main.swift calls DispatchBench.main (docs/bring-your-own.md), or run from "
                                  "the package that has it")
        raise ComparisonError(f"package {self.name} has {len(self.benchmark_products)} executables that depend on "
                              f"{LIBRARY}: give one, --product "
                              + " or --product ".join(self.benchmark_products))


def chosen_product(manifest: Manifest, given: str | None) -> str:
    """The product to build: ``given``, or the manifest's default. In a user's package, ComparisonError, with
    what to type instead, when ``given`` is none of its executables that depend on DispatchBench: a product
    of the dependency (``bench``) or an executable that does not run DispatchBench would measure none of the
    package's variants."""
    if given is None:
        return manifest.default_product()
    if manifest.is_dispatchbench or given in manifest.benchmark_products:
        return given
    if len(manifest.benchmark_products) == 1:
        instead = f"type --product {manifest.benchmark_products[0]}"
    elif manifest.benchmark_products:
        instead = "type --product " + " or --product ".join(manifest.benchmark_products)
    else:
        instead = "add an executable whose main.swift calls DispatchBench.main (docs/bring-your-own.md)"
    raise ComparisonError(f"--product {given} is not an executable of {manifest.name} that depends on {LIBRARY}, "
                          f"so the gate would measure none of {manifest.name}'s variants: {instead}")


def parse(dump: dict) -> Manifest:
    """The Manifest of ``dump``, the JSON of ``swift package dump-package``."""
    targets = {target["name"]: target for target in dump.get("targets", [])}

    def uses_library(name: str, seen: frozenset = frozenset()) -> bool:
        """Whether target ``name`` depends on the DispatchBench product, or on a target of the package that does."""
        if name in seen or name not in targets:
            return False
        for dependency in targets[name].get("dependencies", []):
            (kind, fields), = dependency.items()
            if kind == "product" and fields[0] == LIBRARY:
                return True
            if kind in ("byName", "target") and (fields[0] == LIBRARY or uses_library(fields[0], seen | {name})):
                return True
        return False

    executables: list[tuple[str, list[str]]] = [
        (product["name"], product["targets"]) for product in dump.get("products", [])
        if "executable" in product.get("type", {})]
    declared = {target for _, names in executables for target in names}
    # SwiftPM gives each executable target that no declared product names an implicit product of its name.
    executables += [(name, [name]) for name, target in targets.items()
                    if target.get("type") == "executable" and name not in declared]
    products = tuple(name for name, names in executables if any(uses_library(target) for target in names))
    is_dispatchbench = any(product["name"] == LIBRARY and "library" in product.get("type", {})
                           for product in dump.get("products", []))
    paths = tuple(PathDependency(entry.get("nameForTargetDependencyResolutionOnly") or entry["identity"],
                                 Path(entry["path"]))
                  for dependency in dump.get("dependencies", []) for entry in dependency.get("fileSystem", []))
    return Manifest(dump.get("name", "?"), is_dispatchbench, products, paths)


def read(package: Path) -> Manifest:
    """The manifest of the package in ``package`` (ComparisonError when SwiftPM cannot read it)."""
    command = os.environ.get(DUMP_COMMAND_ENV)
    # A scratch directory of its own: the package's .build may be locked by a build under way, and is not ours.
    with tempfile.TemporaryDirectory(prefix="dump-package-") as scratch:
        argv = shlex.split(command) if command else ["swift", "package", "--scratch-path", scratch, "dump-package"]
        try:
            done = subprocess.run(argv, cwd=package, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=DUMP_TIMEOUT_SECONDS)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise ComparisonError(f"cannot read the manifest in {package}: {error}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        raise ComparisonError(f"cannot read the manifest in {package}: {last}")
    try:
        return parse(json.loads(done.stdout))
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise ComparisonError(f"cannot read the manifest in {package}: {error!r}") from None


def paths_leaving(manifest: Manifest, repo: Path) -> tuple[PathDependency, ...]:
    """The path dependencies of ``manifest`` that lie outside ``repo``: a worktree of a commit finds them only
    when the manifest names them by an absolute path."""
    repo = repo.resolve()
    return tuple(dependency for dependency in manifest.path_dependencies
                 if not dependency.path.resolve().is_relative_to(repo))


def check_paths_from(worktree_manifest: Manifest, leaving: tuple[PathDependency, ...], commit: str) -> None:
    """ComparisonError, saying what to write instead, when a dependency that leaves the repository resolves
    elsewhere from a worktree of ``commit`` than from the package's own directory: it is named by a path
    relative to the package, which the worktree, in a temporary directory, does not have beside it."""
    where = {dependency.name: dependency.path for dependency in worktree_manifest.path_dependencies}
    for dependency in leaving:
        moved = where.get(dependency.name)
        if moved is not None and moved != dependency.path:
            raise ComparisonError(
                f"Package.swift at {commit[:12]} names {dependency.name} by a relative path that leaves the "
                f"repository, which a worktree cannot follow: write .package(path: \"{dependency.path}\") "
                "or its URL instead (docs/gate-your-own-package.md)")
