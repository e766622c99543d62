import Dispatch
import Foundation
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked (caught by the exactly-once check). Returns before its last task has finished:
/// waits for `tasks - 1` signals (none for one task). The last task sleeps a little first, so that it is still running
/// when the waiter returns.
package final class EarlyReturnFanOut: TaskWaiter {
    private let queue = DispatchQueue(label: "broken.early-return", attributes: .concurrent)

    package init() {}

    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        for index in 0..<tasks {
            queue.async {
                if index == tasks - 1 { usleep(500) }
                task(index)
                done.signal()
            }
        }
        for _ in 0..<(tasks - 1) { done.wait() }
    }
}
