import Dispatch

/// A way to run a batch of tasks and block the calling thread until every one of them has finished: the
/// shape shared by the fan-out and throttle variants, so that one correctness check covers them all.
public protocol TaskWaiter: Sendable {
    /// Runs `task(0)` … `task(tasks - 1)`, each exactly once and possibly in parallel, and returns only after
    /// every one of them has returned. Safe to call from several threads at once.
    func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void)
}

/// A `TaskWaiter` whose wait can give up: the `wait(timeout:)` form of the same pattern.
public protocol TimedTaskWaiter: TaskWaiter {
    /// Starts `task(0)` … `task(tasks - 1)` like `run(tasks:_:)` and waits until all have finished or
    /// `deadline` passes. `.success` promises that every task has returned; after `.timedOut` the remaining
    /// tasks still run to completion later, on their own.
    func run(tasks: Int, deadline: DispatchTime, _ task: @escaping @Sendable (Int) -> Void) -> DispatchTimeoutResult
}
