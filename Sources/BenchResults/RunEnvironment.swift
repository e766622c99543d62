import BenchCore
import Foundation
import Synchronization

/// Where a results file came from: the run, the code, the machine and the build. Every row carries it, so a
/// CSV on its own says what produced it.
package struct RunEnvironment: Sendable, Equatable, Codable {
    package var runID: String
    /// When the run started, ISO 8601 in UTC (`2026-11-21T23:45:01Z`).
    package var startedAt: String
    /// The working tree's `git rev-parse HEAD`, `BENCH_COMMIT` when set, `unknown` when git cannot be read.
    package var commit: String
    /// Whether tracked files differ from `commit`; `unknown` when git cannot be read.
    package var dirty: TreeState
    package var host: String
    package var os: String
    package var kernel: String
    package var cpuModel: String
    package var logicalCPUs: Int
    package var swiftVersion: String
    /// `release` or `debug`.
    package var build: String
    /// The allocator the process runs with: `system` (glibc malloc), or `jemalloc` when jemalloc is loaded.
    package var allocator: String
    /// The first field of `/proc/loadavg` when the run started: runnable threads averaged over a minute. At or
    /// above `logicalCPUs`, something else competes for the cores. Nil where it cannot be read.
    package var loadAverage1m: Double?
    /// The `bench` version that wrote the file (`bench --version`).
    package var benchVersion: String
    /// Why git could not be read (git's own words), when it could not; then `dirty` is `unknown`. Not a column:
    /// the tool warns with it.
    package var gitProblem: String?

    /// Whether the working tree matched its commit.
    package enum TreeState: String, Sendable, Equatable, Codable {
        case clean
        case modified
        /// Git could not be read: not a checkout, a repository it refuses (dubious ownership), no git.
        case unknown

        /// The `dirty` field: `false`, `true` or `unknown`.
        package var csvField: String {
            switch self {
            case .clean: "false"
            case .modified: "true"
            case .unknown: "unknown"
            }
        }
    }

    package init(runID: String, startedAt: String, commit: String, dirty: TreeState, host: String, os: String,
                kernel: String, cpuModel: String, logicalCPUs: Int, swiftVersion: String, build: String,
                allocator: String, loadAverage1m: Double? = nil, benchVersion: String = "unknown",
                gitProblem: String? = nil) {
        self.runID = runID
        self.startedAt = startedAt
        self.commit = commit
        self.dirty = dirty
        self.host = host
        self.os = os
        self.kernel = kernel
        self.cpuModel = cpuModel
        self.logicalCPUs = logicalCPUs
        self.swiftVersion = swiftVersion
        self.build = build
        self.allocator = allocator
        self.loadAverage1m = loadAverage1m
        self.benchVersion = benchVersion
        self.gitProblem = gitProblem
    }

    /// The environment saved at `path` (`save(to:)`), so that every round of a run records the same one; or,
    /// when there is no such file, this process's environment, saved there for the rounds that follow.
    package static func shared(at path: String, benchVersion: String) throws -> RunEnvironment {
        if let data = FileManager.default.contents(atPath: path) {
            do {
                return try JSONDecoder().decode(RunEnvironment.self, from: data)
            } catch {
                throw RunEnvironmentFileError("cannot read the run environment in \(path): \(error)")
            }
        }
        let environment = current(benchVersion: benchVersion)
        try environment.save(to: path)
        return environment
    }

    /// Writes the environment to `path` as JSON, for `shared(at:)`.
    package func save(to path: String) throws {
        do {
            try JSONEncoder().encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw RunEnvironmentFileError("cannot save the run environment to \(path): \(error.localizedDescription)")
        }
    }

    /// The commit's first seven characters, for file names.
    package var shortCommit: String {
        commit == "unknown" ? commit : String(commit.prefix(7))
    }

    /// Reads the environment of this process now; `benchVersion` is the tool's own version.
    package static func current(benchVersion: String, date: Date = Date()) -> RunEnvironment {
        let git = GitState.read()
        let override = ProcessInfo.processInfo.environment["BENCH_COMMIT"].flatMap { $0.isEmpty ? nil : $0 }
        return RunEnvironment(
            runID: UUID().uuidString.lowercased(),
            startedAt: iso8601(date),
            commit: override ?? git.commit ?? "unknown",
            dirty: git.dirty,
            host: ProcessInfo.processInfo.hostName,
            os: operatingSystem(),
            kernel: run("uname", "-r") ?? "unknown",
            cpuModel: cpuModel(),
            logicalCPUs: ProcessInfo.processInfo.activeProcessorCount,
            swiftVersion: swiftVersion(),
            build: buildConfiguration,
            allocator: JemallocStatistics.isLoaded ? "jemalloc" : "system",
            loadAverage1m: loadAverage(),
            benchVersion: benchVersion,
            gitProblem: git.problem
        )
    }

    /// What git says about the working directory: HEAD, whether tracked files differ from it, and why not
    /// when it cannot tell.
    struct GitState {
        var commit: String?
        var dirty: TreeState
        var problem: String?

        static func read() -> GitState {
            let head = RunEnvironment.capture("git", "rev-parse", "HEAD")
            guard head.status == 0, !head.output.isEmpty else {
                return GitState(commit: nil, dirty: .unknown, problem: head.reason)
            }
            let status = RunEnvironment.capture("git", "status", "--porcelain", "--untracked-files=no")
            guard status.status == 0 else {
                return GitState(commit: head.output, dirty: .unknown, problem: status.reason)
            }
            return GitState(commit: head.output, dirty: status.output.isEmpty ? .clean : .modified, problem: nil)
        }
    }

    /// The 1-minute load average, the first field of `/proc/loadavg`.
    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
              let first = text.split(separator: " ").first else { return nil }
        return Double(first)
    }

    /// `debug` when compiled without optimization, else `release`.
    package static var buildConfiguration: String {
        buildIsDebug ? "debug" : "release"
    }

    /// Whether this binary was compiled in the debug configuration, whose timings mean little.
    package static var buildIsDebug: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// `PRETTY_NAME` from /etc/os-release, else the kernel's name.
    static func operatingSystem() -> String {
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        for line in release.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            return line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return run("uname", "-s") ?? "unknown"
    }

    /// The first `model name` in /proc/cpuinfo.
    static func cpuModel() -> String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown"
    }

    /// The compiler that built this binary, as `swift --version` names it when that compiler is on the PATH,
    /// else the language version it was compiled with.
    static func swiftVersion() -> String {
        if let line = run("swift", "--version")?.split(separator: "\n").first(where: { $0.contains("Swift version") }),
           let range = line.range(of: "Swift version ") {
            return String(line[range.upperBound...].prefix { $0 != " " })
        }
        #if compiler(>=6.3)
        return "6.3+"
        #else
        return "<6.3"
        #endif
    }

    /// Runs a command found on the PATH and returns its trimmed standard output, or nil when it fails.
    static func run(_ arguments: String...) -> String? {
        let outcome = capture(arguments)
        return outcome.status == 0 ? outcome.output : nil
    }

    /// What a command printed and how it ended.
    struct CommandOutcome {
        /// The exit status; 127 when the command could not be started.
        var status: Int32
        /// Standard output, trimmed.
        var output: String
        /// The first line of standard error without git's `fatal: `, or a sentence when the command is missing.
        var reason: String
    }

    static func capture(_ arguments: String...) -> CommandOutcome {
        capture(arguments)
    }

    static func capture(_ arguments: [String]) -> CommandOutcome {
        let process = Process()
        let command = ParentBinding.command("/usr/bin/env", arguments)
        process.executableURL = URL(fileURLWithPath: command.program)
        process.arguments = command.arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        do { try process.run() } catch {
            return CommandOutcome(status: 127, output: "", reason: "cannot run \(arguments[0]): \(error)")
        }
        // Standard error is read on another thread, so that neither pipe can fill up and stall the command.
        let errorData = Mutex(Data())
        let reading = DispatchGroup()
        DispatchQueue.global().async(group: reading) {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        reading.wait()
        process.waitUntilExit()
        let firstLine = errorData.withLock { String(decoding: $0, as: UTF8.self) }
            .split(separator: "\n").first.map(String.init) ?? ""
        let reason: String
        if process.terminationStatus == 127 {
            reason = "\(arguments[0]) is not installed"
        } else if firstLine.isEmpty {
            reason = "\(arguments[0]) exited with status \(process.terminationStatus)"
        } else {
            reason = firstLine.hasPrefix("fatal: ") ? String(firstLine.dropFirst("fatal: ".count)) : firstLine
        }
        return CommandOutcome(status: process.terminationStatus,
                              output: String(decoding: outputData, as: UTF8.self)
                                  .trimmingCharacters(in: .whitespacesAndNewlines),
                              reason: reason)
    }
}

/// A run environment file (`bench --run-environment`) that could not be read or written.
package struct RunEnvironmentFileError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
