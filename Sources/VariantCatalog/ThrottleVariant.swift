import SyncVariants

/// The catalog of `wait/throttle`: every way the seeds keep at most `limit` tasks in flight.
public enum ThrottleVariant: String, VariantCatalog {
    case semaphoreLimit = "semaphore-limit"
    case operationQueueLimit = "operation-queue-limit"
    case serialWorker = "serial-worker"

    /// The one benchmark these variants join.
    public enum Benchmark: String, CaseIterable, Hashable, Sendable {
        case throttle
    }

    public static let suite = "wait"
    public static let summaryHeading = "how the limit is kept"

    /// Hands `visitor` the variant's type and how to make one, with the limits it takes: the one place an id
    /// meets its type.
    @inlinable
    public func accept<Visitor: ThrottleVisitor>(_ visitor: Visitor) -> Visitor.Output {
        switch self {
        case .semaphoreLimit: visitor.anyLimit { SemaphoreLimitThrottle(limit: $0) }
        case .operationQueueLimit: visitor.anyLimit { OperationQueueLimitThrottle(limit: $0) }
        case .serialWorker: visitor.fixedLimit(1) { SerialWorkerThrottle() }
        }
    }

    public var summary: String {
        switch self {
        case .semaphoreLimit:
            "seed 003's `LimitedWorker`: every task is submitted at once; each block waits on a semaphore created "
                + "with `limit`, runs, signals"
        case .operationQueueLimit: "`maxConcurrentOperationCount = limit`"
        case .serialWorker:
            "seed 003's `AsyncSerialWorker` (`limit=1` only): a serial queue whose block waits on a semaphore until "
                + "the asynchronous work calls `done`"
        }
    }

    public var typeName: String? { accept(ThrottleFacts(limit: 1)).typeName }

    public var benchmarks: [Benchmark] { [.throttle] }

    /// Whether the variant can run with at most `limit` tasks in flight: any limit of at least 1, or the one its
    /// design fixes.
    public func supports(limit: Int) -> Bool {
        accept(ThrottleFacts(limit: limit)).supportsLimit
    }

    /// A new instance keeping at most `limit` tasks in flight, as an existential: for code outside any timed loop
    /// (the stress checks). Nil when the variant does not support `limit`.
    public func makeThrottle(limit: Int) -> (any TaskWaiter)? {
        accept(AnyThrottle(limit: limit))
    }
}

/// Receives a throttle variant's concrete type and a way to make one.
public protocol ThrottleVisitor {
    associatedtype Output

    /// A throttle that takes any `limit` of at least 1.
    func anyLimit<Throttle: TaskWaiter>(_ make: (_ limit: Int) -> Throttle) -> Output
    /// A throttle whose design fixes its limit: `wait/throttle` measures it at that limit only.
    func fixedLimit<Throttle: TaskWaiter>(_ limit: Int, _ make: () -> Throttle) -> Output
}

private struct ThrottleFacts: ThrottleVisitor {
    let limit: Int

    func anyLimit<Throttle: TaskWaiter>(_: (Int) -> Throttle) -> (typeName: String, supportsLimit: Bool) {
        (String(describing: Throttle.self), limit >= 1)
    }

    func fixedLimit<Throttle: TaskWaiter>(_ fixed: Int, _: () -> Throttle) -> (typeName: String, supportsLimit: Bool) {
        (String(describing: Throttle.self), limit == fixed)
    }
}

private struct AnyThrottle: ThrottleVisitor {
    let limit: Int

    func anyLimit<Throttle: TaskWaiter>(_ make: (Int) -> Throttle) -> (any TaskWaiter)? {
        limit >= 1 ? make(limit) : nil
    }

    func fixedLimit<Throttle: TaskWaiter>(_ fixed: Int, _ make: () -> Throttle) -> (any TaskWaiter)? {
        limit == fixed ? make() : nil
    }
}
