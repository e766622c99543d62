import ArgumentParser
import BenchCore
import BenchSuites
import CBenchSupport
import Foundation

extension Bench {
    /// The child process of `bench count`: runs each selected one-thread case a fixed number of times and
    /// reports one counting pass, as tab-separated lines on stdout. Not for direct use.
    ///
    /// - `instructions` (run under callgrind): each case's counted run is dumped under the case's name;
    ///   prints `case<TAB>operations`.
    /// - `allocations` (run with jemalloc preloaded, thread cache off): prints `case<TAB>operations<TAB>allocations`.
    /// A case whose work runs on threads the harness does not own prints `case<TAB>offloaded`.
    struct CountWorker: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "count-worker",
            abstract: "One counting pass of `bench count` (run by it, under valgrind or jemalloc).",
            shouldDisplay: false
        )

        enum Pass: String, ExpressibleByArgument, CaseIterable {
            case instructions, allocations
        }

        @Option var pass: Pass
        @Option var iterations: Int
        @ParentCommand var bench: Bench

        func run() throws {
            let runner = CountRunner(iterations: iterations)
            for (benchmarkCase, benchmark) in try Count.cases(bench) {
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
}
