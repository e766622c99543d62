import BenchCore
import BenchPlatform
import Foundation

/// Writes a results CSV as the run goes: each case's rows in one write as soon as the case completes, the header
/// together with the first case's rows. Whatever happens to the process afterwards, the file holds the header and
/// whole rows of every completed case, or nothing at all: never a header alone, never part of a row.
///
/// Every row says `run_complete` `false` (`ResultsSchema.runCompleteColumn`) until `completeRun()` rewrites the
/// file, atomically, with `true`: a file of a run that was killed or interrupted keeps `false`.
///
/// Thread-safe: a lock serializes writes, so an interrupt handler can end the process between two cases' rows
/// (`endAtOnce`), never in the middle of one.
package final class ResultsWriter: @unchecked Sendable {
    package let path: String
    private let environment: RunEnvironment
    private let settings: RunSettings
    private let file: FileDescriptor
    private let lock = NSLock()
    /// The length of the file's whole cases: where the next case's rows go, and where a failed write cuts back to.
    private var committedLength: Int64 = 0
    private var removed = false
    /// Whether `completeRun()` rewrote the file: no row may follow.
    private var completed = false
    /// Whether the file is this writer's own (it created it empty), so that it may remove it when no case came.
    private var ownsFile = true
    /// Cases whose rows are in the file.
    package private(set) var casesWritten = 0
    /// Rows in the file, the header not counted.
    package private(set) var rowsWritten = 0

    /// Creates the file, empty. Refuses an existing file unless `overwrite` is true, and throws a message that
    /// names the path when the file cannot be created.
    package convenience init(path: String, environment: RunEnvironment, settings: RunSettings,
                            overwrite: Bool = false) throws {
        let file = try Self.create(path, exclusive: !overwrite)
        self.init(path: path, file: file, environment: environment, settings: settings)
    }

    /// Opens `path` to append one round's rows after the rounds already in it (`bench --round`), or creates it.
    /// Refuses a file whose header is not `header` (another schema or kind) and one that does not end with a
    /// whole row. `removeIfEmpty` removes the file only when this writer created it.
    package static func appending(to path: String, header: [String], environment: RunEnvironment,
                                 settings: RunSettings) throws -> ResultsWriter {
        let existing = FileManager.default.contents(atPath: path) ?? Data()
        if !existing.isEmpty {
            let expected = Data(CSVFormat.encode(header).utf8)
            guard existing.starts(with: expected) else {
                throw ResultsWriterError(
                    message: "cannot append to \(path): its header is not this bench's (schema version "
                        + "\(ResultsSchema.version)); write the rounds to a new file", stage: .create)
            }
            guard existing.last == UInt8(ascii: "\n") else {
                throw ResultsWriterError(message: "cannot append to \(path): it does not end with a whole row",
                                         stage: .create)
            }
        }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.openForWriting(path, truncate: false, exclusive: false)
        } catch {
            throw ResultsWriterError(message: "cannot write results to \(path): \(error)", stage: .create)
        }
        let writer = ResultsWriter(path: path, file: file, environment: environment, settings: settings)
        writer.committedLength = file.seekToEnd()
        writer.ownsFile = writer.committedLength == 0
        return writer
    }

    /// The most names `unique(in:stem:…)` tries before it gives up.
    package static let maximumNameAttempts = 1_000

    /// Creates a new file `directory/stem.csv`, or `stem-2.csv`, `stem-3.csv`, … when that name is taken, so that
    /// runs started in the same second never collide. Never touches an existing file: `O_EXCL` decides
    /// atomically which run gets which name.
    package static func unique(in directory: String, stem: String, environment: RunEnvironment,
                              settings: RunSettings) throws -> ResultsWriter {
        for attempt in 1...maximumNameAttempts {
            let path = "\(directory)/\(stem)\(attempt == 1 ? "" : "-\(attempt)").csv"
            do {
                let file = try create(path, exclusive: true)
                return ResultsWriter(path: path, file: file, environment: environment, settings: settings)
            } catch let error as ResultsWriterError where error.reason == .exists {
                continue
            }
        }
        throw ResultsWriterError(
            message: "cannot write results to \(directory)/: \(maximumNameAttempts) files named \(stem)*.csv exist",
            stage: .create)
    }

    private init(path: String, file: FileDescriptor, environment: RunEnvironment, settings: RunSettings) {
        self.path = path
        self.file = file
        self.environment = environment
        self.settings = settings
    }

    deinit {
        file.close()
    }

    /// Opens `path` for writing, truncated, refusing an existing file when `exclusive`.
    private static func create(_ path: String, exclusive: Bool) throws -> FileDescriptor {
        let error: SystemError
        do {
            return try FileDescriptor.openForWriting(path, truncate: true, exclusive: exclusive)
        } catch let failure {
            error = failure
        }
        var isDirectory: ObjCBool = false
        if (error.isAlreadyExisting || error.isDirectory),
           FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ResultsWriterError(
                message: "cannot write results to \(path): it is a directory (name a file, such as "
                    + "\(path.hasSuffix("/") ? path : path + "/")results.csv)",
                stage: .create, reason: .directory)
        }
        if error.isAlreadyExisting {
            throw ResultsWriterError(
                message: "cannot write results to \(path): it already exists (choose another --output, "
                    + "or pass --overwrite)",
                stage: .create, reason: .exists)
        }
        throw ResultsWriterError(message: "cannot write results to \(path): \(error)", stage: .create)
    }

    /// Appends every row of one completed case (all its roles), after the header when these are the first rows.
    ///
    /// All or nothing: when the write fails (a full disk, a file size limit), the file is cut back to its
    /// previous length, so it still ends at the last whole row, and the error says so.
    package func append(_ results: [CaseResult]) throws {
        try append(rows: results.flatMap { ResultsSchema.rows(environment: environment, settings: settings, result: $0) },
                   header: ResultsSchema.header)
    }

    /// Appends `rows` as one case, after `header` when these are the file's first rows: for any file of the
    /// schema family (a counts file writes its `CountsSchema` rows this way). All or nothing, as `append(_:)`.
    package func append(rows: [[String]], header: [String]) throws {
        try lock.withLock {
            precondition(!completed, "rows appended after the run was marked complete")
            let text = Self.caseText(rows: rows, header: committedLength == 0 ? header : nil)
            do {
                try file.write(Array(text.utf8))
            } catch let failure {
                let state: String
                do {
                    try file.truncate(to: committedLength)
                    state = "the file ends at the last whole row"
                } catch {
                    state = "and it could not be cut back to its last whole row: \(error)"
                }
                throw ResultsWriterError(message: "cannot write results to \(path): \(failure); \(state)",
                                         stage: .write)
            }
            committedLength += Int64(text.utf8.count)
            casesWritten += 1
            rowsWritten += rows.count
        }
    }

    /// The text `append(rows:header:)` writes for one case: `header`'s line first when given (the file's
    /// first case), then each row's line, every line as `CSVFormat.encode` makes it. The one encoding of a
    /// results file's rows: `bench worker`'s `encode` gives a paired run's files the same text.
    package static func caseText(rows: [[String]], header: [String]?) -> String {
        (header.map(CSVFormat.encode) ?? "") + rows.map(CSVFormat.encode).joined()
    }

    /// Appends every row of one completed case that has a single result.
    package func append(_ result: CaseResult) throws {
        try append([result])
    }

    /// Marks the whole run complete: rewrites the file with `run_complete` `true` on every row (see
    /// `markRunComplete(path:when:)`). The writer takes no rows after this. `condition` sees the header and rows
    /// first; when it says false (a last round that finds an earlier round missing), the file stays as it is.
    /// Returns whether the file was marked.
    @discardableResult
    package func completeRun(when condition: (_ header: [String], _ rows: [[String]]) -> Bool = { _, _ in true })
        throws -> Bool {
        try lock.withLock {
            completed = true
            return try Self.markRunComplete(path: path, when: condition)
        }
    }

    /// Rewrites the results file at `path` with `true` in its `run_complete` column on every row: into a new file
    /// in the same directory, then renamed over it, so that a reader (or a kill) sees the old file or the whole
    /// new one, never a mix. A file with no rows is left as it is. For a writer that is not this process's (the
    /// file of a run whose rounds were other processes); `completeRun()` for this writer's own file.
    /// bench-commits' paired runs, whose files no `bench` process owns, have it done by `bench worker`'s
    /// `complete` request.
    @discardableResult
    package static func markRunComplete(path: String,
                                       when condition: (_ header: [String], _ rows: [[String]]) -> Bool
                                           = { _, _ in true }) throws -> Bool {
        func failure(_ reason: String) -> ResultsWriterError {
            ResultsWriterError(message: "cannot mark \(path) complete: \(reason)", stage: .write)
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw failure("it cannot be read") }
        let records: [[String]]
        do {
            records = try CSVFormat.decode(String(decoding: data, as: UTF8.self))
        } catch {
            throw failure("it is not a CSV (\(error))")
        }
        guard let header = records.first, records.count > 1 else { return false }
        guard let column = header.firstIndex(of: ResultsSchema.runCompleteColumn) else {
            throw failure("it has no \(ResultsSchema.runCompleteColumn) column")
        }
        let rows = Array(records.dropFirst())
        guard condition(header, rows) else { return false }
        let text = CSVFormat.encode(header) + rows.map { row -> String in
            var row = row
            if column < row.count { row[column] = ResultsSchema.runCompleted }
            return CSVFormat.encode(row)
        }.joined()

        let url = URL(fileURLWithPath: path)
        let template = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).complete-XXXXXX").path
        let (file, temporary): (FileDescriptor, String)
        do {
            (file, temporary) = try FileDescriptor.makeTemporary(template)
        } catch {
            throw failure(error.description)
        }
        file.copyPermissions(of: path)
        var problem: String?
        do {
            try file.write(Array(text.utf8))
            try file.synchronize()
        } catch {
            problem = error.description
        }
        file.close()
        if problem == nil {
            do { try Platform.rename(temporary, to: path) } catch { problem = error.description }
        }
        if let problem {
            Platform.removeFile(temporary)
            throw failure("\(problem); it still says \(ResultsSchema.runCompleteColumn)=\(ResultsSchema.runIncomplete)")
        }
        return true
    }

    /// Removes the file when it holds no case (the run ended before one completed); true when it did. A later
    /// `append` must not follow.
    @discardableResult
    package func removeIfEmpty() -> Bool {
        lock.withLock { removeIfEmptyLocked() }
    }

    /// Ends the process between two writes: waits for a write in progress, removes the file when it holds no
    /// case, then calls `exit` with the cases kept and whether the file was removed. For a second Ctrl-C.
    package func endAtOnce(_ exit: (_ casesKept: Int, _ removedEmptyFile: Bool) -> Never) -> Never {
        lock.lock()
        // The lock is never released: no write may start after this.
        exit(casesWritten, removeIfEmptyLocked())
    }

    private func removeIfEmptyLocked() -> Bool {
        guard casesWritten == 0, ownsFile, !removed else { return removed }
        removed = Platform.removeFile(path)
        return removed
    }
}

/// A results file that could not be created or written; the message names the file.
package struct ResultsWriterError: Error, CustomStringConvertible {
    package let message: String
    /// Whether the file could not be created, or could not take a case's rows.
    package let stage: Stage
    /// What stood in the way, where it matters to the caller.
    package let reason: Reason?

    package enum Stage: Sendable { case create, write }
    package enum Reason: Sendable { case exists, directory }

    package init(message: String, stage: Stage, reason: Reason? = nil) {
        self.message = message
        self.stage = stage
        self.reason = reason
    }

    package var description: String { message }
}
