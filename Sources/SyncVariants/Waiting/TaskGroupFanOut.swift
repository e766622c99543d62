import Dispatch

/// Fan-out with Swift concurrency's task group (`fan-out/task-group`), for comparison with GCD.
///
/// A plain thread cannot `await`, so each call bridges: it starts an unstructured `Task` that runs
/// `withTaskGroup` (one child task per task) and blocks on a semaphore until that `Task` signals. The bridge
/// (one `Task`, one semaphore handoff) is paid once per call, so it weighs on small batches only. Child tasks run
/// on the cooperative pool (one thread per core). Blocking a plain thread this way is fine; blocking a thread of
/// the cooperative pool would not be. Stateless and thread-safe.
@usableFromInline
package struct TaskGroupFanOut: TaskWaiter {
    @usableFromInline
    package init() {}

    @usableFromInline
    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<tasks {
                    group.addTask { task(index) }
                }
            }
            done.signal()
        }
        done.wait()
    }
}
