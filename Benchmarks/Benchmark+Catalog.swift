import BenchCore
import VariantCatalog

extension Benchmark {
    /// `benchmark` of a family's suite, measuring every variant its catalog says joins it, in catalog order.
    ///
    /// `includes` and `setup` receive the variant itself rather than its CSV id. `setup` returns nil only for a
    /// variant that does not join the benchmark, which the registry never asks for: a nil there means the catalog
    /// promises a variant the suite cannot drive, a bug that the registry smoke test (every registered case is set
    /// up and run once) catches.
    init<Variant: VariantCatalog>(
        _: Variant.Type,
        _ benchmark: Variant.Benchmark,
        parameters: KeyValuePairs<String, [Int]> = [:],
        threadCounts: ThreadCounts = .swept,
        includes: @escaping @Sendable (Variant, BenchmarkCase) -> Bool = { _, _ in true },
        setup: @escaping @Sendable (Variant, BenchmarkCase) -> Workload?
    ) {
        self.init(
            suite: Variant.suite,
            name: benchmark.rawValue,
            variants: Variant.joining(benchmark).map(\.rawValue),
            parameters: parameters,
            threadCounts: threadCounts,
            includes: { includes(Variant(of: $0), $0) },
            setup: { benchmarkCase in
                let variant = Variant(of: benchmarkCase)
                guard let workload = setup(variant, benchmarkCase) else {
                    preconditionFailure("\(benchmarkCase.path): the \(Variant.self) catalog says \(variant) joins "
                                        + "\(benchmark.rawValue), but the suite cannot set it up")
                }
                return workload
            }
        )
    }
}

extension VariantCatalog {
    /// The variant a case of this catalog's benchmarks names. Such cases only ever name the catalog's own ids.
    init(of benchmarkCase: BenchmarkCase) {
        guard let variant = Self(rawValue: benchmarkCase.variant) else {
            preconditionFailure("\(benchmarkCase.path): '\(benchmarkCase.variant)' is not in the \(Self.self) catalog")
        }
        self = variant
    }
}
