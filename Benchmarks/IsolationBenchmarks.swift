import BenchCore
import SyncVariants

extension BenchmarkRegistry {
    /// The isolation suite. (Filled in by its own change.)
    mutating func addIsolationBenchmarks() {}
}
