/// The list of benchmarks a run can choose from. Suites add theirs in extensions
/// (`registry.addOnceBenchmarks()`); the run expands them to cases and filters those.
@usableFromInline package struct BenchmarkRegistry: Sendable {
    package private(set) var benchmarks: [Benchmark] = []

    package init() {}

    /// Adds a benchmark. Several benchmarks may share a suite and a name (a variant brought from outside joins
    /// a built-in benchmark that way), but a variant registered twice under one benchmark is a bug: callers
    /// refuse a clashing id before they get here (`variantPaths`).
    @usableFromInline package mutating func add(_ benchmark: Benchmark) {
        for earlier in benchmarks where earlier.suite == benchmark.suite && earlier.name == benchmark.name {
            let twice = Set(earlier.variants).intersection(benchmark.variants).sorted()
            precondition(twice.isEmpty, "\(benchmark.suite)/\(benchmark.name)/\(twice.first ?? "") registered twice")
        }
        benchmarks.append(benchmark)
    }

    /// Every `suite/benchmark/variant` registered so far.
    package var variantPaths: Set<String> {
        Set(benchmarks.flatMap { benchmark in benchmark.variants.map { "\(benchmark.suite)/\(benchmark.name)/\($0)" } })
    }

    /// Every case for the given thread counts whose `suite/benchmark/variant` path `matches`, in
    /// registration order, each with the benchmark that sets it up.
    package func cases(
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
