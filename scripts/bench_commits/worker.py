"""A client of ``bench worker`` (docs/worker-protocol.md): starts one, speaks its JSON lines, and
ends it. A worker that says ``{"error": ...}``, dies, answers what it cannot or does not answer in
time is a WorkerError naming the side and the end of the worker's log.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import subprocess
from pathlib import Path

# The protocols this client speaks: 2 added setup's team_cpus (Worker.can_pin_team), 3 encode and complete
# (Worker.can_write), 4 setup's check_plan (Worker.can_check_plan).
PROTOCOL_VERSIONS = (1, 2, 3, 4)
# How long a worker may take to answer one request: generous, so that only a hung case hits it.
REPLY_TIMEOUT_SECONDS = 600.0
LOG_TAIL_LINES = 5


class WorkerError(Exception):
    """A worker failed; the message is one line."""


class WorkerRefusal(WorkerError):
    """A worker answered a request with ``{"error": ...}``: it refused that request and goes on, still in
    step with its client (unlike a worker that died, hung or answered out of turn)."""


# The lines a verbose build (link_kit.VERBOSE) prints besides what it says: each command it runs, and the compiler's
# version before it. A failed build's tail leaves them out, so that it shows the errors.
_COMMAND_ECHO = re.compile(r"^(/\S+/(swiftc|swift-frontend|swift-autolink-extract|clang|clang\+\+|ld|ld\.\w+) |"
                           r"Swift version |Target: )")


def log_tail(path: Path, lines: int) -> str:
    """The last ``lines`` non-blank lines of a child's log, joined into one line (empty when unreadable); not the
    commands a verbose build echoes."""
    try:
        text = path.read_text(errors="replace").rstrip().splitlines()
    except OSError:
        return ""
    said = [line.strip() for line in text if line.strip() and not _COMMAND_ECHO.match(line)]
    return " | ".join(said[-lines:])


class Worker:
    """One running ``bench worker``: in its own session (so a Ctrl-C at the terminal reaches only
    bench-commits, which ends its workers itself), stderr into ``log``, in ``cwd``. ``columns`` is the
    results header its hello line gave."""

    def __init__(self, name: str, argv: list[str], cwd: Path, log: Path,
                 timeout: float = REPLY_TIMEOUT_SECONDS):
        self.name, self.log, self.timeout = name, log, timeout
        with open(log, "ab") as err:
            try:
                self.process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                stderr=err, start_new_session=True)
            except OSError as error:
                raise WorkerError(f"cannot start the worker of {name}: {error}") from None
        self._buffer = b""
        try:
            hello = self._reply("hello")
            if hello.get("protocol") not in PROTOCOL_VERSIONS or not isinstance(hello.get("columns"), list):
                raise WorkerError(f"the worker of {name} speaks another protocol: {hello}")
            self.columns: list[str] = hello["columns"]
            # Whether setup may give team_cpus (a build of protocol 2 or later).
            self.can_pin_team: bool = hello["protocol"] >= 2
            # Whether it writes results text through bench's ResultsWriter: encode and complete (protocol 3).
            self.can_write: bool = hello["protocol"] >= 3
            # Whether setup may ask it to check a given plan against its own threads (protocol 4).
            self.can_check_plan: bool = hello["protocol"] >= 4
        except BaseException:
            self.kill()
            raise

    @property
    def pid(self) -> int:
        return self.process.pid

    def request(self, request: dict) -> dict:
        """Send one request; return its reply (WorkerRefusal on an error reply, WorkerError when the
        worker dies or does not answer)."""
        stdin = self.process.stdin
        assert stdin is not None  # started with stdin=PIPE
        try:
            stdin.write((json.dumps(request) + "\n").encode())
            stdin.flush()
        except OSError:
            raise self._died(request["request"]) from None
        return self._reply(request["request"])

    def confine(self, cpus: set[int]) -> None:
        """Let every thread of the worker run only on ``cpus`` (sched_setaffinity per thread). Call it
        between requests, when the worker's threads are idle: threads it starts later inherit the
        mask of the thread that starts them."""
        try:
            threads = os.listdir(f"/proc/{self.pid}/task")
        except OSError as error:
            raise WorkerError(f"cannot list the threads of the worker of {self.name}: {error}") from None
        for thread in threads:
            try:
                os.sched_setaffinity(int(thread), cpus)
            except ProcessLookupError:
                pass  # the thread ended since the listing
            except OSError as error:
                raise WorkerError(f"cannot confine the worker of {self.name} to CPUs {sorted(cpus)}: {error}") from None

    def list_cases(self) -> list[dict]:
        return self.request({"request": "list"})["cases"]

    def encode(self, columns: list[str], records: list[dict], header: bool) -> bytes:
        """``records`` as one case of a results file, each in ``columns``' order, ``columns`` first when
        ``header``: the bytes bench's ResultsWriter appends for them (protocol 3)."""
        reply = self.request({"request": "encode", "columns": columns, "records": records, "header": header})
        return reply["csv"].encode()

    def complete(self, path: Path) -> bool:
        """Have bench's ResultsWriter.markRunComplete rewrite the results file at ``path`` with run_complete
        true (protocol 3); False when the file has no rows and stays as it is."""
        return self.request({"request": "complete", "path": str(path)})["marked"]

    def _reply(self, what: str) -> dict:
        line = self._read_line(what)
        try:
            reply = json.loads(line)
        except ValueError:
            raise WorkerError(f"the worker of {self.name} answered {what} with a line that is not JSON: "
                              f"{line[:200]!r}") from None
        if "error" in reply:
            raise WorkerRefusal(f"the worker of {self.name} refused {what}: {reply['error']}")
        if reply.get("ok") != what:
            raise WorkerError(f"the worker of {self.name} answered {what} with {line[:200]!r}")
        return reply

    def _read_line(self, what: str) -> str:
        stdout = self.process.stdout
        assert stdout is not None  # started with stdout=PIPE
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if not selector.select(self.timeout):
                    raise WorkerError(f"the worker of {self.name} did not answer {what} within "
                                      f"{self.timeout:.0f} s")
                chunk = os.read(stdout.fileno(), 1 << 16)
                if not chunk:
                    raise self._died(what)
                self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode(errors="replace")

    def _died(self, what: str) -> WorkerError:
        status = self.process.wait()
        return WorkerError(f"the worker of {self.name} ended (exit {status}) before answering {what}: "
                           f"{log_tail(self.log, LOG_TAIL_LINES)}")

    def quit(self) -> None:
        """Ask the worker to end and wait for it; kill it if it does not."""
        try:
            self.request({"request": "quit"})
            self.process.wait(timeout=self.timeout)
        except (WorkerError, subprocess.TimeoutExpired):
            pass
        finally:
            self.kill()

    def kill(self) -> None:
        """End the worker at once (SIGKILL) and reap it; never fails."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
