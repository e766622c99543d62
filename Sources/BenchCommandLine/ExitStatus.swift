import Foundation

/// `bench`'s exit statuses, distinct so that CI can act on each: the values follow sysexits.h where one fits,
/// and 128 + the signal for a run a signal stopped, as shells report it. `--help` and docs/exit-codes.md list them
/// (BadInputTests checks that page's table).
enum ExitStatus {
    /// The run completed; for `self-check`, every check passed.
    static let success: Int32 = 0
    /// A check failed. `self-check`: at least one check measured the harness outside its tolerance.
    /// `bench stress`: a variant showed a forbidden outcome, or a deterministic negative control was never caught.
    static let checkFailed: Int32 = 1
    /// Something made no progress for its stated time, was abandoned, and the rest ran. `bench`: a case's threads
    /// completed no operation, and bench made no progress on it, for `--hang-timeout` seconds (a lost wake-up, a
    /// deadlock): the run went on, the message names the case, and the file says `hung=true` on its row.
    /// `bench stress`: a check made no progress for `--watchdog` seconds (a suspected deadlock); the message names
    /// it, and the file holds the outcomes observed until then.
    static let suspectedDeadlock: Int32 = 3
    /// Bad input: an invalid option or value, a filter that selects no case (EX_USAGE, as ArgumentParser).
    static let badInput: Int32 = 64
    /// `bench count` only: a tool it needs (valgrind, jemalloc, objcopy) is not installed; the message says how to
    /// install it (EX_UNAVAILABLE).
    static let toolMissing: Int32 = 69
    /// A bug in `bench` (EX_SOFTWARE).
    static let internalError: Int32 = 70
    /// The results file could not be created: the path exists or is a directory, or cannot be written
    /// (EX_CANTCREAT). Nothing was measured.
    static let cannotCreate: Int32 = 73
    /// Writing a case's rows failed midway (a full disk, a file size limit): the file ends at the last whole row
    /// of the completed cases, which the summary shows (EX_IOERR).
    static let writeFailed: Int32 = 74
    /// Stopped by SIGINT (Ctrl-C): the file holds the completed cases.
    static let interrupted: Int32 = 128 + 2
    /// Stopped by SIGTERM (CI cancelling a job): the file holds the completed cases.
    static let terminated: Int32 = 128 + 15

    /// The statuses and their meanings, in order: one source for `--help` (and a check that docs/exit-codes.md agrees).
    static let all: [(status: Int32, meaning: String)] = [
        (success, "success (self-check: every check passed)"),
        (checkFailed, "self-check: harness out of tolerance; stress: forbidden outcome"),
        (suspectedDeadlock, "no progress: a case hung (--hang-timeout) or a stress check (--watchdog)"),
        (badInput, "bad input: an invalid option or value, or no case selected"),
        (toolMissing, "bench count: valgrind, jemalloc or objcopy is not installed"),
        (internalError, "internal error"),
        (cannotCreate, "the results file cannot be created (exists, directory, no permission)"),
        (writeFailed, "a write failed midway (full disk): the file keeps the completed cases"),
        (interrupted, "stopped by SIGINT (Ctrl-C): the file keeps the completed cases"),
        (terminated, "stopped by SIGTERM: the file keeps the completed cases"),
    ]

    /// The list for `--help`: `  0    success …`, one status a line, each within 80 columns.
    static var helpText: String {
        all.map { "  \(String($0.status).padding(toLength: 5, withPad: " ", startingAt: 0))\($0.meaning)" }
            .joined(separator: "\n")
    }
}
