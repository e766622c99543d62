import BenchPlatform
import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked: a spin lock that tests its flag and then sets it in two steps, a load and a
/// store, where `spin-lock` swaps it in one atomic exchange. Two threads that both read "free" before either has
/// set it both go in; the mutual-exclusion check must catch it.
///
/// Caught in every run, at any speed: between the test and the set the taker yields its processor for
/// `gapNanoseconds` (a preemption at the worst moment, every time), so that another taker, on another core or on
/// this one, reads "free" too; the check's holders that sleep inside the lock then have the second one beside them.
/// It never hangs: unlocking stores "free" whoever is inside.
package final class CheckThenSetLock: ExclusiveLock {
    /// How long a taker yields between reading "free" and setting the flag.
    static let gapNanoseconds: UInt64 = 50_000

    private let held = Atomic<Bool>(false)

    package init() {}

    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        while held.load(ordering: .acquiring) { Platform.yieldProcessor() }
        let start = Platform.monotonicNanoseconds()
        repeat { Platform.yieldProcessor() } while Platform.monotonicNanoseconds() - start < Self.gapNanoseconds
        held.store(true, ordering: .relaxed)
        defer { held.store(false, ordering: .releasing) }
        return try body()
    }
}
