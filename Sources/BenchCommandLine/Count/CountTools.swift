import BenchResults
import Foundation

/// What `bench count` needs from the machine, found before anything runs: valgrind on the PATH, and Debian's
/// jemalloc shared library.
struct CountTools {
    let valgrind: String
    let objcopy: String
    let jemalloc: String

    /// The tools, or an error whose one line says what is missing and how to install it.
    static func locate() throws -> CountTools {
        guard let valgrind = executable(named: "valgrind") else {
            throw BenchError("bench count needs valgrind, which is not installed (apt-get install valgrind)",
                             exitCode: ExitStatus.toolMissing)
        }
        // valgrind 3.19 cannot read the DWARF 5 debug information the Swift toolchain writes: callgrind runs a
        // copy of bench with it stripped.
        guard let objcopy = executable(named: "objcopy") else {
            throw BenchError("bench count needs objcopy, which is not installed (apt-get install binutils)",
                             exitCode: ExitStatus.toolMissing)
        }
        guard let jemalloc = jemallocLibrary() else {
            throw BenchError("bench count needs jemalloc's shared library, which is not installed "
                             + "(apt-get install libjemalloc-dev)", exitCode: ExitStatus.toolMissing)
        }
        return CountTools(valgrind: valgrind, objcopy: objcopy, jemalloc: jemalloc)
    }

    /// The first executable file of that name on the PATH.
    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// `libjemalloc.so.2` as the dynamic linker's cache lists it.
    static func jemallocLibrary() -> String? {
        guard let cache = run("/sbin/ldconfig", ["-p"]) else { return nil }
        for line in cache.split(separator: "\n") where line.contains("libjemalloc.so.2 ") {
            if let arrow = line.range(of: "=> ") {
                return String(line[arrow.upperBound...]).trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// Runs a program (bound to this process: `ParentBinding`) and returns its standard output, or nil when it
    /// cannot start or exits non-zero.
    static func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil) -> String? {
        start(program, arguments, environment: environment)?.finish()
    }

    /// Starts a program (bound to this process: `ParentBinding`, so call it from the main thread), or nil when it
    /// cannot start; `finish()` waits for it.
    static func start(_ program: String, _ arguments: [String], environment: [String: String]? = nil) -> Started? {
        let process = Process()
        let command = ParentBinding.command(program, arguments)
        process.executableURL = URL(fileURLWithPath: command.program)
        process.arguments = command.arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        return Started(process: process, output: output)
    }

    /// A program `start` started.
    struct Started {
        let process: Process
        let output: Pipe

        /// Its standard output once it has ended, or nil when it exited non-zero. Reads the output to its end
        /// first: what a program writes while the caller waits for another stays in the pipe, a line or two here.
        func finish() -> String? {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// The counts callgrind dumped, one file per `bench_callgrind_end`, keyed by the name given there.
enum CallgrindDumps {
    /// Reads every dump in `directory`: the name from its `desc: Trigger: Client Request: NAME` line and the
    /// instructions from its `summary:` line (a later dump's `totals:` can include costs of earlier threads).
    static func read(directory: String) throws -> [String: UInt64] {
        var counts: [String: UInt64] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let text = try String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8)
            if let (name, instructions) = parse(text) { counts[name] = instructions }
        }
        return counts
    }

    /// The header of a functions file (`bench count --functions`).
    static let functionsHeader = "case\tfunction"
    /// The name a functions file gives what the process ran before its first case (no case's name starts with a
    /// parenthesis).
    static let startUp = "(start-up)"

    /// Writes, for every client-request dump in `directory`, one `case<TAB>function` line per function the dump
    /// has cost for or calls (names as the symbol table has them: the pass runs with `--demangle=no`), sorted,
    /// to `path` (whole or not at all).
    static func writeFunctions(directory: String, to path: String) throws {
        var lines: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let text = try String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8)
            guard let (name, _) = parse(text) else { continue }
            lines += functions(text).map { "\(name)\t\($0)" }
        }
        let body = ([functionsHeader] + lines.sorted()).joined(separator: "\n") + "\n"
        do {
            try body.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw BenchError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// The functions one dump names in its `fn=` and `cfn=` lines. Callgrind compresses names: the first line
    /// that names a function gives `(id) name`, later ones `(id)` alone; a recursion's `'2` is dropped.
    static func functions(_ text: String) -> Set<String> {
        var names: [Substring: Substring] = [:]
        var found = Set<String>()
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let value: Substring
            if line.hasPrefix("fn=") {
                value = line.dropFirst(3)
            } else if line.hasPrefix("cfn=") {
                value = line.dropFirst(4)
            } else {
                continue
            }
            guard value.hasPrefix("("), let close = value.firstIndex(of: ")") else {
                found.insert(String(value))
                continue
            }
            let id = value[value.startIndex...close]
            let rest = value[value.index(after: close)...].drop { $0 == " " }
            if !rest.isEmpty { names[id] = rest }
            if let name = names[id] { found.insert(withoutRecursionMark(name)) }
        }
        return found
    }

    /// `name` without the `'N` callgrind appends to a function entered again while it runs.
    static func withoutRecursionMark(_ name: Substring) -> String {
        guard let mark = name.lastIndex(of: "'"), name.index(after: mark) < name.endIndex,
              name[name.index(after: mark)...].allSatisfy(\.isNumber) else { return String(name) }
        return String(name[..<mark])
    }

    /// The name and instruction count of one dump, or nil when it is not a client-request dump.
    static func parse(_ text: String) -> (name: String, instructions: UInt64)? {
        let trigger = "desc: Trigger: Client Request: "
        var name: String?
        var instructions: UInt64?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix(trigger) {
                name = String(line.dropFirst(trigger.count))
            } else if line.hasPrefix("summary: ") {
                instructions = line.split(separator: " ").dropFirst().first.flatMap { UInt64($0) }
            }
        }
        guard let name, let instructions else { return nil }
        return (name, instructions)
    }
}
