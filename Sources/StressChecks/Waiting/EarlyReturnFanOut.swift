import Dispatch
import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked (caught by the exactly-once check). Returns before its last task has run: it
/// waits for the other `tasks - 1` tasks only, and keeps the last one back, queueing it when the waiter itself is
/// released.
///
/// Caught in every run, at any speed and under any load: when `run` returns, its last task has not even been queued,
/// so the caller counts it as never run. Nothing depends on which task finishes first.
package final class EarlyReturnFanOut: TaskWaiter {
    private let queue = DispatchQueue(label: "broken.early-return", attributes: .concurrent)
    private let heldBack = Mutex<[@Sendable () -> Void]>([])

    package init() {}

    deinit {
        for task in heldBack.withLock({ $0 }) { queue.async(execute: task) }
    }

    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        guard tasks > 0 else { return }
        let done = DispatchSemaphore(value: 0)
        for index in 0..<(tasks - 1) {
            queue.async {
                task(index)
                done.signal()
            }
        }
        heldBack.withLock { $0.append { task(tasks - 1) } }
        for _ in 0..<(tasks - 1) { done.wait() }
    }
}
