import Dispatch
import Synchronization
import SyncVariants

/// Lets the thread-based checks drive an actor store (`ActorIsolatedStore`): each call starts a task that awaits the actor method
/// and blocks the calling thread until it ends. Far too slow to benchmark (the benchmark amortizes one task
/// over a batch instead), but it makes every call a real awaited actor call from a concurrent caller.
///
/// The tasks prefer `DedicatedTaskExecutor.shared`, so the actor's methods run on threads of their own: a call
/// never waits for a free thread of Swift's cooperative pool, which other work in the process (other tests,
/// another check) may hold for seconds. Without that, a check's speed, and so whether it finished within its
/// bound, depended on what else the process was doing.
///
/// Thread-safe: it holds only the actor. A call waits for its task without a deadline of its own: the check
/// that drives it bounds a stall (`IsolationChecks.stallSeconds`) and reports threads that stopped making
/// progress as such, never as a wrong value.
package final class ActorStoreBridge<Store: ActorIsolatedStore>: IsolatedStore {
    package let store: Store

    package init(_ store: Store) {
        self.store = store
    }

    package func read(_ id: String) -> IdentityModel? {
        let store = self.store
        return awaited { await store.read(id) }
    }

    package func write(_ model: IdentityModel) {
        let store = self.store
        awaited { await store.write(model) }
    }

    private func awaited<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task.detached(executorPreference: DedicatedTaskExecutor.shared) {
            let value = await operation()
            result.withLock { $0 = value }
            finished.signal()
        }
        finished.wait()
        return result.withLock { $0! }
    }
}
