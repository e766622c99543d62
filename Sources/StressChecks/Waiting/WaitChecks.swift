import BenchPlatform
import Dispatch
import Foundation
import Synchronization
import SyncVariants

// What the waiting family's checks share, and the fan-out and throttle checks. Each check returns what it saw
// instead of asserting, so that the tests and `bench stress` can demand "nothing forbidden" from the real variants
// and "something forbidden" from the negative controls beside them.

/// One atomic counter, boxed so that a batch can hold one per task.
package final class AtomicCounter: Sendable {
    package let value = Atomic<Int>(0)
}

/// How many times each task of one batch has run so far. Thread-safe.
package final class TaskLedger: Sendable {
    private let counts: [AtomicCounter]

    package init(tasks: Int) {
        counts = (0..<tasks).map { _ in AtomicCounter() }
    }

    package func record(_ task: Int) {
        counts[task].value.add(1, ordering: .sequentiallyConsistent)
        StressPulse.beat()
    }

    package func runs(of task: Int) -> Int {
        counts[task].value.load(ordering: .sequentiallyConsistent)
    }

    /// The tasks whose run count is not `expected(task)`, as "task: runs" strings.
    package func mismatches(expected: (Int) -> Int) -> [String] {
        counts.indices.compactMap { task in
            let runs = runs(of: task)
            return runs == expected(task) ? nil : "task \(task) ran \(runs)x"
        }
    }
}

/// Runs `body(thread)` on `count` real threads at once and waits for all of them, for at most `timeout` seconds.
/// Returns false when they did not all finish in time (they are left running).
package func onThreads(_ count: Int, timeout: Double, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    onThreads(count, timeout: timeout, returning: body).allSatisfy { $0 != nil }
}

/// Runs `body(thread)` on `count` real threads at once and waits for all of them, for at most `timeout` seconds.
/// Returns each thread's result in thread order, nil for a thread that did not finish in time (it is left running).
///
/// Each result comes back through the join, in a slot of its thread's own, not through a lock the threads share:
/// ThreadSanitizer sees the join (it intercepts `dispatch_group_leave` and `dispatch_group_wait`) but not a
/// contended `Mutex` (docs/thread-sanitizer.md). A slot's lock is taken once by its thread and once by the caller.
package func onThreads<Result: Sendable>(_ count: Int, timeout: Double,
                                         returning body: @escaping @Sendable (Int) -> Result) -> [Result?] {
    let slots = (0..<count).map { _ in ResultSlot<Result>() }
    let finished = DispatchGroup()
    for index in 0..<count {
        finished.enter()
        let thread = Thread { [slot = slots[index]] in
            let result = body(index)
            slot.value.withLock { $0 = result }
            finished.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    _ = finished.wait(timeout: .now() + timeout)
    return slots.map { slot in slot.value.withLock { $0 } }
}

/// One thread's result, set once by the thread.
private final class ResultSlot<Result: Sendable>: Sendable {
    let value = Mutex<Result?>(nil)
}

/// Every task ran exactly once before the wait returned: `waiters` threads each run `rounds` batches of `tasks`
/// through `waiter` at the same time, and the moment `run` returns, every task of the batch must have run once.
/// Stops at the first violation. Returns the violations seen (empty when the waiter held).
package func exactlyOnceViolations(_ waiter: any TaskWaiter, tasks: Int, waiters: Int = 3, rounds: Int) -> [String] {
    let violations = Mutex<[String]>([])
    let finished = onThreads(waiters, timeout: 30) { _ in
        for round in 0..<rounds {
            let ledger = TaskLedger(tasks: tasks)
            waiter.run(tasks: tasks) { ledger.record($0) }
            let wrong = ledger.mismatches { _ in 1 }
            if !wrong.isEmpty {
                violations.withLock { $0.append("round \(round): \(wrong.prefix(3).joined(separator: ", "))") }
            }
            if violations.withLock({ !$0.isEmpty }) { return }
        }
    }
    return violations.withLock { $0 } + (finished ? [] : ["a waiter did not return within 30 s"])
}

/// Tasks in one batch of the throttle check.
package let throttleTasks = 48

/// A throttle never runs more than `limit` tasks at once, and still runs each exactly once before returning.
///
/// With `holdingFirst`, the first `limit` tasks to start stay in flight until a further task starts beside them,
/// or until `ControlRendezvous.patience` after the batch began when none does: a throttle that lets one task too
/// many through is seen doing it whenever it starts that task at all, not only when two tasks happen to overlap. A
/// correct throttle pays that wait once per such batch. Every other task stays busy for 5 to 40 µs while counted in
/// flight, and each one's end frees a slot that the tasks waiting for one race for: the windows a throttle that
/// checks and then increments loses.
package func throttleViolations(_ waiter: any TaskWaiter, limit: Int, tasks: Int = throttleTasks,
                                holdingFirst: Bool = true) -> [String] {
    let inFlight = Atomic<Int>(0)
    let mostInFlight = Atomic<Int>(0)
    let started = Atomic<Int>(0)
    let firstOnesHeld = DispatchSemaphore(value: 0)
    let holdEnds = DispatchTime.now() + ControlRendezvous.patience
    let ledger = TaskLedger(tasks: tasks)
    let finished = onThreads(1, timeout: 30 + ControlRendezvous.patience) { _ in
        waiter.run(tasks: tasks) { task in
            let now = inFlight.add(1, ordering: .sequentiallyConsistent).newValue
            if now > limit && mostInFlight.load(ordering: .sequentiallyConsistent) <= limit {
                for _ in 0..<limit { firstOnesHeld.signal() }  // nothing more to wait for
            }
            mostInFlight.max(now, ordering: .sequentiallyConsistent)
            if holdingFirst && started.add(1, ordering: .sequentiallyConsistent).newValue <= limit {
                _ = firstOnesHeld.wait(timeout: holdEnds)
            } else {
                // Busy for 5 to 40 µs, varied by task: slots free at every offset from the waiters' looks.
                Platform.busyWait(nanoseconds: 5_000 + UInt64(task &* 7_919 % 36) * 1_000)
            }
            inFlight.subtract(1, ordering: .sequentiallyConsistent)
            ledger.record(task)
        }
    }
    guard finished else { return ["the throttle did not return within 30 s"] }
    let most = mostInFlight.load(ordering: .sequentiallyConsistent)
    return (most > limit ? ["\(most) tasks in flight with limit \(limit)"] : []) + ledger.mismatches { _ in 1 }
}
