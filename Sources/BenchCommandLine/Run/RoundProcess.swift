import BenchPlatform
import BenchResults
import Foundation

/// One round of a `bench --rounds` run: a fresh `bench` process in a process group of its own, so that a signal
/// reaches it only when the parent passes it on (`signal(_:)`), exactly once, whether it came from the terminal
/// or from `kill`; and that dies with the parent (`ParentBinding`), so that no round outlives its run.
struct RoundProcess {
    private let process: SpawnedProcess

    /// Starts `executable` with `arguments` (after the program name), the parent's environment and descriptors,
    /// SIGINT and SIGTERM at their default disposition.
    init(executable: String, arguments: [String]) throws {
        // Through the trampoline: the round dies with this process (`ParentBinding`).
        let command = ParentBinding.command(executable, arguments)
        do {
            process = try SpawnedProcess(program: command.program, arguments: [command.program] + command.arguments)
        } catch {
            throw BenchError("cannot start a round of bench (\(executable)): \(error)",
                             exitCode: ExitStatus.internalError)
        }
    }

    /// Passes `signal` on to the round.
    func signal(_ signal: Int32) {
        process.signal(signal)
    }

    /// Waits for the round to end: its exit status, or 128 + the signal that ended it, as a shell reports it.
    func wait() -> Int32 {
        process.waitForExit()
    }
}
