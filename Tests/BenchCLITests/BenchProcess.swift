import BenchCore
@testable import BenchResults
import Foundation

/// Runs a built `bench` binary as a child process, the way a user would, and captures what it prints.
struct BenchProcess: Sendable {
    let executable: URL

    /// The `bench` built beside this test bundle (the debug build `swift test` makes).
    static let debug = BenchProcess(executable: URL(fileURLWithPath: CommandLine.arguments[0])
        .deletingLastPathComponent().appendingPathComponent("bench"))

    /// The release build at `.build/release/bench`, which the README's test command builds before the tests.
    static let release = BenchProcess(executable: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/release/bench"))

    var exists: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    struct Outcome: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var errorLines: [Substring] { standardError.split(separator: "\n") }
    }

    /// Runs `bench arguments` to completion, in `directory` when given, with `environment` changes applied
    /// (a nil value removes the variable), after the `/bin/sh` commands `shellSetup` when given (`ulimit -f 4`).
    /// Waits on a plain thread (`onPlainThread`), never on a thread of the cooperative pool.
    func run(_ arguments: [String], in directory: String? = nil, environment: [String: String?] = [:],
             shellSetup: String? = nil) async throws -> Outcome {
        try await onPlainThread { try runBlocking(arguments, in: directory, environment: environment,
                                                  shellSetup: shellSetup) }
    }

    private func runBlocking(_ arguments: [String], in directory: String?, environment: [String: String?],
                             shellSetup: String?) throws -> Outcome {
        let (process, output, error) = try start(arguments, in: directory, environment: environment,
                                                 shellSetup: shellSetup)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                       standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// Starts `bench arguments` and returns the running process with its output pipes; its standard input is
    /// `input` when given (a worker's requests), else this process's.
    func start(_ arguments: [String], in directory: String? = nil, environment: [String: String?] = [:],
               shellSetup: String? = nil, input: Pipe? = nil) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        if let shellSetup {
            // The shell changes what the process inherits (limits, ignored signals), then becomes bench.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", shellSetup + "\nexec \"$0\" \"$@\"", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        let output = Pipe(), error = Pipe()
        if let input { process.standardInput = input }
        process.standardOutput = output
        process.standardError = error
        try process.run()
        return (process, output, error)
    }

    /// Reads `pipe` until what it has delivered contains `text` or it ends; returns all it read.
    static func read(_ pipe: Pipe, until text: String) -> String {
        var received = ""
        while !received.contains(text) {
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            received += String(decoding: data, as: UTF8.self)
        }
        return received
    }

    static func temporaryPath(_ name: String = "results") -> String {
        NSTemporaryDirectory() + "bench-cli-\(name)-\(UUID().uuidString).csv"
    }

    /// A new empty directory outside any git checkout; the caller removes it.
    static func temporaryDirectory(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "bench-cli-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The records of a results CSV as dictionaries keyed by the header's names.
    static func rows(ofCSV path: String) throws -> (header: [String], rows: [[String: String]]) {
        let records = try CSVFormat.decode(String(contentsOfFile: path, encoding: .utf8))
        let header = records.first ?? []
        return (header, records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) })
    }
}
