import BenchPlatform

/// jemalloc's own allocation statistics, read through `mallctl` when jemalloc is the process's allocator
/// (loaded with `LD_PRELOAD`); found at run time, so `bench` neither links nor needs jemalloc otherwise.
///
/// Counts are exact only with the thread cache off (`MALLOC_CONF=tcache:false`): with it on, jemalloc counts
/// the refills of a thread's cache, not each allocation.
package enum JemallocStatistics {
    private typealias Mallctl = @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
    ) -> Int32

    private static let mallctl: Mallctl? = {
        guard let symbol = Platform.loadedFunction(named: "mallctl") else { return nil }
        return unsafeBitCast(symbol, to: Mallctl.self)
    }()

    private static func read(_ mallctl: Mallctl, _ name: UnsafePointer<CChar>) -> UInt64? {
        var value: UInt64 = 0
        var length = MemoryLayout<UInt64>.size
        return mallctl(name, &value, &length, nil, 0) == 0 ? value : nil
    }

    /// Whether jemalloc is the allocator of this process.
    package static var isLoaded: Bool { mallctl != nil }

    /// The allocations made so far in the process (small plus large `nmalloc` over all arenas, 4096 being
    /// `MALLCTL_ARENAS_ALL`), after an `epoch` refresh; nil when jemalloc is not loaded or refuses a name.
    package static func allocations() -> UInt64? {
        guard let mallctl else { return nil }
        var epoch: UInt64 = 1
        guard mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size) == 0 else { return nil }
        // Literal names only: building a name would itself allocate, inside the counted region.
        guard let small = read(mallctl, "stats.arenas.4096.small.nmalloc"),
              let large = read(mallctl, "stats.arenas.4096.large.nmalloc") else { return nil }
        return small + large
    }
}
