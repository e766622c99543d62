@testable import BenchCore
import Testing

@Suite struct BenchmarkRegistryTests {
    static func benchmark(suite: String = "s", name: String = "b", threads: Benchmark.ThreadCounts = .swept,
                          includes: @escaping @Sendable (BenchmarkCase) -> Bool = { _ in true }) -> Benchmark {
        Benchmark(suite: suite, name: name, variants: ["x", "y"], parameters: ["tokens": [1, 10], "read_pct": [0, 50, 100]],
                  threadCounts: threads, includes: includes) { _ in Workload { _, _ in } }
    }

    @Test func expandsVariantsThreadsAndParameterGrid() {
        let cases = Self.benchmark().cases(sweptThreads: [1, 4])
        #expect(cases.count == 2 * 2 * 2 * 3)
        #expect(Set(cases).count == cases.count)
        #expect(cases.first == BenchmarkCase(suite: "s", benchmark: "b", variant: "x", threads: 1,
                                             parameters: ["tokens": 1, "read_pct": 0]))
    }

    @Test func fixedThreadCountsIgnoreTheSweep() {
        let cases = Self.benchmark(threads: .fixed([2])).cases(sweptThreads: [1, 4, 8])
        #expect(Set(cases.map(\.threads)) == [2])
    }

    @Test func includesDropsCombinations() {
        let cases = Self.benchmark(includes: { $0.variant == "x" || $0[parameter: "tokens"] == 1 })
            .cases(sweptThreads: [1])
        #expect(cases.count == 6 + 3)
    }

    @Test func namesAndParameterStringAreStable() {
        let benchmarkCase = BenchmarkCase(suite: "once", benchmark: "hit", variant: "array-tracker", threads: 4,
                                          parameters: ["tokens": 100, "alpha": 2])
        #expect(benchmarkCase.path == "once/hit/array-tracker")
        #expect(benchmarkCase.parameterString() == "alpha=2;tokens=100")
        #expect(benchmarkCase.parameterString(role: "read") == "alpha=2;role=read;tokens=100")
        #expect(benchmarkCase.description == "once/hit/array-tracker threads:4 alpha:2 tokens:100")
    }

    @Test func registryFiltersOnThePath() {
        var registry = BenchmarkRegistry()
        registry.add(Self.benchmark(suite: "once", name: "hit"))
        registry.add(Self.benchmark(suite: "wait", name: "fan-out"))
        let cases = registry.cases(threads: [1]) { $0.hasPrefix("wait/") && $0.hasSuffix("/y") }
        #expect(cases.count == 6)
        #expect(cases.allSatisfy { $0.benchmarkCase.path == "wait/fan-out/y" && $0.benchmark.name == "fan-out" })
    }
}
