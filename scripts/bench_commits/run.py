"""The side effects of a run: build bench in each worktree, run the rounds in ABBA order and the counts,
then compare with analyze_lib. Every child process gets an argument list; a child still running when
bench-commits is interrupted is sent SIGINT (then killed) before the interruption goes on.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from analyze_lib.exit_codes import EXIT_INCOMPLETE, EXIT_REGRESSION
from analyze_lib.judge.compare import DEFAULT_ALPHA, FASTER, SLOWER, build_comparison, coarsest_judged, \
    paired_round_log_ratios, resolution_by_group
from analyze_lib.judge.control import SuiteControl, suite_controls
from analyze_lib.judge.counts_compare import build_counts_comparison
from analyze_lib.present.counts_render import render_counts_markdown
from analyze_lib.files.errors import AnalyzeError
from analyze_lib.judge.gate import decide_counts_gate, decide_gate
from analyze_lib.files.loader import load_counts, load_results
from analyze_lib.present.control_text import control_headline, control_markdown
from analyze_lib.present.gate_text import headline as gate_headline
from analyze_lib.present.render import render_markdown

from . import abba_plan, code_identity, gate_check, link_kit, same_code
from .bench_options import BENCH_INTERRUPTED, BENCH_UNAVAILABLE, count_arguments
from .build_cache import BuildCache, toolchain_version
from .code_identity import CodeIdentity
from .function_map import FunctionMap, function_map
from .errors import ComparisonError
from .link_kit import LinkError, LinkKit
from .package_manifest import OWN_PRODUCT
from .sides import SIDE_A, SIDE_B
from .worker import log_tail

PROG = "bench-commits"
# For tests: a command run in each worktree instead of the swift build, and where it leaves the binary.
BUILD_COMMAND_ENV = "BENCH_COMMITS_BUILD"
BINARY_ENV = "BENCH_COMMITS_BINARY"
BUILD_LOG_TAIL_LINES = 15
CHILD_LOG_TAIL_LINES = 5
# How long a child interrupted with SIGINT may take to write its last rows before it is killed.
CHILD_STOP_SECONDS = 15


class Interrupted(Exception):
    """The run was stopped by a signal (SIGINT, SIGTERM); ``status`` is 128 + the signal."""

    def __init__(self, status: int):
        super().__init__(f"interrupted (exit {status})")
        self.status = status


def say(message: str) -> None:
    """A progress or note line on stderr (stdout is the Markdown)."""
    print(f"{PROG}: {message}", file=sys.stderr, flush=True)


def elapsed_text(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}:{seconds:02d}"


@dataclass(frozen=True)
class Builder:
    """How the executable product is built in a worktree's package directory and where the binary lands,
    relative to that directory (a test substitutes a fake)."""

    command: tuple[str, ...]
    binary: str

    @classmethod
    def for_product(cls, product: str = OWN_PRODUCT) -> "Builder":
        """``swift build -c release --product <product>``, leaving ``.build/release/<product>``."""
        return cls(("swift", "build", "-c", "release", "--product", product), f".build/release/{product}")

    @classmethod
    def from_environment(cls, product: str = OWN_PRODUCT) -> "Builder":
        """``for_product(product)``, unless BENCH_COMMITS_BUILD and BENCH_COMMITS_BINARY say otherwise (tests)."""
        built = cls.for_product(product)
        command = os.environ.get(BUILD_COMMAND_ENV)
        return cls(tuple(shlex.split(command)) if command else built.command,
                   os.environ.get(BINARY_ENV, built.binary))


def run_child(argv: list[str], cwd: Path, log: Path) -> int:
    """Run ``argv`` in ``cwd`` with stdout and stderr into ``log``; return its exit status. The child leads a
    process group of its own. When this process is interrupted meanwhile, the group is asked to stop (SIGINT:
    bench keeps its completed rows), what is left of it is killed once the child has ended or
    CHILD_STOP_SECONDS have passed (so a compiler that a build started does not outlive the worktree it writes
    in), and the interruption propagates."""
    with open(log, "ab") as out:
        child = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                 process_group=0)
        try:
            return child.wait()
        except BaseException:
            _signal_group(child.pid, signal.SIGINT)
            try:
                child.wait(timeout=CHILD_STOP_SECONDS)
            except BaseException:  # the time is up, or a second interruption: stop waiting
                pass
            _signal_group(child.pid, signal.SIGKILL)
            child.wait()
            raise


def _signal_group(group: int, signal_number: int) -> None:
    """Send ``signal_number`` to every process left in ``group``; none left is not an error."""
    try:
        os.killpg(group, signal_number)
    except ProcessLookupError:
        pass


@dataclass(frozen=True)
class Built:
    """A build of one commit: its binary, its link kit (None: its rounds run from copies), its code identity
    (None: ``why_no_identity`` says why), its function map (None with the identity, or when it could not be
    read) and whether it was kept from an earlier run."""

    binary: Path
    kit: LinkKit | None
    identity: CodeIdentity | None
    why_no_identity: str = ""
    functions: FunctionMap | None = None
    reused: bool = False


def build(side: str, commit: str, worktree: Path, builder: Builder, logs: Path, cache: BuildCache | None = None,
          rebuild: bool = False) -> Built:
    """Build the product in ``worktree`` (the package's directory in a worktree); return the binary, its link kit
    (None, with a note, when there is no kit that links: its rounds then run from copies) and its code identity
    (computed from the kit's objects right after the build, while they are in the worktree). The build of
    ``commit`` kept in ``cache`` is reused, identity and all, unless ``rebuild``; a new build is kept there.
    ComparisonError naming the side, the commit and the end of the build log when it fails."""
    binary = worktree / builder.binary
    log = logs / f"build-{commit[:12]}.log"
    if cache is not None and not rebuild and cache.restore(commit, binary):
        say(f"reused the build of {side} ({commit[:12]}) kept in {cache.directory} (--rebuild builds it afresh)")
        identity = cache.identity(commit)
        kit = cache.kit(commit)
        return Built(binary, _checked_link(side, kit, "the kept build has no link kit", binary, log),
                     identity, "" if identity else "the kept build has no code identity (--rebuild makes one)",
                     cache.function_map(commit) or _kept_function_map(side, commit, cache, kit), reused=True)
    started = time.monotonic()
    say(f"building {side} ({commit[:12]}) in {worktree} ...")
    try:
        # Verbose, so that its log holds the link line the link kit reads (link_kit.VERBOSE says why).
        status = run_child([*builder.command, link_kit.VERBOSE], worktree, log)
    except FileNotFoundError:
        raise ComparisonError(f"build of {side} ({commit[:12]}) failed: {builder.command[0]!r} not found") from None
    if status != 0 or not binary.exists():
        why = f"exit {status}" if status != 0 else f"no binary at {builder.binary}"
        raise ComparisonError(f"build of {side} ({commit[:12]}) failed ({why}): "
                              f"{log_tail(log, BUILD_LOG_TAIL_LINES)}")
    say(f"built {side} ({commit[:12]}) in {elapsed_text(time.monotonic() - started)}")
    try:
        kit, why = link_kit.capture(builder.command, worktree, binary, log), ""
    except LinkError as error:
        kit, why = None, str(error)
    identity, why_no_identity = _identity(side, commit, worktree, builder, kit, cache)
    functions = _function_map(side, commit, worktree, kit) if identity is not None and kit is not None else None
    if cache is not None:
        cache.store(commit, binary, kit, identity, functions, built_in=worktree)
    return Built(binary, _checked_link(side, kit, why, binary, log), identity, why_no_identity, functions)


def _identity(side: str, commit: str, worktree: Path, builder: Builder, kit: LinkKit | None,
              cache: BuildCache | None) -> tuple[CodeIdentity | None, str]:
    """The code identity of the build just made in ``worktree`` (code_identity), or None and why not."""
    if kit is None:
        return None, "a build without a link kit: the objects it links are not known"
    toolchain = cache.toolchain if cache is not None else toolchain_version()
    if toolchain is None:
        return None, "swift --version did not answer: the toolchain is not known"
    started = time.monotonic()
    try:
        identity = code_identity.identity(worktree, link_kit.objects(kit), {
            "toolchain": toolchain, "build command": shlex.join(builder.command),
            "link command": shlex.join(kit.command)})
    except (OSError, LinkError) as error:
        return None, f"its objects could not be read: {error}"
    say(f"code identity of {side} ({commit[:12]}): {len(identity.pieces)} sections, "
        f"{elapsed_text(time.monotonic() - started)}")
    return identity, ""


def _function_map(side: str, commit: str, worktree: Path, kit: LinkKit) -> FunctionMap | None:
    """The function map of the build just made in ``worktree`` (function_map), or None (with a note) when its
    objects cannot be read."""
    started = time.monotonic()
    try:
        functions = function_map(worktree, link_kit.objects(kit))
    except (OSError, LinkError) as error:
        say(f"note: no function map of {side} ({commit[:12]}): {error}")
        return None
    say(f"function map of {side} ({commit[:12]}): {len(functions.digests)} functions and data, "
        f"{elapsed_text(time.monotonic() - started)}")
    return functions


def _kept_function_map(side: str, commit: str, cache: BuildCache, kit: LinkKit | None) -> FunctionMap | None:
    """The function map of a kept build that has none of this format, made from its kept objects (the worktree
    it was built in, for what the map cleans out, is kept with it: BuildCache.built_in) and kept; None when the
    build did not keep them."""
    built_in = cache.built_in(commit)
    if kit is None or built_in is None:
        return None
    started = time.monotonic()
    try:
        functions = function_map(kit.directory, link_kit.objects(kit), built_in=built_in)
    except (OSError, LinkError) as error:
        say(f"note: no function map of {side} ({commit[:12]}): {error}")
        return None
    say(f"function map of the kept {side} ({commit[:12]}) made anew: {len(functions.digests)} functions and data, "
        f"{elapsed_text(time.monotonic() - started)}")
    cache.keep_map(commit, functions)
    return functions


def _checked_link(side: str, kit: LinkKit | None, why_none: str, binary: Path, log: Path) -> LinkKit | None:
    """``kit`` when it links (tried once, to a file beside ``binary`` that is removed after), so that no round
    meets a kit that cannot; else None, with a note saying why (``why_none`` when there is no kit)."""
    if kit is not None:
        trial = binary.with_name(f".{binary.name}-link-check")
        try:
            kit.link(trial, 1, log)
            return kit
        except LinkError as error:
            why_none = str(error)
        finally:
            trial.unlink(missing_ok=True)
    say(f"note: each round runs {side} from a copy of its build, not from a fresh link: {why_none}")
    return None


@dataclass
class Side:
    """One side of a comparison: its binary and the worktree it runs in (so bench's git reads the side's
    commit), the environment file all its rounds share, its output, and options only this side gets."""

    name: str  # SIDE_A or SIDE_B
    label: str  # e.g. "base 1a2b3c4"
    binary: Path
    worktree: Path
    environment: Path
    output: Path
    extra_options: tuple[str, ...] = field(default_factory=tuple)
    link: LinkKit | None = None  # links the binary again for each round (round_binaries); None: copies


def _bench_failed(side: Side, what: str, status: int, log: Path) -> ComparisonError:
    if status in BENCH_INTERRUPTED:
        raise Interrupted(status)
    return ComparisonError(f"bench {what} failed on {side.name} ({side.label}) with exit {status}: "
                           f"{log_tail(log, CHILD_LOG_TAIL_LINES)}")


def run_rounds(sides: dict[str, Side], bench_options: list[str], quick: bool, pairs: int, seed: int,
               logs: Path, started: float) -> None:
    """Run ``pairs`` fresh-process rounds of each side in ABBA order (abba_plan.abba_order)."""
    order = abba_plan.abba_order(pairs)
    for index, (round_number, name) in enumerate(order, start=1):
        side = sides[name]
        say(f"pair {round_number}/{pairs}, {side.name} ({side.label}), run {index}/{len(order)}, "
            f"elapsed {elapsed_text(time.monotonic() - started)}")
        argv = [str(side.binary), *abba_plan.round_arguments([*bench_options, *side.extra_options], quick, pairs,
                                                             round_number, seed, side.environment, side.output)]
        log = logs / f"round{round_number}-{side.name}.log"
        status = run_child(argv, side.worktree, log)
        if status != 0:
            raise _bench_failed(side, f"round {round_number}", status, log)


def run_counts(sides: dict[str, Side], bench_options: list[str], quick: bool, outputs: dict[str, Path],
               logs: Path) -> bool:
    """Run ``bench count`` once per side; False (with a note) when bench says valgrind or jemalloc is
    missing (exit 69), so the run goes on without counts."""
    for name in (SIDE_A, SIDE_B):
        side = sides[name]
        say(f"counting {side.name} ({side.label}) ...")
        log = logs / f"count-{side.name}.log"
        status = run_child([str(side.binary), *count_arguments(bench_options, quick, outputs[name])],
                           side.worktree, log)
        if status == BENCH_UNAVAILABLE:
            say(f"counts skipped: bench count cannot run here ({log_tail(log, 1)})")
            return False
        if status != 0:
            raise _bench_failed(side, "count", status, log)
    return True


def count_functions(binary: Path, worktree: Path, bench_options: list[str], output: Path, log: Path) -> str:
    """Run ``bench count --quick --functions output`` on the cases ``bench_options``' filter selects
    (case_selection's footprints). Returns why it could not ("" when it did): bench says it cannot count here
    (exit 69), or it failed (a bench from before --functions, for one)."""
    counts = output.with_suffix(".counts.csv")
    status = run_child([str(binary), *count_arguments(bench_options, True, counts), "--functions", str(output)],
                       worktree, log)
    counts.unlink(missing_ok=True)
    if status == BENCH_UNAVAILABLE:
        return "bench count cannot run here (valgrind or jemalloc missing)"
    if status != 0 or not output.is_file():
        return f"bench count --functions failed (exit {status}: {log_tail(log, 1)})"
    return ""


def _warn_all(warnings) -> None:
    for warning in warnings:
        say(f"warning: {warning}")


def timing_gate(base: Path, head: Path, alpha: float = DEFAULT_ALPHA, suites_judged: bool = True):
    """The timing comparison and the gate's decision of two files at significance level ``alpha``
    (AnalyzeError on bad files); ``suites_judged`` as decide_gate's."""
    base_file, head_file = load_results(base), load_results(head)
    _warn_all(base_file.warnings + head_file.warnings)
    comparison = build_comparison(base_file, head_file, alpha=alpha)
    return comparison, decide_gate(comparison, suites_judged=suites_judged)


# The timing section's verdict line when the code is identical and no case was called slower: the per-case gate's
# own word (INCONCLUSIVE when a few control rounds decide no case alone) is not the verdict, so it is not printed.
CONTROL_PART = ("Timings, case by case: none called slower. The code is identical, so a case no round decides is "
                "unchanged: same code; the control below judges the cases together")


def timing_markdown(base: Path, head: Path, alpha: float = DEFAULT_ALPHA,
                    control: bool = False) -> tuple[str, int, str, int, float]:
    """The gate's Markdown for two timing files, its exit code, its headline, how many cases it compared and the
    coarsest resolution of a paired case it judged (compare.coarsest_judged: the largest change that could hide in
    one; NaN when none). With ``control`` (two builds of identical code), the control's table follows the gate's,
    and the exit code and headline are the control's (same_code.control_exit); whole suites are the control's to
    judge, not the gate's geometric-mean rule."""
    comparison, decision = timing_gate(base, head, alpha, suites_judged=not control)
    coarsest = coarsest_judged(comparison.rows)
    part = "Timings"
    if control:
        part = "Timings, case by case" if decision.exit_code in (EXIT_REGRESSION, EXIT_INCOMPLETE) else CONTROL_PART
    markdown, exit_code, headline = render_markdown(comparison, gate=decision, part=part), decision.exit_code, \
        gate_headline(decision)
    if control:
        suites = suite_controls(paired_round_log_ratios(comparison.base, comparison.head))
        markdown = "\n".join([markdown.rstrip(), "", *control_markdown(suites)]) + "\n"
        cases = f"; cases: {headline.removeprefix('Gate: ')}" if exit_code in (EXIT_REGRESSION, EXIT_INCOMPLETE) \
            else ""
        exit_code, headline = same_code.control_exit(exit_code, suites), control_headline(suites) + cases
    return markdown, exit_code, headline, decision.compared, coarsest


def control_of(base: Path, head: Path) -> list[SuiteControl]:
    """The same-code control's verdict on each suite of two paired timing files (analyze_lib/judge/control.py)."""
    base_file, head_file = load_results(base), load_results(head)
    _warn_all(base_file.warnings + head_file.warnings)
    return suite_controls(paired_round_log_ratios(base_file, head_file))


def counts_markdown(base: Path, head: Path) -> tuple[str, int, str]:
    """The exact counts gate's Markdown for two counts files, its exit code and its headline."""
    base_file, head_file = load_counts(base), load_counts(head)
    _warn_all(base_file.warnings + head_file.warnings)
    comparison = build_counts_comparison(base_file, head_file)
    decision = decide_counts_gate(comparison)
    return render_counts_markdown(comparison, gate=decision, part="Counts"), decision.exit_code, \
        gate_headline(decision)


def observe(base: Path, head: Path, alpha: float = DEFAULT_ALPHA) -> gate_check.Observed:
    """What the gate saw in one gate-check comparison."""
    comparison, decision = timing_gate(base, head, alpha)
    flagged = tuple((row.key.label, row.outcome) for row in comparison.rows if row.outcome in (SLOWER, FASTER))
    spin = tuple(gate_check.SpinRow(row.key.label, row.outcome, row.noise_floor) for row in comparison.rows
                 if (row.key.suite, row.key.benchmark) == (gate_check.SPIN_SUITE, gate_check.SPIN_BENCHMARK))
    return gate_check.Observed(compared=len(comparison.rows), flagged=flagged, spin=spin,
                               unstable=len(comparison.unstable), gate_exit=decision.exit_code,
                               resolutions=tuple(resolution_by_group(comparison.rows)))


__all__ = ["AnalyzeError", "Builder", "Built", "Interrupted", "Side", "build", "control_of", "count_functions",
           "counts_markdown",
           "observe",
           "run_counts", "run_rounds", "say", "timing_markdown"]
