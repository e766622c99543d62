/// The catalog of `wait/fan-out`: every way the seeds wait for a batch of tasks to finish.
package enum FanOutVariant: String, VariantCatalog {
    case semaphore
    case groupWait = "group-wait"
    case groupNotify = "group-notify"
    case concurrentPerform = "concurrent-perform"
    case operationQueue = "operation-queue"
    case taskGroup = "task-group"

    /// The one benchmark these variants join.
    package enum Benchmark: String, CaseIterable, Hashable, Sendable {
        case fanOut = "fan-out"
    }

    package static let suite = "wait"
    package static let summaryHeading = "what the waiter does"

    package var summary: String {
        switch self {
        case .semaphore: "each task signals a semaphore; the waiter waits `tasks` times"
        case .groupWait: "`queue.async(group:)` per task, then `group.wait()`"
        case .groupNotify:
            "`async(group:)`, then `group.notify(queue:)` whose block signals a semaphore the waiter waits on"
        case .concurrentPerform:
            "`DispatchQueue.concurrentPerform(iterations:)` (no queue; the caller runs iterations too)"
        case .operationQueue: "one `BlockOperation` per task, `addOperations(_:waitUntilFinished: true)`"
        case .taskGroup:
            "a `Task` running `withTaskGroup` (one child per task); the waiter blocks on a semaphore until it ends"
        }
    }
}
