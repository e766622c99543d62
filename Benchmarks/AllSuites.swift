import BenchCore

extension BenchmarkRegistry {
    /// The harness's own benchmarks, which measure the harness and no variant: what a registry holds before any
    /// variant joins it (VariantRegistration's `Registrations.registry` adds every variant's, built-in or brought
    /// in).
    ///
    /// - Parameter spinScale: the factor on `harness/spin`'s work (`bench --spin-scale`); it changes no other case.
    package static func harness(spinScale: Double = 1) -> BenchmarkRegistry {
        var registry = BenchmarkRegistry()
        registry.addHarnessBenchmarks(spinScale: spinScale)
        return registry
    }
}
