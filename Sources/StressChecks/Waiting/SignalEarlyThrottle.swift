import Dispatch
import Foundation
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked (caught by the limit check). A semaphore throttle that gives its slot back
/// before running the work instead of after: no limit at all.
package final class SignalEarlyThrottle: TaskWaiter {
    private let queue = DispatchQueue(label: "broken.signal-early", attributes: .concurrent)
    private let slots: DispatchSemaphore

    package init(limit: Int) {
        slots = DispatchSemaphore(value: limit)
    }

    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        let slots = self.slots
        for index in 0..<tasks {
            queue.async(group: group) {
                slots.wait()
                slots.signal()
                task(index)
            }
        }
        group.wait()
    }
}
