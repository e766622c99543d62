import BenchResults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One round of a `bench --rounds` run: a fresh `bench` process in a process group of its own, so that a signal
/// reaches it only when the parent passes it on (`signal(_:)`), exactly once, whether it came from the terminal
/// or from `kill`; and that dies with the parent (`ParentBinding`), so that no round outlives its run.
struct RoundProcess {
    let pid: pid_t

    /// Starts `executable` with `arguments` (after the program name), the parent's environment and descriptors,
    /// SIGINT and SIGTERM at their default disposition.
    init(executable: String, arguments: [String]) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))

        // Through the trampoline: the round dies with this process (`ParentBinding`).
        let command = ParentBinding.command(executable, arguments)
        let argv = ([command.program] + command.arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, command.program, nil, &attributes, argv, environ)
        guard status == 0 else {
            throw BenchError("cannot start a round of bench (\(executable)): \(String(cString: strerror(status)))",
                             exitCode: ExitStatus.internalError)
        }
        self.pid = pid
    }

    /// Passes `signal` on to the round.
    func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the round to end: its exit status, or 128 + the signal that ended it, as a shell reports it.
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
