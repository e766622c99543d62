import Dispatch

/// Fan-out with a dispatch group and `notify` (`fan-out/group-notify`): tasks are submitted with
/// `async(group:)` and the group's `notify` block runs once all have left, as in seeds 001 and 004.
///
/// `notify` is made for callers that must not block; a benchmark thread has to learn about completion
/// somehow, so here the notify block signals a semaphore the caller waits on. What this variant costs beyond
/// `group-wait` is therefore the notify block's submission and run plus one semaphore handoff: exactly the
/// price of handing completion back to a waiting thread.
///
/// Each call uses its own group and semaphore. Thread-safe: the queue is the only shared state.
@usableFromInline
package final class GroupNotifyFanOut: TaskWaiter {
    private let queue: DispatchQueue

    /// Runs tasks, and the notify block, on `queue` (by default a private concurrent queue).
    @usableFromInline
    package init(queue: DispatchQueue = DispatchQueue(label: "dispatchbench.wait.group-notify", attributes: .concurrent)) {
        self.queue = queue
    }

    @usableFromInline
    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        let done = DispatchSemaphore(value: 0)
        for index in 0..<tasks {
            queue.async(group: group) { task(index) }
        }
        group.notify(queue: queue) { done.signal() }
        done.wait()
    }
}
