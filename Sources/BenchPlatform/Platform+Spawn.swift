#if os(Linux)
import Glibc
#else
import Darwin
#endif

/// A child process started in a process group of its own (`posix_spawn`), so that a signal from the terminal
/// reaches it only when the parent passes it on (`signal(_:)`); SIGINT and SIGTERM start at their default
/// disposition, whatever the parent does with them. It has the parent's environment and descriptors.
package struct SpawnedProcess: Sendable {
    /// The child's process id.
    package let pid: Int32

    /// Starts `program` with `arguments` (the program's name first); throws the reason when it cannot start.
    package init(program: String, arguments: [String]) throws(SystemError) {
        #if os(Linux)
        var attributes = posix_spawnattr_t()
        #else
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        #if os(Linux)
        let status = posix_spawn(&pid, program, nil, &attributes, argv, environ)
        #else
        let status = posix_spawn(&pid, program, nil, &attributes, argv, _NSGetEnviron().pointee)
        #endif
        guard status == 0 else { throw SystemError(code: status) }
        self.pid = pid
    }

    /// Sends `signal` to the child.
    package func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the child to end: its exit status, or 128 + the signal that ended it, as a shell reports it.
    package func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
