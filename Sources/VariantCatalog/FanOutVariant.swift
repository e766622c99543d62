import SyncVariants

/// The catalog of `wait/fan-out`: every way the seeds wait for a batch of tasks to finish.
public enum FanOutVariant: String, VariantCatalog {
    case semaphore
    case groupWait = "group-wait"
    case groupNotify = "group-notify"
    case concurrentPerform = "concurrent-perform"
    case operationQueue = "operation-queue"
    case taskGroup = "task-group"

    /// The one benchmark these variants join.
    public enum Benchmark: String, CaseIterable, Hashable, Sendable {
        case fanOut = "fan-out"
    }

    public static let suite = "wait"
    public static let summaryHeading = "what the waiter does"

    /// Hands `visitor` the variant's type and how to make one: the one place an id meets its type.
    @inlinable
    public func accept<Visitor: TaskWaiterVisitor>(_ visitor: Visitor) -> Visitor.Output {
        switch self {
        case .semaphore: visitor.visit { SemaphoreFanOut() }
        case .groupWait: visitor.visit { GroupWaitFanOut() }
        case .groupNotify: visitor.visit { GroupNotifyFanOut() }
        case .concurrentPerform: visitor.visit { ConcurrentPerformFanOut() }
        case .operationQueue: visitor.visit { OperationQueueFanOut() }
        case .taskGroup: visitor.visit { TaskGroupFanOut() }
        }
    }

    public var summary: String {
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

    public var typeName: String? { accept(WaiterTypeName()) }

    public var benchmarks: [Benchmark] { [.fanOut] }

    /// A new instance, as an existential: for code outside any timed loop (the stress checks).
    public func makeWaiter() -> any TaskWaiter {
        accept(AnyWaiter())
    }
}

/// Receives a waiting variant's concrete type, and a way to make one.
public protocol TaskWaiterVisitor {
    associatedtype Output

    func visit<Waiter: TaskWaiter>(_ make: () -> Waiter) -> Output
}

private struct WaiterTypeName: TaskWaiterVisitor {
    func visit<Waiter: TaskWaiter>(_: () -> Waiter) -> String? { String(describing: Waiter.self) }
}

private struct AnyWaiter: TaskWaiterVisitor {
    func visit<Waiter: TaskWaiter>(_ make: () -> Waiter) -> any TaskWaiter { make() }
}
