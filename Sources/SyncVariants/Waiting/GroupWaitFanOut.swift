import Dispatch

/// Fan-out with a dispatch group and a blocking wait (`fan-out/group-wait`): tasks are submitted with
/// `async(group:)` (the group is entered on submission and left when the task returns) and the waiter blocks in
/// `group.wait()`, as in seed 003's `dispatch_group_async` + `dispatch_group_wait`.
///
/// Each call uses its own group. Thread-safe: the queue is the only shared state.
@usableFromInline
package final class GroupWaitFanOut: TimedTaskWaiter {
    private let queue: DispatchQueue

    /// Runs tasks on `queue` (by default a private concurrent queue).
    @usableFromInline
    package init(queue: DispatchQueue = DispatchQueue(label: "dispatchbench.wait.group-wait", attributes: .concurrent)) {
        self.queue = queue
    }

    @usableFromInline
    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<tasks {
            queue.async(group: group) { task(index) }
        }
        group.wait()
    }

    @usableFromInline
    package func run(tasks: Int, deadline: DispatchTime, _ task: @escaping @Sendable (Int) -> Void) -> DispatchTimeoutResult {
        let group = DispatchGroup()
        for index in 0..<tasks {
            queue.async(group: group) { task(index) }
        }
        return group.wait(timeout: deadline)
    }
}
