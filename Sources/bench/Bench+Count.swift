import ArgumentParser
import BenchCore
import BenchSuites
import CBenchSupport
import Foundation

extension Bench {
    /// `bench count`: instructions and allocations per operation, counts that do not move with the machine's
    /// load, for every one-thread case whose work runs on its own thread.
    struct Count: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "count",
            abstract: "Count instructions (callgrind) and allocations (jemalloc) per operation of one-thread cases.",
            discussion: """
            Runs each selected threads:1 case a fixed number of iterations twice in child processes: once under \
            valgrind's callgrind, collecting only around the counted loop, and once with Debian's jemalloc \
            preloaded (thread cache off), reading its allocation statistics around the same loop. Both run with \
            SWIFT_DETERMINISTIC_HASHING=1, after one uncounted warm-up run. Setup, calibration and the harness \
            stay out of the counts, except the harness's own loop: harness/empty reports it as its own row, and \
            nothing is subtracted. Cases whose work runs on threads the harness does not own (GCD's pool, \
            Swift's cooperative pool: the wait suite, async-write stores, the actor) are left out and listed.

            Needs valgrind (apt-get install valgrind) and libjemalloc2 (apt-get install libjemalloc-dev); \
            without them it says what is missing and exits 2.
            """
        )

        static let defaultIterations = 1_000
        static let quickIterations = 100

        /// `bench`'s own options: `--filter` selects the cases (`bench count --filter REGEX`).
        @ParentCommand var bench: Bench

        @Option(name: .long, help: ArgumentHelp(
            "Iterations of each counted run (default \(Count.defaultIterations), quick \(Count.quickIterations)).",
            valueName: "n"))
        var iterations: Int?

        @Flag(name: .long, help: "Fewer iterations (\(Count.quickIterations)): counts are exact either way.")
        var quick = false

        func validate() throws {
            if let iterations, iterations < 1 {
                throw ValidationError("--iterations must be at least 1, not \(iterations)")
            }
        }

        /// The one-thread cases `bench`'s `--filter` selects.
        static func cases(_ bench: Bench) throws -> [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)] {
            var oneThread = bench
            oneThread.threads = "1"
            return try oneThread.selectedCases()
        }

        func run() throws {
            let tools = try CountTools.locate()
            guard bench_callgrind_compiled_in() != 0 else {
                throw BenchError("this bench was built without valgrind/callgrind.h; install valgrind and rebuild")
            }
            _ = try Self.cases(bench)
            let count = iterations ?? (quick ? Self.quickIterations : Self.defaultIterations)
            let passes = CountPasses(tools: tools, iterations: count, filter: bench.filter)
            let (counted, offloaded) = try passes.run()
            for row in counted { print(row) }
            for name in offloaded { print("left out (work on other threads): \(name)") }
        }
    }
}
