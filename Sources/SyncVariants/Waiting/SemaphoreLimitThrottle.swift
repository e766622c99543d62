import Dispatch

/// At most `limit` tasks in flight with a counting semaphore (`throttle/semaphore-limit`): seed 003's
/// `LimitedWorker`. Every task is submitted at once to a concurrent queue, and each block first waits on a
/// semaphore created with `limit` and signals it when its work is done; a group tells the caller when all are done.
///
/// As in the seed, the waiting happens on GCD's worker threads: blocks beyond the limit occupy a pool thread
/// while they wait, which is part of what this pattern costs (and on Darwin a cause of thread explosion).
/// Thread-safe; concurrent callers share one limit.
@usableFromInline
package final class SemaphoreLimitThrottle: TaskWaiter {
    /// The most tasks that run at the same time.
    @usableFromInline
    package let limit: Int
    private let queue: DispatchQueue
    private let slots: DispatchSemaphore

    @usableFromInline
    package init(limit: Int) {
        precondition(limit >= 1, "a throttle lets at least one task run")
        self.limit = limit
        queue = DispatchQueue(label: "dispatchbench.wait.semaphore-limit", attributes: .concurrent)
        slots = DispatchSemaphore(value: limit)
    }

    /// Submits one piece of work; it starts once fewer than `limit` others are running. `group`, when given,
    /// is entered until the work has finished.
    @usableFromInline
    package func enqueueWork(group: DispatchGroup? = nil, _ work: @escaping @Sendable () -> Void) {
        let slots = self.slots
        queue.async(group: group) {
            slots.wait()
            work()
            slots.signal()
        }
    }

    @usableFromInline
    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<tasks {
            enqueueWork(group: group) { task(index) }
        }
        group.wait()
    }
}
