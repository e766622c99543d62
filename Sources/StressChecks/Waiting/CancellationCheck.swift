import BenchPlatform
import Dispatch
import Foundation
import Synchronization
import SyncVariants

/// The shape of seed 001's cancellable batch, so that the real one and a broken one go through the same check.
package protocol CancellableBatch: Sendable {
    func run(tasks: Int, cancelling shouldCancel: (Int) -> Bool, deadline: DispatchTime,
             _ task: @escaping @Sendable (Int) -> Void) -> DispatchTimeoutResult
}

extension CancellableWorkItemBatch: CancellableBatch {}

extension Outcome {
    /// A batch whose group balanced, with every item not cancelled run once and no cancelled item run.
    package static let cancelledSkipped = Outcome("cancelled-items-skipped-and-group-balanced", .acceptable)
    /// A cancelled item ran (then, or a little after the wait returned).
    package static let cancelledRan = Outcome("cancelled-item-ran", .forbidden)
    /// The group's wait did not succeed: an enter without its leave.
    package static let groupUnbalanced = Outcome("group-did-not-balance", .forbidden)
}

/// Cancelled work items never run and the group still balances: `callers` threads at once each run `rounds`
/// batches of `tasks` items, every third cancelled. Each wait must succeed within `deadlineSeconds`, with each
/// other item run exactly once and no cancelled one run, then or a millisecond later. One outcome per batch (each
/// wrong item is recorded too); a caller stops at its first forbidden batch.
package func cancellationOutcomes(_ batch: any CancellableBatch, callers: Int = 1, tasks: Int = 64, rounds: Int,
                                  deadlineSeconds: Int = 5) -> OutcomeCounts {
    let cancelled: @Sendable (Int) -> Bool = { $0 % 3 == 0 }
    let perCaller = onThreads(callers, timeout: Double(rounds * deadlineSeconds + 5)) { _ in
        var counts = OutcomeCounts()
        for _ in 0..<rounds {
            let ledger = TaskLedger(tasks: tasks)
            let result = batch.run(tasks: tasks, cancelling: cancelled, deadline: .now() + .seconds(deadlineSeconds)) {
                ledger.record($0)
            }
            var round = OutcomeCounts()
            if result == .success {
                var wrong = wrongItems(ledger, tasks: tasks, cancelled: cancelled)
                if wrong.counts.isEmpty {
                    Platform.sleep(nanoseconds: 1_000_000)  // a cancelled item that runs late is caught too
                    wrong = wrongItems(ledger, tasks: tasks, cancelled: cancelled)
                }
                round.add(wrong)
                if wrong.counts.isEmpty { round.record(.cancelledSkipped) }
            } else {
                round.record(.groupUnbalanced)
            }
            counts.add(round)
            if round.forbidden > 0 { break }
        }
        return counts
    }
    var all = OutcomeCounts()
    for counts in perCaller { all.add(counts ?? OutcomeCounts()) }
    if perCaller.contains(where: { $0 == nil }) { all.record(.timedOut) }
    return all
}

/// The items that ran a wrong number of times, as outcomes: a cancelled item that ran, an item not cancelled that
/// never ran (the wait returned before it) or ran twice.
private func wrongItems(_ ledger: TaskLedger, tasks: Int, cancelled: (Int) -> Bool) -> OutcomeCounts {
    var counts = OutcomeCounts()
    for task in 0..<tasks {
        switch (cancelled(task), ledger.runs(of: task)) {
        case (true, 0), (false, 1): continue
        case (true, _): counts.record(.cancelledRan)
        case (false, 0): counts.record(.waitReturnedEarly)
        case (false, _): counts.record(.taskRanTwice)
        }
    }
    return counts
}
