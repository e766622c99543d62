import BenchCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a results CSV as the run goes: the header when the file is created, then each case's rows in one
/// write as soon as the case completes. Whatever happens to the process afterwards, the file holds whole rows
/// of every completed case.
///
/// Thread-safe: a lock serializes writes, so an interrupt handler can take it to end the process between two
/// cases' rows, never in the middle of one.
public final class ResultsWriter: @unchecked Sendable {
    public let path: String
    private let environment: RunEnvironment
    private let settings: RunSettings
    private let descriptor: Int32
    private let lock = NSLock()
    public private(set) var casesWritten = 0

    /// Creates the file and writes the header. Refuses an existing file unless `overwrite` is true, and throws
    /// a message that names the path when the file cannot be created.
    public init(path: String, environment: RunEnvironment, settings: RunSettings, overwrite: Bool = false) throws {
        self.path = path
        self.environment = environment
        self.settings = settings
        let flags = O_WRONLY | O_CREAT | O_TRUNC | (overwrite ? 0 : O_EXCL)
        descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            let reason = errno == EEXIST
                ? "it already exists (choose another --output, or pass --overwrite)"
                : String(cString: strerror(errno))
            throw ResultsWriterError(message: "cannot write results to \(path): \(reason)")
        }
        try write(CSVFormat.encode(ResultsSchema.header))
    }

    deinit {
        close(descriptor)
    }

    /// Appends every row of one completed case.
    public func append(_ result: CaseResult) throws {
        let text = ResultsSchema.rows(environment: environment, settings: settings, result: result).map(CSVFormat.encode).joined()
        try withLock {
            try write(text)
            casesWritten += 1
        }
    }

    /// Runs `body` while no write is in progress (and none can start).
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func write(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ResultsWriterError(message: "cannot write results to \(path): \(String(cString: strerror(errno)))")
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// A results file that could not be created or written; the message names the file.
public struct ResultsWriterError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
