import Foundation

/// At most `limit` tasks in flight with an `OperationQueue`'s `maxConcurrentOperationCount`
/// (`throttle/operation-queue-limit`), the built-in equivalent of the semaphore throttle that seed 003 points to.
///
/// Tasks wait inside the queue, not on a thread. One `BlockOperation` per task, added with
/// `addOperations(_:waitUntilFinished: true)`; creating them is part of the cost. Thread-safe; concurrent callers
/// share one limit.
@usableFromInline
package final class OperationQueueLimitThrottle: TaskWaiter {
    /// The most tasks that run at the same time.
    @usableFromInline
    package let limit: Int
    private let queue: OperationQueue

    @usableFromInline
    package init(limit: Int) {
        precondition(limit >= 1, "a throttle lets at least one task run")
        self.limit = limit
        queue = OperationQueue()
        queue.name = "dispatchbench.wait.operation-queue-limit"
        queue.maxConcurrentOperationCount = limit
    }

    @usableFromInline
    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let operations = (0..<tasks).map { index in BlockOperation { task(index) } }
        queue.addOperations(operations, waitUntilFinished: true)
    }
}
