import Dispatch
import Foundation
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked (caught by the limit check). A semaphore throttle that gives its slot back
/// before running the work instead of after: no limit at all.
///
/// Caught in every run, at any speed: each task runs on a thread of its own (no pool whose width could happen to
/// keep the tasks apart), so while the limit check holds the first tasks in flight, the next one always gets in.
package final class SignalEarlyThrottle: TaskWaiter {
    private let slots: DispatchSemaphore

    package init(limit: Int) {
        slots = DispatchSemaphore(value: limit)
    }

    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        let slots = self.slots
        for index in 0..<tasks {
            group.enter()
            Thread {
                slots.wait()
                slots.signal()
                task(index)
                group.leave()
            }.start()
        }
        group.wait()
    }
}
