import ArgumentParser
import BenchCore
import BenchSuites
import CBenchSupport
import Foundation

extension Bench {
    /// The child process of `bench count`: runs each selected one-thread case a fixed number of times and
    /// reports one counting pass, as tab-separated lines on stdout. Not for direct use.
    ///
    /// `bench count` gives the `instructions` and `allocations` passes one case each (`--case`) and no filter, so
    /// that everything the process does before the case (selecting, registering, instantiating generic
    /// metadata) is the same whichever cases the run selected: Dispatch's unspecialized generics look their
    /// metadata up on every call, and that lookup's cost depends on what the process instantiated before.
    ///
    /// - `instructions` (run under callgrind): each case's counted run is dumped under the case's name;
    ///   prints `case<TAB>operations`.
    /// - `allocations` (run with jemalloc preloaded, thread cache off): prints `case<TAB>operations<TAB>allocations`.
    /// A case whose work runs on threads the harness does not own prints `case<TAB>offloaded`.
    /// - `functions` (run under callgrind collecting on every thread): first what the process ran before any case
    ///   (its start-up: parsing, registering and selecting), dumped as `CallgrindDumps.startUp`; then every selected
    ///   case at its fewest threads, each parameter, its whole life dumped under the case's name (`FootprintRun`);
    ///   prints `case<TAB>ran`.
    struct CountWorker: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "count-worker",
            abstract: "One counting pass of `bench count` (run by it, under valgrind or jemalloc).",
            shouldDisplay: false
        )

        enum Pass: String, ExpressibleByArgument, CaseIterable {
            case instructions, allocations, functions
        }

        @Option var pass: Pass
        @Option var iterations: Int
        /// The one case to count (its description, `suite/benchmark/variant threads:1 name:value…`), the others
        /// selected but not set up; without it, every selected case in turn.
        @Option(name: .customLong("case")) var caseName: String?
        @ParentCommand var bench: Bench

        func run() throws {
            if pass == .functions {
                return try runFootprints()
            }
            let runner = CountRunner(iterations: iterations)
            var selected = try Count.cases(bench)
            if let caseName {
                selected = selected.filter { $0.benchmarkCase.description == caseName }
                guard !selected.isEmpty else { throw BenchError("no one-thread case is called \(caseName)") }
            }
            for (benchmarkCase, benchmark) in selected {
                // `runner.count` tears the workload down; one that is not run is torn down here.
                let workload = benchmark.setup(benchmarkCase)
                let name = benchmarkCase.description
                guard !workload.offloadsWork else {
                    print("\(name)\t\(CountPassLine.offloaded)")
                    workload.teardown?()
                    continue
                }
                switch pass {
                case .instructions:
                    let cName = strdup(name)!
                    defer { free(cName) }
                    let pointer = UInt(bitPattern: cName)
                    let (_, operations) = runner.count(workload, begin: { bench_callgrind_begin() }, end: {
                        bench_callgrind_end(UnsafePointer(bitPattern: pointer))
                    })
                    print("\(name)\t\(operations)")
                case .functions:
                    preconditionFailure("the functions pass runs whole cases (runFootprints)")
                case .allocations:
                    let start = AllocationMark()
                    let (allocations, operations) = runner.count(workload, begin: { start.set() }, end: {
                        start.since()
                    })
                    print("\(name)\t\(operations)\t\(allocations)")
                }
                fflush(nil)
            }
        }
    }
}

extension Bench.CountWorker {
    /// The `functions` pass: the start-up (instrumented since the process began, `--instr-atstart=yes`), then each
    /// selected case at the fewest threads it runs at (for each of its parameters), its whole life between the
    /// footprint hooks.
    func runFootprints() throws {
        let selectedCases = try bench.selectedCases()
        CallgrindDumps.startUp.withCString { bench_callgrind_footprint_end($0) }
        var fewest: [String: (benchmarkCase: BenchmarkCase, benchmark: Benchmark)] = [:]
        for selected in selectedCases {
            let parameters = selected.benchmarkCase.parameters
            let key = ([selected.benchmarkCase.path] + parameters.keys.sorted().map { "\($0):\(parameters[$0]!)" })
                .joined(separator: " ")
            if let kept = fewest[key], kept.benchmarkCase.threads <= selected.benchmarkCase.threads { continue }
            fewest[key] = selected
        }
        let ordered = fewest.values.sorted { $0.benchmarkCase.description < $1.benchmarkCase.description }
        for (benchmarkCase, benchmark) in ordered {
            let name = strdup(benchmarkCase.description)!
            defer { free(name) }
            FootprintRun.run(benchmark, benchmarkCase, iterations: iterations,
                             begin: { bench_callgrind_footprint_begin() }, end: { bench_callgrind_footprint_end(name) })
            print("\(benchmarkCase.description)\t\(CountPassLine.ran)")
            fflush(nil)
        }
    }
}

/// The count of allocations at the start of a counted run, set and read on the counting thread.
private final class AllocationMark: @unchecked Sendable {
    private var start: UInt64 = 0

    func set() {
        start = JemallocStatistics.allocations() ?? 0
    }

    /// Allocations since `set()`.
    func since() -> UInt64 {
        (JemallocStatistics.allocations() ?? start) - start
    }
}

/// The words of the worker's output lines that are not numbers.
enum CountPassLine {
    static let offloaded = "offloaded"
    static let ran = "ran"
}
