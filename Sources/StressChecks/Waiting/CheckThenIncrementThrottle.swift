import BenchPlatform
import Dispatch
import Synchronization
import SyncVariants

/// RACY NEGATIVE CONTROL, never benchmarked (caught by the limit check): a throttle on the global queue whose
/// tasks wait while the running count is at the limit, then increment it, in two steps: a load, then an add.
/// Two tasks that both load a count below the limit before either adds both run: more than `limit` at once.
///
/// Unlike `SignalEarlyThrottle`, it holds its limit whenever its tasks do not meet at the moment a slot frees;
/// the limit check's power against it is measured, not promised (`StressCatalog.throttlePower`).
package final class CheckThenIncrementThrottle: TaskWaiter {
    private let limit: Int
    private let running = Atomic<Int>(0)

    package init(limit: Int) {
        self.limit = limit
    }

    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<tasks {
            DispatchQueue.global().async(group: group) { [self] in
                while running.load(ordering: .acquiring) >= limit { Platform.yieldProcessor() }  // check …
                running.add(1, ordering: .acquiringAndReleasing)  // … then act: the bug
                task(index)
                running.subtract(1, ordering: .releasing)
            }
        }
        group.wait()
    }
}
