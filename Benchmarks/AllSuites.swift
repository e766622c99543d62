import BenchCore
import VariantCatalog

extension BenchmarkRegistry {
    /// Every benchmark family, in the order a run measures them. The one list of families.
    ///
    /// - Parameter spinScale: the factor on `harness/spin`'s work (`bench --spin-scale`); it changes no other case.
    public static func all(spinScale: Double = 1) -> BenchmarkRegistry {
        var registry = BenchmarkRegistry()
        registry.addHarnessBenchmarks(spinScale: spinScale)
        registry.addOnceBenchmarks()
        registry.addIsolationBenchmarks()
        registry.addWaitingBenchmarks()
        return registry
    }

    /// The variant catalog of every family above, in the same order (the harness measures the harness, and has
    /// none): what `bench --list --format md` prints and the variant tables of docs/suites.md must match.
    public static let catalogs: [VariantTable] = [
        OnceVariant.table,
        IsolationVariant.table,
        FanOutVariant.table,
        ThrottleVariant.table,
        HandoffVariant.table,
    ]
}
