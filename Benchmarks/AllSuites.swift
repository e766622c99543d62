import BenchCore

extension BenchmarkRegistry {
    /// Every benchmark family, in the order a run measures them. The one list of families.
    public static func all() -> BenchmarkRegistry {
        var registry = BenchmarkRegistry()
        registry.addHarnessBenchmarks()
        registry.addOnceBenchmarks()
        registry.addIsolationBenchmarks()
        registry.addWaitingBenchmarks()
        return registry
    }
}
