import BenchCore
import SyncVariants

extension BenchmarkRegistry {
    /// The once suite. (Filled in by its own change.)
    mutating func addOnceBenchmarks() {}
}
