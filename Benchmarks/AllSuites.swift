import BenchCore
import VariantCatalog

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

    /// The variant catalog of every family above, in the same order (the harness measures the harness, and has
    /// none): what `bench --list --format md` prints and the README's variant tables must match.
    public static let catalogs: [VariantTable] = [
        OnceVariant.table,
        IsolationVariant.table,
        FanOutVariant.table,
        ThrottleVariant.table,
        HandoffVariant.table,
    ]
}
