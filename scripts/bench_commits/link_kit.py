"""A build's objects and the command that links them: what it takes to link the binary again, with lld and a
shuffled section order, once for every round of a paired run (round_binaries).

The command is SwiftPM's own link line, read from the build's own verbose log (``VERBOSE``), or when that build
linked nothing, from a verbose relink: the toolchain's ``swiftc`` driver with the build's flags, library paths and
runpath, its object files in a response file.
Every path under the package's directory is made relative to it, so that the kit links the same wherever
its files are: in the build's worktree, or in the build cache (``copy_to``).
"""

from __future__ import annotations

import json
import os
import random
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

# Where a kit's command and object list are written, relative to its directory.
KIT_DIRECTORY = Path(".build") / "dispatchbench-link"
COMMAND_FILE = "command.json"
OBJECT_LIST = "objects.txt"
# The input sections lld reorders: code, data, read-only data and thread-local data. Not .init_array and
# the like, whose order is part of what a program means, nor Swift's metadata sections, which are read whole.
SHUFFLED_SECTIONS = (".text*", ".data*", ".bss*", ".rodata*", ".tdata*", ".tbss*")
LINK_TIMEOUT_SECONDS = 120
# The verbose relink that shows the link line plans the whole build again first: on a loaded machine that alone
# took over 120 s (a quick A/A here ran from copies for it), so it gets longer.
RELINK_TIMEOUT_SECONDS = 600
# What a build adds to its command so that its log holds the link line. Given only to a relink, it changes the
# compiler's command line, and SwiftPM then compiles every module again (38 s of a 48 s build, here): so the build
# itself is verbose, and the relink is left for a build that linked nothing. The code is the same either way: the
# flag makes the driver print its commands.
VERBOSE = "-v"


class LinkError(Exception):
    """A link that could not be captured or run; the message says why in one line."""


@dataclass(frozen=True)
class LinkKit:
    """A build's link: ``command`` (without its output) run in ``directory`` links the binary; every file it
    names under ``directory`` is relative to it (``files``)."""

    directory: Path
    command: tuple[str, ...]
    files: tuple[str, ...]

    def link(self, output: Path, shuffle_seed: int, log: Path) -> None:
        """Link the binary to ``output`` with lld, its sections shuffled by ``shuffle_seed`` (1 or more: lld
        reads 0 as "a random seed" and -1 as "reverse"). LinkError when the link fails."""
        if shuffle_seed < 1:
            raise ValueError("a shuffle seed is at least 1")
        shuffles = [arg for glob in SHUFFLED_SECTIONS
                    for arg in ("-Xlinker", f"--shuffle-sections={glob}={shuffle_seed}")]
        argv = [*self.command, "-o", str(output), "-use-ld=lld", *shuffles]
        with open(log, "ab") as out:
            try:
                done = subprocess.run(argv, cwd=self.directory, stdin=subprocess.DEVNULL, stdout=out,
                                      stderr=subprocess.STDOUT, timeout=LINK_TIMEOUT_SECONDS)
            except (OSError, subprocess.TimeoutExpired) as error:
                raise LinkError(f"cannot link {output.name}: {error}") from None
        if done.returncode != 0 or not output.is_file():
            raise LinkError(f"linking {output.name} failed (exit {done.returncode}; see {log})")

    def copy_to(self, directory: Path) -> "LinkKit":
        """The same kit with its files copied into ``directory`` (written whole or not at all)."""
        partial = directory.with_name(f".{directory.name}.{os.getpid()}")
        shutil.rmtree(partial, ignore_errors=True)
        for name in (*self.files, str(KIT_DIRECTORY / COMMAND_FILE)):
            target = partial / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(self.directory / name, target)
        shutil.rmtree(directory, ignore_errors=True)
        os.replace(partial, directory)
        return LinkKit(directory, self.command, self.files)


def objects(kit: LinkKit) -> list[str]:
    """The object files ``kit`` links, in the order of its link line, as its object list names them (relative to
    its directory when under it): its object list, or the files it names when its line had none. LinkError when
    the list cannot be read."""
    listed = str(KIT_DIRECTORY / OBJECT_LIST)
    if listed not in kit.files:
        return list(kit.files)
    try:
        return read_response_file(kit.directory / listed)
    except OSError as error:
        raise LinkError(f"cannot read the object list: {error}") from None


def shuffle_seed(seed: int, round_number: int, side: str) -> int:
    """The section order of ``side``'s link in round ``round_number`` of a comparison seeded ``seed``: the
    same for a rerun with that seed, different for every side and round."""
    return random.Random(f"{seed}/{round_number}/{side}").randrange(1, 2**31)


def load(directory: Path) -> LinkKit | None:
    """The kit kept in ``directory`` (see ``capture``), or None when there is none."""
    try:
        saved = json.loads((directory / KIT_DIRECTORY / COMMAND_FILE).read_text())
        return LinkKit(directory, tuple(saved["command"]), tuple(saved["files"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def capture(build_command: tuple[str, ...], package: Path, binary: Path, log: Path) -> LinkKit:
    """The link kit of ``binary``, just built in ``package`` by ``build_command`` and ``VERBOSE`` with its output
    in ``log``: the link line that log holds, or when it holds none (the build found the binary up to date), the
    line of a verbose relink, the binary left as it was. Kept as a kit in ``package``. LinkError when there is no
    link line to read (a build that is not SwiftPM's), or it names a file it cannot find."""
    try:
        line = _link_line(log.read_text(errors="replace").splitlines(), binary)
    except OSError:
        line = None
    if line is None:
        line = _relinked_line(build_command, package, binary, log)
    return _kit_from(line, package.resolve())


def _relinked_line(build_command: tuple[str, ...], package: Path, binary: Path, log: Path) -> list[str]:
    """The link line of a verbose relink of ``binary`` (its output appended to ``log``); the binary is left as it
    was. LinkError when there is none."""
    kept = binary.with_name(f".{binary.name}.before-relink")
    os.replace(binary, kept)
    try:
        done = subprocess.run([*build_command, VERBOSE], cwd=package, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=RELINK_TIMEOUT_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise LinkError(f"cannot relink to read the link line: {error}") from None
    finally:
        os.replace(kept, binary)
    with open(log, "a") as out:
        out.write(done.stdout + done.stderr)
    line = _link_line(done.stdout.splitlines() + done.stderr.splitlines(), binary)
    if done.returncode != 0 or line is None:
        raise LinkError(f"no link line for {binary.name} in the verbose build (exit {done.returncode})")
    return line


def _link_line(lines: list[str], binary: Path) -> list[str] | None:
    """The argv of the line that links ``binary``: it emits an executable to exactly that path."""
    for line in lines:
        if "-emit-executable" not in line:
            continue
        try:
            argv = shlex.split(line)
        except ValueError:
            continue
        output = argv.index("-o") + 1 if "-o" in argv else len(argv)
        if output < len(argv) and Path(argv[output]).resolve() == binary.resolve():
            return argv
    return None


def read_response_file(path: Path) -> list[str]:
    """The arguments of a response file as SwiftPM writes one (its ``LinkFileList``) and the driver reads it:
    one or more a line, each bare, single-quoted or double-quoted, with backslash escapes, as a POSIX shell
    splits words. LinkError when a line cannot be split (an unclosed quote)."""
    arguments: list[str] = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        try:
            arguments += shlex.split(line)
        except ValueError as error:
            raise LinkError(f"cannot read line {number} of {path.name}: {error}") from None
    return arguments


def _kit_from(argv: list[str], package: Path) -> LinkKit:
    """The kit of link line ``argv`` (its output left out), its files under ``package`` made relative to it."""
    output = argv.index("-o")
    del argv[output:output + 2]
    argv = [arg for arg in argv if arg != "-v"]  # the verbose build passes it on; the rounds' links need not talk
    files: list[str] = []

    def relative(path: str) -> str | None:
        """``path`` relative to the package when it is an absolute path under it, else None."""
        if not path.startswith("/"):
            return None
        resolved = Path(path).resolve()
        return str(resolved.relative_to(package)) if resolved.is_relative_to(package) else None

    command = []
    for arg in argv:
        if arg.startswith("@"):
            objects = read_response_file(Path(arg[1:]))
            listed = [relative(o) or o for o in objects]
            for original, name in zip(objects, listed):
                if not Path(original).is_file():
                    raise LinkError(f"the link line names {original}, which is not there")
                if name != original:
                    files.append(name)
            object_list = KIT_DIRECTORY / OBJECT_LIST
            (package / object_list).parent.mkdir(parents=True, exist_ok=True)
            (package / object_list).write_text("".join(f"{shlex.quote(name)}\n" for name in listed))
            files.append(str(object_list))
            command.append(f"@{object_list}")
        elif (inside := relative(arg)) is not None and inside != ".":
            # A file under the package (an object) is part of the kit; a directory (-L) is made where it is used.
            if Path(arg).is_file():
                files.append(inside)
            command.append(inside)
        else:
            command.append(arg)
    kit_file = package / KIT_DIRECTORY / COMMAND_FILE
    kit_file.parent.mkdir(parents=True, exist_ok=True)
    kit_file.write_text(json.dumps({"command": command, "files": files}))
    return LinkKit(package, tuple(command), tuple(files))
