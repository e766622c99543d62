import ArgumentParser
import BenchPlatform
import BenchResults
import Foundation
import VariantRegistration

/// The process entry point behind `DispatchBench.main(_:)`: runs the `bench` command and turns every error into
/// one line on stderr and a non-zero exit, never a trap or a usage dump.
package enum BenchMain {
    /// Swift seeds its hash function per process, so the collisions a `Set` or `Dictionary` meets, and with them
    /// the cost of a lookup, change from one run to the next (docs/measuring.md, "Deterministic hashing").
    /// `bench` runs with deterministic hashing so that two runs of one commit measure the same tables; setting
    /// `SWIFT_DETERMINISTIC_HASHING` (to anything, `0` included) beforehand leaves the choice to the caller.
    static let deterministicHashing = "SWIFT_DETERMINISTIC_HASHING"

    /// This binary's own path (`Platform.executablePath`), so that a process started from it, or restarted
    /// into it, is still named `bench`.
    static var executable: String {
        Platform.executablePath
    }

    /// Replaces the process with a fresh run of this binary, same arguments, current environment. Returns only
    /// when that failed, with the reason.
    @discardableResult
    static func restart() -> SystemError {
        Platform.restartProcess(as: executable)
    }

    package static func main() -> Never {
        let arguments = CommandLine.arguments
        if arguments.count >= 4, arguments[1] == ParentBinding.marker {
            execBoundToParent(parent: arguments[2], command: Array(arguments[3...]))
        }
        if PlatformFeature.parentBinding.isAvailable { ParentBinding.enable(trampoline: executable) }
        if Platform.environmentVariable(deterministicHashing) == nil {
            // The runtime reads the variable once at start-up, so the process restarts itself with it set.
            Platform.setEnvironmentVariable(deterministicHashing, to: "1")
            restart()
            // Only reached when the restart failed: run on, with random seeding.
        }
        do {
            var command = try Bench.parseAsRoot()
            try command.run()
        } catch {
            fail(error)
        }
        exit(ExitStatus.success)
    }

    /// `message` as one line of stderr, after the name of the executable that was run (`bench: error: …` here,
    /// `MyBench: error: …` in a package that brings its own patterns).
    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("\(ProgramName.current): error: \(message)\n".utf8))
    }

    /// Ends the process for `error`: its message on one line of stderr and its status (`--help` and friends
    /// arrive as errors that print to stdout and exit 0).
    package static func fail(_ error: Error) -> Never {
        let code = exitStatus(for: error)
        if code == ExitStatus.success {
            print(Bench.fullMessage(for: error))
            exit(0)
        }
        let message = Bench.message(for: error)
        if !message.isEmpty {
            printError(message)
        }
        exit(code)
    }

    /// The trampoline of `ParentBinding`: dies with `parent` (SIGKILL when it ends), or at once when it already
    /// has, then becomes `command`. Never returns.
    static func execBoundToParent(parent: String, command: [String]) -> Never {
        if let error = Platform.dieWithParent(signal: SIGKILL) {
            printError("cannot bind a child to its parent: \(error)")
            exit(ExitStatus.internalError)
        }
        // The parent may have died before the request: then the child was adopted, and must not run.
        guard let expected = Int32(parent), Platform.parentProcessID == expected else {
            exit(Interruption.exitStatus(SIGKILL))
        }
        let error = Platform.replaceProcess(with: command[0], arguments: command)
        printError("cannot start \(command[0]): \(error)")
        exit(ExitStatus.internalError)
    }

    /// The status for an error that ended the command: see `ExitStatus`.
    static func exitStatus(for error: Error) -> Int32 {
        switch error {
        case let error as BenchError:
            return error.exitCode
        case let error as ResultsWriterError:
            return error.stage == .create ? ExitStatus.cannotCreate : ExitStatus.writeFailed
        case is RunEnvironmentFileError, is RegistrationError:
            return ExitStatus.badInput
        case let code as ExitCode:
            return code.rawValue
        default:
            // ArgumentParser's own errors (usage, --help, --version) carry their status; anything else is a bug.
            let code = Bench.exitCode(for: error).rawValue
            return code == EXIT_FAILURE ? ExitStatus.internalError : code
        }
    }
}
