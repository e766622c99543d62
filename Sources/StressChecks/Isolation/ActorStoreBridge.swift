import Dispatch
import Synchronization
import SyncVariants

/// Lets the thread-based checks drive an `ActorStore`: each call starts a task that awaits the actor method
/// and blocks the calling thread until it ends. Far too slow to benchmark (the benchmark amortizes one task
/// over a batch instead), but it makes every call a real awaited actor call from a concurrent caller.
///
/// Thread-safe: it holds only the actor and atomics. A call that does not finish within `timeout` is
/// abandoned and counted in `timeouts` (a read then returns nil), which the tests expect to stay 0, so that
/// nothing hangs.
package final class ActorStoreBridge: IsolatedStore {
    package static let timeout: DispatchTimeInterval = .seconds(10)
    package let store: ActorStore
    package let timeouts = Atomic<Int>(0)

    package init(_ store: ActorStore) {
        self.store = store
    }

    package func read(_ id: String) -> IdentityModel? {
        let result = ResultBox()
        let store = self.store
        guard finishes({ result.model.withLock { [model = await store.read(id)] in $0 = model } }) else { return nil }
        return result.model.withLock { $0 }
    }

    package func write(_ model: IdentityModel) {
        let store = self.store
        _ = finishes { await store.write(model) }
    }

    private func finishes(_ operation: @escaping @Sendable () async -> Void) -> Bool {
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await operation()
            finished.signal()
        }
        guard finished.wait(timeout: .now() + Self.timeout) == .success else {
            timeouts.add(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Carries a read's result out of its task.
    private final class ResultBox: Sendable {
        package let model = Mutex<IdentityModel?>(nil)
    }
}
