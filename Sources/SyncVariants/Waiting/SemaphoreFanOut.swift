import Dispatch

/// Fan-out with a counting semaphore (`fan-out/semaphore`): every task signals once when it is done and the
/// waiter waits once per task, the seed's "semaphore in a unit test" scaled up to many tasks.
///
/// Each call uses its own semaphore, so concurrent callers never consume each other's signals.
/// Thread-safe: the queue is the only shared state.
@usableFromInline
package final class SemaphoreFanOut: TimedTaskWaiter {
    private let queue: DispatchQueue

    /// Runs tasks on `queue` (by default a private concurrent queue, which GCD serves from its pool of about
    /// one thread per core).
    @usableFromInline
    package init(queue: DispatchQueue = DispatchQueue(label: "dispatchbench.wait.semaphore", attributes: .concurrent)) {
        self.queue = queue
    }

    @usableFromInline
    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        for index in 0..<tasks {
            queue.async {
                task(index)
                done.signal()
            }
        }
        for _ in 0..<tasks { done.wait() }
    }

    @usableFromInline
    package func run(tasks: Int, deadline: DispatchTime, _ task: @escaping @Sendable (Int) -> Void) -> DispatchTimeoutResult {
        let done = DispatchSemaphore(value: 0)
        for index in 0..<tasks {
            queue.async {
                task(index)
                done.signal()
            }
        }
        // One deadline for the whole batch, not one per signal.
        for _ in 0..<tasks where done.wait(timeout: deadline) == .timedOut { return .timedOut }
        return .success
    }
}
