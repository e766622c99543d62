/// The list of benchmarks a run can choose from. Suites add theirs in extensions
/// (`registry.addOnceBenchmarks()`); the run expands them to cases and filters those.
public struct BenchmarkRegistry: Sendable {
    public private(set) var benchmarks: [Benchmark] = []

    public init() {}

    /// Adds a benchmark. Two benchmarks with the same suite and name are a bug in the suites.
    public mutating func add(_ benchmark: Benchmark) {
        precondition(!benchmarks.contains { $0.suite == benchmark.suite && $0.name == benchmark.name },
                     "benchmark \(benchmark.suite)/\(benchmark.name) registered twice")
        benchmarks.append(benchmark)
    }

    /// Every case for the given thread counts whose `suite/benchmark/variant` path `matches`, in
    /// registration order, each with the benchmark that sets it up.
    public func cases(
        threads: [Int],
        matching matches: (String) -> Bool = { _ in true }
    ) -> [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)] {
        benchmarks.flatMap { benchmark in
            benchmark.cases(sweptThreads: threads)
                .filter { matches($0.path) }
                .map { (benchmarkCase: $0, benchmark: benchmark) }
        }
    }
}
