import ArgumentParser
import BenchCore
import BenchPlatform
import BenchResults
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
            usage: "\(ProgramName.current) count [--filter <regex>] [--iterations <n> | --quick] [--spin-scale <x>] [--output <path>] "
                + "[--overwrite] [--functions <path>]",
            discussion: """
            Runs each selected threads:1 case a fixed number of iterations twice, each time in a child process of \
            its own that runs no other case, so that a case's counts do not depend on which others were selected: \
            once under valgrind's callgrind, collecting only around the counted loop, and once with Debian's \
            jemalloc preloaded (thread cache off), reading its allocation statistics around the same loop. Both run with \
            SWIFT_DETERMINISTIC_HASHING=1, after one uncounted warm-up run, and without what in the caller's \
            environment changes a count but not the code (LD_PRELOAD, LD_AUDIT, LD_BIND_NOW, LD_BIND_NOT, \
            GLIBC_TUNABLES, MALLOC_*, JE_MALLOC_*): those are cleared, with a warning naming them, so that two \
            counts of one binary agree whatever shell they came from. Setup, calibration and the harness \
            stay out of the counts, except the harness's own loop: harness/empty reports it as its own row, and \
            nothing is subtracted. Cases whose work runs on threads the harness does not own (GCD's pool, \
            Swift's cooperative pool: the wait suite, async-write stores, the actor) are left out and listed.

            Takes bench's --filter (a regular expression on suite/benchmark/variant), --quick (\(quickIterations) \
            iterations instead of \(defaultIterations)), --spin-scale, --output and --overwrite. Writes \
            Results/counts-<UTC stamp>-<short commit>.csv (or --output), one row per case, which scripts/analyze \
            reports, compares and gates exactly.

            Needs valgrind (apt-get install valgrind) and libjemalloc2 (apt-get install libjemalloc-dev); \
            without them it says what is missing and exits \(ExitStatus.toolMissing). More: docs/counts.md.
            """
        )

        static let defaultIterations = 1_000
        static let quickIterations = 100

        /// `bench`'s own options: `--filter` selects the cases and `--quick` means 100 iterations
        /// (`bench count --filter REGEX --quick`).
        @ParentCommand var bench: Bench

        // `.unconditional`: `-5` is the value of --iterations, so that validation can say what is wrong with it.
        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
            "Iterations of each counted run (default \(Count.defaultIterations), quick \(Count.quickIterations)); "
                + "not with --quick, which means \(Count.quickIterations).",
            valueName: "n"))
        var iterations: Int?

        @Option(name: .long, help: ArgumentHelp(
            "Also run every selected case (the left-out ones too) at its fewest threads, its whole life, under "
                + "callgrind on every thread, and write the functions each ran (mangled), one 'case<TAB>function' "
                + "line each, and what the process ran before its first case as case '(start-up)': what bench-commits "
                + "reads to learn which cases run changed code.",
            valueName: "path"))
        var functions: String?

        func validate() throws {
            if let iterations, iterations < 1 {
                throw ValidationError("--iterations must be at least 1, not \(iterations)")
            }
            if iterations != nil && bench.quick {
                throw ValidationError("--iterations and --quick exclude each other (--quick means "
                                      + "\(Self.quickIterations) iterations): give one of them")
            }
        }

        /// The one-thread cases `bench`'s `--filter` selects.
        static func cases(_ bench: Bench) throws -> [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)] {
            var oneThread = bench
            oneThread.threads = ThreadList(1)
            return try oneThread.selectedCases()
        }

        func run() throws {
            if let note = PlatformFeature.instructionCounts.unavailableNote {
                throw BenchError(note, exitCode: ExitStatus.toolMissing)
            }
            let tools = try CountTools.locate()
            guard bench_callgrind_compiled_in() != 0 else {
                throw BenchError("this bench was built without valgrind/callgrind.h; install valgrind and rebuild")
            }
            let cases = try Self.cases(bench).map(\.benchmarkCase)
            // `--quick` is bench's own flag (the parent command parses it): fewer iterations, counts exact either way.
            let count = iterations ?? (bench.quick ? Self.quickIterations : Self.defaultIterations)
            var environment = RunEnvironment.current(benchVersion: BenchVersion.current)
            environment.allocator = "jemalloc"  // the allocation pass's
            let writer = try bench.resultsWriter(environment, try bench.runSettings(), kind: "counts-")
            warn("\(ProgramName.current) count: \(plural(cases.count, "one-thread case")), "
                 + "\(plural(count, "iteration")) each, writing \(writer.path)")
            let passes = CountPasses(tools: tools, iterations: count, filter: bench.filter, spinScale: bench.spinScale)
            let counted: [CountsSchema.Row], offloaded: [String]
            do {
                (counted, offloaded) = try passes.run(cases: cases, functions: functions)
                try writer.append(rows: counted.map { CountsSchema.fields($0, environment: environment) },
                                  header: CountsSchema.header)
                try writer.completeRun()
            } catch {
                writer.removeIfEmpty()
                throw error
            }
            print(CountsTable.render(counted))
            if !offloaded.isEmpty {
                print("Left out, their work runs on threads bench does not own: \(plural(offloaded.count, "case")) "
                      + "(\(Set(offloaded.map { $0.split(separator: " ")[0] }).sorted().joined(separator: ", ")))")
            }
            warn("wrote \(writer.path) (\(plural(counted.count, "case")))")
        }
    }
}
