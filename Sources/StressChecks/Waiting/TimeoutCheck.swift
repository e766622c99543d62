import Dispatch
import SyncVariants

extension Outcome {
    /// The wait gave up at its deadline while its tasks were held past it.
    package static let timedOutWhileHeld = Outcome("timed-out-while-tasks-held", .acceptable)
    /// The wait said every task had finished while they were all still held.
    package static let successWhileHeld = Outcome("success-reported-while-tasks-held", .forbidden)
    /// The wait gave up before its deadline had passed.
    package static let timedOutEarly = Outcome("wait-returned-before-its-timeout", .forbidden)
    /// Tasks free to finish did, and the wait said so.
    package static let finishedInTime = Outcome("free-tasks-finished-in-time", .acceptable)
    /// Tasks free to finish gave the wait ample time, and it still gave up.
    package static let timedOutThoughFree = Outcome("timed-out-though-tasks-could-finish", .forbidden)
}

/// `wait(timeout:)` tells the truth. Two tasks held past a 50 ms deadline: the wait must return `.timedOut`, and
/// not before the deadline (`timed-out-while-tasks-held`). Then 64 tasks free to finish, with `freeSeconds` to do
/// it: the wait must return `.success` with each task run exactly once (`free-tasks-finished-in-time`). The held
/// tasks are released before the second batch, so the check leaves nothing blocked behind.
package func timeoutOutcomes(_ waiter: any TimedTaskWaiter, freeSeconds: Int = 5) -> OutcomeCounts {
    var counts = OutcomeCounts()
    let gate = DispatchSemaphore(value: 0)
    let held = 2
    let deadline = DispatchTime.now() + .milliseconds(50)
    let heldResult = waiter.run(tasks: held, deadline: deadline) { _ in
        _ = gate.wait(timeout: .now() + .seconds(10))
    }
    let returned = DispatchTime.now()
    for _ in 0..<held { gate.signal() }
    switch heldResult {
    case .success: counts.record(.successWhileHeld)
    // A timed wait sleeps on CLOCK_REALTIME or CLOCK_MONOTONIC by the primitive: allow 1 ms of skew between them.
    case .timedOut where returned.uptimeNanoseconds + 1_000_000 < deadline.uptimeNanoseconds:
        counts.record(.timedOutEarly)
    case .timedOut: counts.record(.timedOutWhileHeld)
    }

    let ledger = TaskLedger(tasks: 64)
    let freeResult = waiter.run(tasks: 64, deadline: .now() + .seconds(freeSeconds)) { ledger.record($0) }
    guard freeResult == .success else {
        counts.record(.timedOutThoughFree)
        return counts
    }
    let wrong = ledger.mismatches { _ in 1 }
    for violation in wrong { counts.record(WaitingOutcomes.classify(violation)) }
    if wrong.isEmpty { counts.record(.finishedInTime) }
    return counts
}
