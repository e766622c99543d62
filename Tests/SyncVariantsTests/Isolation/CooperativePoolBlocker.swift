import Dispatch
import Foundation
import Synchronization

/// Holds every thread of Swift's cooperative pool blocked, on purpose, while `body` runs on the calling (plain)
/// thread, then lets them go: for tests that must prove a check makes progress without the pool.
///
/// The pool is as wide as the machine has cores (on Linux, GCD's default-QoS root queue, which does not add
/// threads when its threads block). Call it from a plain thread only (`onPlainThread`): an async caller would
/// need a pool thread to resume.
enum CooperativePoolBlocker {
    struct Blocked {
        /// Whether every pool thread was held: a task that needs the pool did not run within `probeSeconds`.
        var poolWasBlocked: Bool
    }

    static let probeSeconds = 0.2

    static func whileBlocked<T>(_ body: (Blocked) -> T) -> T {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        for _ in 0..<width {
            Task.detached {
                started.signal()
                release.wait()
            }
        }
        // Other work in the process may hold pool threads for a while: wait for each blocker to get one.
        for _ in 0..<width { started.wait() }

        let probeRan = Atomic<Bool>(false)
        Task.detached { probeRan.store(true, ordering: .releasing) }
        Thread.sleep(forTimeInterval: probeSeconds)
        let blocked = Blocked(poolWasBlocked: !probeRan.load(ordering: .acquiring))

        let result = body(blocked)
        for _ in 0..<width { release.signal() }
        return result
    }
}
