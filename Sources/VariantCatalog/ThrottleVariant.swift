/// The catalog of `wait/throttle`: every way the seeds keep at most `limit` tasks in flight.
package enum ThrottleVariant: String, VariantCatalog {
    case semaphoreLimit = "semaphore-limit"
    case operationQueueLimit = "operation-queue-limit"
    case serialWorker = "serial-worker"

    /// The one benchmark these variants join.
    package enum Benchmark: String, CaseIterable, Hashable, Sendable {
        case throttle
    }

    package static let suite = "wait"
    package static let summaryHeading = "how the limit is kept"

    package var summary: String {
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
}
