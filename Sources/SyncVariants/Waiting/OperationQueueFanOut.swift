import Foundation

/// Fan-out with an `OperationQueue` (`fan-out/operation-queue`): one `BlockOperation` per task, added with
/// `addOperations(_:waitUntilFinished: true)`, which blocks until those operations have finished.
///
/// Creating the operations is part of this pattern's cost (each is an object with a lock and KVO-able state),
/// and is counted. The queue's width is left to the system (`maxConcurrentOperationCount` default).
/// Thread-safe: `OperationQueue` is; each call waits for its own operations only.
@usableFromInline
package final class OperationQueueFanOut: TaskWaiter {
    private let queue: OperationQueue

    @usableFromInline
    package init() {
        queue = OperationQueue()
        queue.name = "dispatchbench.wait.operation-queue"
    }

    @usableFromInline
    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let operations = (0..<tasks).map { index in BlockOperation { task(index) } }
        queue.addOperations(operations, waitUntilFinished: true)
    }
}
