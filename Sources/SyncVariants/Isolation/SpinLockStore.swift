import CSyncSupport
import Synchronization

/// `spin-lock`: the dictionary behind a test-and-test-and-set spin lock on one `Atomic<Bool>`: a pure spin lock,
/// the mechanism the report calls *spinning*, known by construction.
///
/// To take the lock a thread swaps `true` into the flag (one atomic exchange); while the swap finds it already
/// `true`, the thread waits on plain loads of the flag, with the processor's spin-wait hint between them
/// (`sync_spin_pause`), until it reads `false`, and swaps again. Waiting on loads keeps the flag's cache line
/// shared among the waiters instead of dragging it from core to core with failed swaps. Nothing else: no system
/// call, no sleep, no `sched_yield`, no bound on the spin. A waiter therefore burns its CPU for as long as the
/// holder holds the lock, in user time, with no context switch of its own; with more threads than cores a holder
/// preempted by the scheduler keeps every waiter spinning until it runs again, for up to a whole time slice
/// (oversubscription). Not fair: whichever waiter's swap lands first after the release takes the lock.
///
/// Thread-safe; `entries` is touched only while the flag is held (acquire on taking it, release on freeing it).
/// A write has been applied when `write` returns.
@usableFromInline
package final class SpinLockStore: ExclusiveLockStore, @unchecked Sendable {
    @usableFromInline let held = Atomic<Bool>(false)
    private var entries: [String: IdentityModel]

    /// A store holding `models`.
    @usableFromInline
    package init(preloading models: [IdentityModel] = []) {
        entries = Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    @usableFromInline
    package func read(_ id: String) -> IdentityModel? {
        withLock { entries[id] }
    }

    @usableFromInline
    package func write(_ model: IdentityModel) {
        withLock { entries[model.id] = model }
    }

    /// Runs `body` with the flag held: spins until this thread's swap is the one that took it.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        while held.exchange(true, ordering: .acquiring) {
            repeat { sync_spin_pause() } while held.load(ordering: .relaxed)
        }
        defer { held.store(false, ordering: .releasing) }
        return try body()
    }
}
