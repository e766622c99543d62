import Dispatch
import Foundation
import Synchronization
import SyncVariants

// Deliberately broken waiters, kept here and never in SyncVariants or the benchmarks. Each must be caught by the
// same check that the real variants pass; each widens its race window so that it is caught reliably.

/// Returns before its last task has finished: waits for `tasks - 1` signals (none for one task). The last
/// task sleeps a little first, so that it is still running when the waiter returns.
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

/// A semaphore throttle that gives its slot back before running the work instead of after: no limit at all.
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

/// A group waiter that ignores what `wait(timeout:)` returned and reports success.
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

/// A condition-variable handoff whose responder checks the flag without the mutex and then waits once: a ping
/// that lands between the check and the wait is lost, and both threads sleep for ever. `sched_yield()` widens
/// that window. `rescue()` wakes the sleepers so that a test can end the threads.
package final class LostWakeupHandoff: Handoff, @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// 0: the initiator's turn, 1: the responder's. Atomic so that the broken unlocked read is not also a data race.
    private let turn = Atomic<Int>(0)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func ping() {
        pthread_mutex_lock(mutex)
        turn.store(1, ordering: .sequentiallyConsistent)
        pthread_cond_signal(condition)
        while turn.load(ordering: .sequentiallyConsistent) != 0 { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    package func pong() {
        if turn.load(ordering: .sequentiallyConsistent) != 1 {
            sched_yield()
            pthread_mutex_lock(mutex)
            pthread_cond_wait(condition, mutex)
            pthread_mutex_unlock(mutex)
        }
        pthread_mutex_lock(mutex)
        turn.store(0, ordering: .sequentiallyConsistent)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    package func rescue() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}

/// Seed 001's pattern on a running queue: items are submitted, allowed to start, then cancelled. A per-item claim
/// keeps the group balanced (whoever claims first leaves), but an item that had started runs although cancelled.
package final class RacyCancelBatch: CancellableBatch {
    private let queue = DispatchQueue(label: "broken.racy-cancel", attributes: .concurrent)

    package init() {}

    package func run(tasks: Int, cancelling shouldCancel: (Int) -> Bool, deadline: DispatchTime,
             _ task: @escaping @Sendable (Int) -> Void) -> DispatchTimeoutResult {
        let group = DispatchGroup()
        let claims = (0..<tasks).map { _ in AtomicCounter() }
        var items: [DispatchWorkItem] = []
        for index in 0..<tasks {
            group.enter()
            let item = DispatchWorkItem {
                task(index)
                if claims[index].value.exchange(1, ordering: .sequentiallyConsistent) == 0 { group.leave() }
            }
            items.append(item)
            queue.async(execute: item)
        }
        usleep(1_000)  // the items start meanwhile
        for (index, item) in items.enumerated() where shouldCancel(index) {
            item.cancel()
            if claims[index].value.exchange(1, ordering: .sequentiallyConsistent) == 0 { group.leave() }
        }
        return group.wait(timeout: deadline)
    }
}

/// Seed 004's `AbstractOperation` as published, adapted to Linux only where it could not compile (`#keyPath` and
/// `keyPathsForValuesAffecting…` need the Objective-C runtime, so it notifies `isExecuting`/`isFinished` itself).
/// Its guard `if _state == .isFinished` is kept: the state never leaves `.isReady`, so it never finishes.
package final class SeedInvertedGuardOperation: Operation, @unchecked Sendable {
    package enum State { case isReady, isExecuting, isFinished }

    private let stateLock = NSLock()
    private var _state = State.isReady
    private let work: @Sendable (_ finish: @escaping @Sendable () -> Void) -> Void

    package init(_ work: @escaping @Sendable (_ finish: @escaping @Sendable () -> Void) -> Void) {
        self.work = work
        super.init()
    }

    package var state: State {
        get {
            stateLock.lock()
            defer { stateLock.unlock() }
            return _state
        }
        set {
            willChangeValue(forKey: "isExecuting")
            willChangeValue(forKey: "isFinished")
            stateLock.lock()
            if _state == .isFinished {  // the seed's inverted guard
                _state = newValue
            }
            stateLock.unlock()
            didChangeValue(forKey: "isFinished")
            didChangeValue(forKey: "isExecuting")
        }
    }

    package override var isAsynchronous: Bool { true }
    package override var isExecuting: Bool { state == .isExecuting }
    package override var isFinished: Bool { state == .isFinished }

    package override func start() {
        if isCancelled {
            state = .isFinished
            return
        }
        state = .isExecuting
        main()
    }

    package override func main() {
        work { [self] in state = .isFinished }
    }
}

/// An asynchronous operation that calls `finish()` as soon as it has started its work, not when the work is done:
/// the queue starts its dependents too early.
package final class EarlyFinishOperation: AsyncOperation, @unchecked Sendable {
    private let work: @Sendable (_ finish: @escaping @Sendable () -> Void) -> Void

    package init(_ work: @escaping @Sendable (_ finish: @escaping @Sendable () -> Void) -> Void) {
        self.work = work
        super.init()
    }

    package override func main() {
        work {}
        finish()
    }
}
