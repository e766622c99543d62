import Dispatch
import Foundation
import Synchronization
import SyncVariants

// The invariant checks of the waiting family. Each returns what it saw instead of asserting, so that the tests
// can demand "no violation" from the real variants and "a violation" from the negative controls beside them.

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
    let finished = DispatchGroup()
    for index in 0..<count {
        finished.enter()
        let thread = Thread {
            body(index)
            finished.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    return finished.wait(timeout: .now() + timeout) == .success
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

/// A throttle never runs more than `limit` tasks at once, and still runs each exactly once before returning.
/// Every task sleeps briefly while counted in flight, so that tasks overlap whenever the throttle lets them.
package func throttleViolations(_ waiter: any TaskWaiter, limit: Int, tasks: Int = 48) -> [String] {
    let inFlight = Atomic<Int>(0)
    let mostInFlight = Atomic<Int>(0)
    let ledger = TaskLedger(tasks: tasks)
    let finished = onThreads(1, timeout: 30) { _ in
        waiter.run(tasks: tasks) { task in
            let now = inFlight.add(1, ordering: .sequentiallyConsistent).newValue
            mostInFlight.max(now, ordering: .sequentiallyConsistent)
            usleep(200)
            inFlight.subtract(1, ordering: .sequentiallyConsistent)
            ledger.record(task)
        }
    }
    guard finished else { return ["the throttle did not return within 30 s"] }
    let most = mostInFlight.load(ordering: .sequentiallyConsistent)
    return (most > limit ? ["\(most) tasks in flight with limit \(limit)"] : []) + ledger.mismatches { _ in 1 }
}

/// What a handoff run saw.
package struct HandoffReport {
    package var completedRoundTrips: Int
    /// No round trip completed for `stallSeconds`: a lost wake-up left both threads asleep.
    package var stalled: Bool
}

/// No lost wake-ups: two threads complete `roundTrips` ping-pongs; a stretch of `stallSeconds` without one
/// completed round trip is a stall. On a stall the threads are told to stop and `rescue` is called until they
/// have (a correct handoff never needs it; a broken one offers a way to wake its sleepers).
package func handoffReport(
    _ handoff: any Handoff,
    roundTrips: Int,
    stallSeconds: Double = 2,
    rescue: @escaping @Sendable () -> Void = {}
) -> HandoffReport {
    let completed = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    let exited = DispatchGroup()
    for role in 0..<2 {
        exited.enter()
        Thread {
            for _ in 0..<roundTrips where !stop.load(ordering: .relaxed) {
                if role == 0 {
                    handoff.ping()
                    completed.add(1, ordering: .relaxed)
                } else {
                    handoff.pong()
                }
            }
            exited.leave()
        }.start()
    }
    var seen = -1
    while exited.wait(timeout: .now() + stallSeconds) == .timedOut {
        let now = completed.load(ordering: .relaxed)
        if now == seen {
            stop.store(true, ordering: .relaxed)
            for _ in 0..<500 {
                rescue()
                if exited.wait(timeout: .now() + 0.01) == .success { break }
            }
            return HandoffReport(completedRoundTrips: now, stalled: true)
        }
        seen = now
    }
    return HandoffReport(completedRoundTrips: completed.load(ordering: .relaxed), stalled: false)
}

/// `wait(timeout:)` tells the truth: `.timedOut` when the tasks are held past the deadline, `.success` (with every
/// task run exactly once) when they can finish in time.
package func timeoutViolations(_ waiter: any TimedTaskWaiter) -> [String] {
    var violations: [String] = []
    let gate = DispatchSemaphore(value: 0)
    let held = 2
    let heldResult = waiter.run(tasks: held, deadline: .now() + .milliseconds(50)) { _ in
        _ = gate.wait(timeout: .now() + .seconds(10))
    }
    for _ in 0..<held { gate.signal() }
    if heldResult != .timedOut { violations.append("held tasks: \(heldResult), expected timedOut") }

    let ledger = TaskLedger(tasks: 64)
    let freeResult = waiter.run(tasks: 64, deadline: .now() + .seconds(10)) { ledger.record($0) }
    if freeResult != .success { violations.append("free tasks: \(freeResult), expected success") }
    return violations + ledger.mismatches { _ in 1 }
}

/// The shape of seed 001's cancellable batch, so that the real one and a broken one go through the same check.
package protocol CancellableBatch: Sendable {
    func run(tasks: Int, cancelling shouldCancel: (Int) -> Bool, deadline: DispatchTime,
             _ task: @escaping @Sendable (Int) -> Void) -> DispatchTimeoutResult
}

extension CancellableWorkItemBatch: CancellableBatch {}

/// Cancelled work items never run and the group still balances: every third item is cancelled; the wait must
/// succeed, with each other item run exactly once and no cancelled one run, then or a little later.
package func cancellationViolations(_ batch: any CancellableBatch, tasks: Int = 64, rounds: Int = 50) -> [String] {
    let cancelled: (Int) -> Bool = { $0 % 3 == 0 }
    for round in 0..<rounds {
        let ledger = TaskLedger(tasks: tasks)
        let result = batch.run(tasks: tasks, cancelling: cancelled, deadline: .now() + .seconds(10)) {
            ledger.record($0)
        }
        if result != .success { return ["round \(round): the group did not balance (\(result))"] }
        var wrong = ledger.mismatches { cancelled($0) ? 0 : 1 }
        if wrong.isEmpty {
            usleep(1_000)  // a cancelled item that runs late is caught too
            wrong = ledger.mismatches { cancelled($0) ? 0 : 1 }
        }
        if !wrong.isEmpty { return ["round \(round): \(wrong.prefix(3).joined(separator: ", "))"] }
    }
    return []
}

/// Whether `operation` finishes as its queue sees it: a marker operation that depends on it must run within
/// `timeout` seconds. The queue is returned so that the caller keeps a stuck operation's queue alive.
package func finishesOnQueue(_ operation: Operation, timeout: Double = 2) -> (finished: Bool, queue: OperationQueue) {
    let queue = OperationQueue()
    let markerRan = DispatchSemaphore(value: 0)
    let marker = BlockOperation { markerRan.signal() }
    marker.addDependency(operation)
    queue.addOperations([operation, marker], waitUntilFinished: false)
    let finished = markerRan.wait(timeout: .now() + timeout) == .success
    return (finished && operation.isFinished, queue)
}

/// Seed 004's dependency graph: operation 3 depends on 1 (slow asynchronous work) and 2 (quick asynchronous
/// work) and must start only after both have *really* finished their work. `make(work:delay:)` builds an operation
/// that runs `work` asynchronously after `delay` seconds. Returns the violations seen.
package func dependencyViolations(
    make: (_ delay: Double, _ work: @escaping @Sendable () -> Void) -> Operation,
    rounds: Int = 5
) -> [String] {
    for round in 0..<rounds {
        let firstDone = Atomic<Bool>(false)
        let secondDone = Atomic<Bool>(false)
        let sawBoth = Atomic<Int>(-1)
        let third = BlockOperation {
            let both = firstDone.load(ordering: .sequentiallyConsistent) && secondDone.load(ordering: .sequentiallyConsistent)
            sawBoth.store(both ? 1 : 0, ordering: .sequentiallyConsistent)
        }
        let first = make(0.02) { firstDone.store(true, ordering: .sequentiallyConsistent) }
        let second = make(0) { secondDone.store(true, ordering: .sequentiallyConsistent) }
        third.addDependency(second)
        third.addDependency(first)
        let queue = OperationQueue()
        queue.addOperations([second, third, first], waitUntilFinished: false)
        let deadline = Date().addingTimeInterval(5)
        while sawBoth.load(ordering: .sequentiallyConsistent) == -1 && Date() < deadline { usleep(1_000) }
        switch sawBoth.load(ordering: .sequentiallyConsistent) {
        case -1: return ["round \(round): the dependent operation never ran"]
        case 0: return ["round \(round): the dependent operation started before its dependencies' work was done"]
        default: continue
        }
    }
    return []
}

/// Runs a blocking check on a plain thread and awaits its result.
///
/// On Linux, Swift concurrency's global executor runs on GCD's global queues, so a test that blocked its own
/// thread would hold one of the default-QoS pool's threads (one of two on a two-core machine) and halve the width
/// every GCD variant under test gets. Awaiting a plain thread leaves the pool whole.
package func onPlainThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
