import BenchCore
import BenchPlatform
import BenchResults
import Foundation

/// Runs `bench count-worker` twice — under callgrind, then with jemalloc preloaded — and joins their counts.
struct CountPasses {
    let tools: CountTools
    let iterations: Int
    let filter: String?
    /// `bench --spin-scale`, passed on to the workers (1: not passed).
    var spinScale: Double = 1

    /// The cases both passes counted, in the workers' order, and those they left out; `cases` maps the
    /// workers' case names back to the cases. With `functions`, a third pass runs every case the filter selects
    /// at its fewest threads (every parameter), its whole life, under callgrind collecting on every thread, and
    /// writes there the functions each ran (`CallgrindDumps.writeFunctions`).
    func run(cases: [String: BenchmarkCase], functions: String? = nil) throws
        -> (counted: [CountsSchema.Row], offloaded: [String]) {
        let executable = BenchMain.executable
        let temporary = FileManager.default.temporaryDirectory.path
        Self.removeDirectoriesOfEndedRuns(in: temporary)
        let directory = "\(temporary)/\(Self.directoryPrefix)\(Platform.processID)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        var (environment, cleared) = Self.countedEnvironment(ProcessInfo.processInfo.environment)
        if !cleared.isEmpty {
            warn("\(ProgramName.current) count: counting without \(cleared.sorted().joined(separator: ", ")) from "
                 + "this environment: \(cleared.count == 1 ? "it changes" : "they change") what is counted")
        }
        environment[BenchMain.deterministicHashing] = "1"
        // A crash under valgrind must end the pass, not wait on Swift's backtracer.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let selection = (filter.map { ["--filter", $0] } ?? []) + (spinScale == 1 ? [] : ["--spin-scale", "\(spinScale)"])
        let worker = selection + ["count-worker", "--iterations", String(iterations)]

        let stripped = "\(directory)/bench"
        guard CountTools.run(tools.objcopy, ["--strip-debug", executable, stripped]) != nil else {
            throw BenchError("objcopy could not copy \(executable) without its debug information")
        }
        let dumps = "\(directory)/dumps"
        try FileManager.default.createDirectory(atPath: dumps, withIntermediateDirectories: true)
        guard let instructionLines = CountTools.run(tools.valgrind, [
            "--tool=callgrind", "--quiet", "--instr-atstart=no", "--collect-atstart=no",
            "--callgrind-out-file=\(dumps)/callgrind.out", stripped,
        ] + worker + ["--pass", "instructions"], environment: environment) else {
            throw BenchError("the callgrind pass failed (run `valgrind --tool=callgrind \(executable) "
                             + "count-worker --pass instructions ...` to see why)")
        }
        let instructions = try CallgrindDumps.read(directory: dumps)
        if let functions {
            // Collecting on every thread from the start, each case's whole life dumped on its own.
            let footprints = "\(directory)/footprints"
            try FileManager.default.createDirectory(atPath: footprints, withIntermediateDirectories: true)
            guard CountTools.run(tools.valgrind, [
                "--tool=callgrind", "--quiet", "--instr-atstart=no", "--collect-atstart=yes", "--demangle=no",
                "--callgrind-out-file=\(footprints)/callgrind.out", stripped,
            ] + selection + ["count-worker", "--iterations", String(FootprintRun.iterations), "--pass", "functions"],
                                 environment: environment) != nil else {
                throw BenchError("the callgrind pass of --functions failed (run `valgrind --tool=callgrind "
                                 + "\(executable) count-worker --pass functions ...` to see why)")
            }
            try CallgrindDumps.writeFunctions(directory: footprints, to: functions)
        }

        var allocationEnvironment = environment
        allocationEnvironment["LD_PRELOAD"] = tools.jemalloc
        allocationEnvironment["MALLOC_CONF"] = "tcache:false"
        guard let allocationLines = CountTools.run(executable, worker + ["--pass", "allocations"],
                                                   environment: allocationEnvironment) else {
            throw BenchError("the jemalloc pass failed (LD_PRELOAD=\(tools.jemalloc))")
        }
        var allocations: [String: UInt64] = [:]
        for fields in Self.fields(allocationLines) where fields.count == 3 {
            allocations[fields[0]] = UInt64(fields[2])
        }

        var counted: [CountsSchema.Row] = []
        var offloaded: [String] = []
        for fields in Self.fields(instructionLines) {
            let name = fields[0]
            if fields.count == 2, fields[1] == CountPassLine.offloaded {
                offloaded.append(name)
                continue
            }
            guard fields.count == 2, let operations = Int(fields[1]), let benchmarkCase = cases[name],
                  let instructionCount = instructions[name], let allocated = allocations[name] else {
                throw BenchError("the counting passes disagree about \(name)")
            }
            counted.append(CountsSchema.Row(benchmarkCase: benchmarkCase, iterations: iterations,
                                            operations: operations, instructions: instructionCount,
                                            allocations: allocated))
        }
        return (counted, offloaded)
    }

    /// Variables of the caller's environment that change what a counted pass counts without changing bench's
    /// code (a preloaded library or audit module, the C library's and jemalloc's allocator settings, eager
    /// binding): the passes run without them, so that a count depends on the binary alone. The passes set their
    /// own (`LD_PRELOAD` of jemalloc and `MALLOC_CONF` for the allocation pass).
    static let clearedVariables: Set<String> = ["LD_PRELOAD", "LD_AUDIT", "LD_BIND_NOW", "LD_BIND_NOT", "GLIBC_TUNABLES"]
    static let clearedPrefixes = ["MALLOC_", "JE_MALLOC_", "_RJEM_MALLOC_"]

    /// `inherited` without the variables that change counts (`clearedVariables`, `clearedPrefixes`), and the
    /// names of those it held with a value (an empty one changes nothing, so it goes unmentioned).
    static func countedEnvironment(_ inherited: [String: String]) -> (environment: [String: String], cleared: [String]) {
        func changesCounts(_ name: String) -> Bool {
            clearedVariables.contains(name) || clearedPrefixes.contains { name.hasPrefix($0) }
        }
        let cleared = inherited.filter { changesCounts($0.key) && !$0.value.isEmpty }.map(\.key)
        return (inherited.filter { !changesCounts($0.key) }, cleared)
    }

    /// The passes' working directory (a stripped copy of bench, callgrind's dumps) is named after the process
    /// that owns it: `bench-count-PID-UUID`.
    static let directoryPrefix = "bench-count-"

    /// Removes the working directories whose owner has ended without removing its own (it was killed: its
    /// passes died with it, `ParentBinding`, but nothing of it was left to clean up).
    static func removeDirectoriesOfEndedRuns(in temporary: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        where name.hasPrefix(directoryPrefix) {
            guard let owner = Int32(name.dropFirst(directoryPrefix.count).prefix { $0 != "-" }) else { continue }
            if !Platform.processExists(owner) {
                try? FileManager.default.removeItem(atPath: "\(temporary)/\(name)")
            }
        }
    }

    private static func fields(_ output: String) -> [[String]] {
        output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}
