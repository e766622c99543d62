import Dispatch
import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked (caught by the cancellation check). Seed 001's pattern on a running queue: items
/// are submitted, allowed to start, then cancelled. A per-item claim keeps the group balanced (whoever claims first
/// leaves), but an item that had started runs although cancelled.
///
/// Caught in every batch, at any speed: it cancels only once the first item to be cancelled has run its task, so
/// that item has always run by the time the wait returns.
package final class RacyCancelBatch: CancellableBatch {
    private let queue = DispatchQueue(label: "broken.racy-cancel", attributes: .concurrent)

    package init() {}

    package func run(tasks: Int, cancelling shouldCancel: (Int) -> Bool, deadline: DispatchTime,
                     _ task: @escaping @Sendable (Int) -> Void) -> DispatchTimeoutResult {
        let group = DispatchGroup()
        let claims = (0..<tasks).map { _ in AtomicCounter() }
        let firstCancelled = (0..<tasks).first(where: shouldCancel)
        let firstCancelledRan = DispatchSemaphore(value: 0)
        var items: [DispatchWorkItem] = []
        for index in 0..<tasks {
            group.enter()
            let item = DispatchWorkItem {
                task(index)
                if index == firstCancelled { firstCancelledRan.signal() }
                if claims[index].value.exchange(1, ordering: .sequentiallyConsistent) == 0 { group.leave() }
            }
            items.append(item)
            queue.async(execute: item)
        }
        if firstCancelled != nil { firstCancelledRan.wait() }  // the items start meanwhile
        for (index, item) in items.enumerated() where shouldCancel(index) {
            item.cancel()
            if claims[index].value.exchange(1, ordering: .sequentiallyConsistent) == 0 { group.leave() }
        }
        return group.wait(timeout: deadline)
    }
}
