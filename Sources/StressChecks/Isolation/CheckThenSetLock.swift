import BenchPlatform
import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked: a spin lock that tests its flag and then sets it in two steps, a load and a
/// store, where `spin-lock` swaps it in one atomic exchange. Two threads that both read "free" before either has
/// set it both go in; the mutual-exclusion check must catch it.
///
/// Caught in every run, at any speed: the lock yields its processor between the test and the set (a preemption at
/// the worst moment, every time), so that with more threads than cores a second thread reads "free" while the first
/// is about to set it, in the first few sections. It never hangs: unlocking stores "free" whoever is inside.
package final class CheckThenSetLock: ExclusiveLock {
    private let held = Atomic<Bool>(false)

    package init() {}

    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        while held.load(ordering: .acquiring) { Platform.yieldProcessor() }
        Platform.yieldProcessor()
        held.store(true, ordering: .relaxed)
        defer { held.store(false, ordering: .releasing) }
        return try body()
    }
}
