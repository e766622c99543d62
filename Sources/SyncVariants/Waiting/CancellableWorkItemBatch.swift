import Dispatch

/// Seed 001's batch with cancellation: one `DispatchWorkItem` per task, a group entered per item and left by the
/// item when it runs, and for each item cancelled one `leave` by the canceller, so the group balances whichever
/// items run.
///
/// `cancel()` only stops an item that has not started; an item cancelled while running runs to the end (and
/// would leave the group a second time). The seed was safe only because its queue, the main queue, was busy
/// running the canceller. Here the items go to a per-call queue created inactive (targeting the shared queue),
/// and are cancelled before it is activated, so the choice of which items run is exact.
/// Thread-safe: each call has its own group and inactive queue.
@usableFromInline
package final class CancellableWorkItemBatch: Sendable {
    private let queue: DispatchQueue

    /// Runs the items on `queue` (by default a private concurrent queue).
    @usableFromInline
    package init(queue: DispatchQueue = DispatchQueue(label: "dispatchbench.wait.cancellable", attributes: .concurrent)) {
        self.queue = queue
    }

    /// Submits `task(0)` … `task(tasks - 1)` as work items, cancels those for which `shouldCancel` is true, and
    /// waits until the group balances or `deadline` passes. On `.success` every item not cancelled has run
    /// exactly once and no cancelled item has run or will run.
    @usableFromInline
    package func run(
        tasks: Int,
        cancelling shouldCancel: (Int) -> Bool,
        deadline: DispatchTime,
        _ task: @escaping @Sendable (Int) -> Void
    ) -> DispatchTimeoutResult {
        let group = DispatchGroup()
        let gate = DispatchQueue(label: "dispatchbench.wait.cancellable.batch",
                                 attributes: [.concurrent, .initiallyInactive], target: queue)
        var items: [DispatchWorkItem] = []
        items.reserveCapacity(tasks)
        for index in 0..<tasks {
            group.enter()
            let item = DispatchWorkItem {
                task(index)
                group.leave()
            }
            items.append(item)
            gate.async(execute: item)
        }
        for (index, item) in items.enumerated() where shouldCancel(index) {
            item.cancel()
            group.leave()
        }
        gate.activate()
        return group.wait(timeout: deadline)
    }
}
