import Dispatch
import Foundation
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked (caught by the timeout check). A group waiter that ignores what `wait(timeout:)`
/// returned and reports success.
///
/// Caught in every run, at any speed: the check holds its tasks on a gate until the wait has returned, so the wait
/// can only time out, and this waiter says `.success` whatever happened.
package final class IgnoresTimeoutFanOut: TimedTaskWaiter {
    private let inner = GroupWaitFanOut()

    package init() {}

    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        inner.run(tasks: tasks, task)
    }

    package func run(tasks: Int, deadline: DispatchTime, _ task: @escaping @Sendable (Int) -> Void) -> DispatchTimeoutResult {
        _ = inner.run(tasks: tasks, deadline: deadline, task)
        return .success
    }
}
