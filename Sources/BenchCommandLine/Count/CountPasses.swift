import BenchCore
import BenchPlatform
import BenchResults
import Foundation

/// Runs `bench count-worker` twice for each case, each time in a process of its own — with jemalloc preloaded,
/// then under callgrind — and joins their counts.
///
/// One process per case, given the case alone and no filter: a case's counts then depend on the binary and the
/// case, not on which other cases the run selected. Swift Dispatch's unspecialized generics (`sync`'s
/// `_syncHelper<T>`) look their metadata up in the runtime's cache on every call, and that lookup's cost depends
/// on which generic types the process instantiated before (docs/findings/2026-11-28-counts-alone.md).
struct CountPasses {
    let tools: CountTools
    let iterations: Int
    let filter: String?
    /// `bench --spin-scale`, passed on to the workers (1: not passed).
    var spinScale: Double = 1

    /// The cases both passes counted, in the order of `cases`, and those they left out (their names). With
    /// `functions`, a third pass runs every case the filter selects at its fewest threads (every parameter), its
    /// whole life, under callgrind collecting on every thread, and writes there the functions each ran
    /// (`CallgrindDumps.writeFunctions`); that pass runs all of them in one process.
    func run(cases: [BenchmarkCase], functions: String? = nil) throws
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
        let scale = spinScale == 1 ? [] : ["--spin-scale", "\(spinScale)"]
        let selection = (filter.map { ["--filter", $0] } ?? []) + scale
        var allocationEnvironment = environment
        allocationEnvironment["LD_PRELOAD"] = tools.jemalloc
        allocationEnvironment["MALLOC_CONF"] = "tcache:false"

        let stripped = "\(directory)/bench"
        guard CountTools.run(tools.objcopy, ["--strip-debug", executable, stripped]) != nil else {
            throw BenchError("objcopy could not copy \(executable) without its debug information")
        }
        let alone = CaseProcesses(tools: tools, executable: executable, stripped: stripped,
                                  worker: scale + ["count-worker", "--iterations", String(iterations)],
                                  environment: environment, allocationEnvironment: allocationEnvironment)
        // The jemalloc passes first, one after the other: they are quick, and say which cases are offloaded.
        var allocations: [UInt64?] = []
        for benchmarkCase in cases {
            allocations.append(try alone.allocations(benchmarkCase))
        }
        // Then the callgrind passes of the others, one per CPU at a time: valgrind runs a process on one CPU, and
        // counts are exact however many run beside them.
        let counting = cases.indices.filter { allocations[$0] != nil }
        var rows: [Int: CountsSchema.Row] = [:]
        var running: [(index: Int, started: CountTools.Started)] = []
        func finishFirst() throws {
            let (index, started) = running.removeFirst()
            let dumps = "\(directory)/dumps-\(index)"
            let (operations, instructions) = try alone.instructions(cases[index], started, dumps: dumps)
            rows[index] = CountsSchema.Row(benchmarkCase: cases[index], iterations: iterations, operations: operations,
                                           instructions: instructions, allocations: allocations[index]!)
        }
        for index in counting {
            if running.count == Self.concurrentProcesses { try finishFirst() }
            let dumps = "\(directory)/dumps-\(index)"
            try FileManager.default.createDirectory(atPath: dumps, withIntermediateDirectories: true)
            running.append((index, try alone.startInstructions(cases[index], dumps: dumps)))
        }
        while !running.isEmpty { try finishFirst() }
        let counted = counting.map { rows[$0]! }
        let offloaded = cases.indices.filter { allocations[$0] == nil }.map { cases[$0].description }

        if let functions {
            // Collecting on every thread from the start, the start-up and each case's whole life dumped on its own.
            let footprints = "\(directory)/footprints"
            try FileManager.default.createDirectory(atPath: footprints, withIntermediateDirectories: true)
            guard CountTools.run(tools.valgrind, [
                "--tool=callgrind", "--quiet", "--instr-atstart=yes", "--collect-atstart=yes", "--demangle=no",
                "--callgrind-out-file=\(footprints)/callgrind.out", stripped,
            ] + selection + ["count-worker", "--iterations", String(FootprintRun.iterations), "--pass", "functions"],
                                 environment: environment) != nil else {
                throw BenchError("the callgrind pass of --functions failed (run `valgrind --tool=callgrind "
                                 + "\(executable) count-worker --pass functions ...` to see why)")
            }
            try CallgrindDumps.writeFunctions(directory: footprints, to: functions)
        }
        return (counted, offloaded)
    }

    /// The two counting processes of one case: `bench count-worker --case NAME`, with jemalloc preloaded and
    /// under callgrind, each given nothing but the case, so that each does the same before the case whatever
    /// else the run counts.
    private struct CaseProcesses {
        let tools: CountTools
        let executable: String
        /// The copy of `executable` without debug information that callgrind runs.
        let stripped: String
        /// The worker's arguments but the case and the pass.
        let worker: [String]
        let environment: [String: String]
        let allocationEnvironment: [String: String]

        /// The case's allocations in its counted run, or nil when its work runs on threads the harness does not
        /// own (then it is not counted under callgrind either).
        func allocations(_ benchmarkCase: BenchmarkCase) throws -> UInt64? {
            let name = benchmarkCase.description
            guard let lines = CountTools.run(executable, worker + ["--case", name, "--pass", "allocations"],
                                             environment: allocationEnvironment) else {
                throw BenchError("the jemalloc pass of \(name) failed (LD_PRELOAD=\(tools.jemalloc))")
            }
            let fields = CountPasses.fields(lines)
            if fields == [[name, CountPassLine.offloaded]] { return nil }
            guard fields.count == 1, fields[0].count == 3, fields[0][0] == name, let allocations = UInt64(fields[0][2])
            else {
                throw BenchError("the jemalloc pass of \(name) said: \(lines)")
            }
            return allocations
        }

        /// Starts the case's callgrind pass, which dumps into `dumps`. Where `setarch` is at hand, without address
        /// randomization: the Swift runtime's metadata cache hashes addresses, so a count could otherwise differ
        /// between two processes of one case (os-lock at 10 tokens once counted 236,685 and 238,285).
        func startInstructions(_ benchmarkCase: BenchmarkCase, dumps: String) throws -> CountTools.Started {
            let callgrind = [
                tools.valgrind, "--tool=callgrind", "--quiet", "--instr-atstart=no", "--collect-atstart=no",
                "--callgrind-out-file=\(dumps)/callgrind.out", stripped,
            ] + worker + ["--case", benchmarkCase.description, "--pass", "instructions"]
            let fixed = FileManager.default.isExecutableFile(atPath: Self.setarch)
            guard let started = CountTools.start(fixed ? Self.setarch : callgrind[0],
                                                 fixed ? ["--addr-no-randomize"] + callgrind : Array(callgrind.dropFirst()),
                                                 environment: environment) else {
                throw BenchError("cannot start \(tools.valgrind)")
            }
            return started
        }

        /// util-linux's `setarch`, which runs a program with the address space's randomization off.
        static let setarch = "/usr/bin/setarch"

        /// The operations and instructions of the case's callgrind pass, once it has ended.
        func instructions(_ benchmarkCase: BenchmarkCase, _ started: CountTools.Started, dumps: String) throws
            -> (operations: Int, instructions: UInt64) {
            let name = benchmarkCase.description
            guard let lines = started.finish() else {
                throw BenchError("the callgrind pass of \(name) failed (run `valgrind --tool=callgrind "
                                 + "\(executable) count-worker --iterations N --case '\(name)' --pass instructions` "
                                 + "to see why)")
            }
            let fields = CountPasses.fields(lines)
            guard fields.count == 1, fields[0].count == 2, fields[0][0] == name, let operations = Int(fields[0][1]),
                  let instructions = try CallgrindDumps.read(directory: dumps)[name] else {
                throw BenchError("the counting passes disagree about \(name)")
            }
            return (operations, instructions)
        }
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

    /// How many callgrind passes run at once: one per CPU this process may use.
    static var concurrentProcesses: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

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

    fileprivate static func fields(_ output: String) -> [[String]] {
        output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}
