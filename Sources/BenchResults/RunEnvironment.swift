import Foundation

/// Where a results file came from: the run, the code, the machine and the build. Every row carries it, so a
/// CSV on its own says what produced it.
public struct RunEnvironment: Sendable, Equatable {
    public var runID: String
    /// When the run started, ISO 8601 in UTC (`2026-11-21T23:45:01Z`).
    public var startedAt: String
    /// The working tree's `git rev-parse HEAD`, `BENCH_COMMIT` when set, `unknown` outside git.
    public var commit: String
    /// Whether tracked files differ from `commit`.
    public var dirty: Bool
    public var host: String
    public var os: String
    public var kernel: String
    public var cpuModel: String
    public var logicalCPUs: Int
    public var swiftVersion: String
    /// `release` or `debug`.
    public var build: String
    /// The allocator the process runs with: `system` (glibc malloc).
    public var allocator: String

    public init(runID: String, startedAt: String, commit: String, dirty: Bool, host: String, os: String,
                kernel: String, cpuModel: String, logicalCPUs: Int, swiftVersion: String, build: String,
                allocator: String) {
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
    }

    /// The commit's first seven characters, for file names.
    public var shortCommit: String {
        commit == "unknown" ? commit : String(commit.prefix(7))
    }

    /// Reads the environment of this process now.
    public static func current(date: Date = Date()) -> RunEnvironment {
        let environment = ProcessInfo.processInfo.environment
        let gitHead = run("git", "rev-parse", "HEAD")
        let commit = environment["BENCH_COMMIT"].flatMap { $0.isEmpty ? nil : $0 } ?? gitHead ?? "unknown"
        let dirty = gitHead != nil && !(run("git", "status", "--porcelain", "--untracked-files=no") ?? "").isEmpty
        return RunEnvironment(
            runID: UUID().uuidString.lowercased(),
            startedAt: iso8601(date),
            commit: commit,
            dirty: dirty,
            host: ProcessInfo.processInfo.hostName,
            os: operatingSystem(),
            kernel: run("uname", "-r") ?? "unknown",
            cpuModel: cpuModel(),
            logicalCPUs: ProcessInfo.processInfo.activeProcessorCount,
            swiftVersion: swiftVersion(),
            build: buildConfiguration,
            allocator: "system"
        )
    }

    /// `debug` when compiled without optimization, else `release`.
    public static var buildConfiguration: String {
        buildIsDebug ? "debug" : "release"
    }

    /// Whether this binary was compiled in the debug configuration, whose timings mean little.
    public static var buildIsDebug: Bool {
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
