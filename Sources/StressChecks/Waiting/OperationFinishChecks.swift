import BenchPlatform
import Dispatch
import Foundation
import Synchronization
import SyncVariants

/// Builds an asynchronous operation whose work runs `work` on a global queue after `delay` seconds: the real one
/// and the broken ones are made the same way, so that the same checks run on each.
package typealias MakeDelayedOperation = (_ delay: Double, _ work: @escaping @Sendable () -> Void) -> Operation

extension AsyncBlockOperation {
    /// The operation the checks pass: it finishes once its delayed work has run.
    package static func delayed(_ delay: Double, _ work: @escaping @Sendable () -> Void) -> Operation {
        AsyncBlockOperation { finish in
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                work()
                finish()
            }
        }
    }
}

extension Outcome {
    /// The operation finished as its queue sees it: an operation depending on it ran.
    package static let operationFinished = Outcome("operation-finished-and-its-dependent-ran", .acceptable)
    /// The operation did not finish within the check's bound (it may never finish).
    package static let operationNeverFinished = Outcome("operation-never-finished", .forbidden)
    package static let cancelledFinishedUnrun = Outcome("cancelled-operation-finished-without-running", .acceptable)
    package static let cancelledOperationRan = Outcome("cancelled-operation-ran", .forbidden)
}

/// An asynchronous operation finishes as its queue sees it: a marker operation that depends on one made by
/// `make` (10 ms of work) must run within `timeoutSeconds`. Bounded, so an operation that never finishes (seed
/// 004's inverted guard) is reported as `operation-never-finished` and its queue is kept alive, not waited for.
package func finishOutcomes(make: MakeDelayedOperation, timeoutSeconds: Double = 2) -> OutcomeCounts {
    var counts = OutcomeCounts()
    counts.record(finishesOnQueue(make(0.01) {}, timeoutSeconds: timeoutSeconds)
                  ? .operationFinished : .operationNeverFinished)
    return counts
}

/// A cancelled asynchronous operation finishes without running its work: one made by `make` and cancelled before
/// it is queued must finish (a dependent runs) within `timeoutSeconds`, and its work must not have run, then or a
/// millisecond later.
package func cancelledFinishOutcomes(make: MakeDelayedOperation, timeoutSeconds: Double = 2) -> OutcomeCounts {
    var counts = OutcomeCounts()
    let ran = TaskLedger(tasks: 1)
    let operation = make(0) { ran.record(0) }
    operation.cancel()
    guard finishesOnQueue(operation, timeoutSeconds: timeoutSeconds) else {
        counts.record(.operationNeverFinished)
        return counts
    }
    Platform.sleep(nanoseconds: 1_000_000)  // work that starts late is caught too
    counts.record(ran.runs(of: 0) == 0 ? .cancelledFinishedUnrun : .cancelledOperationRan)
    return counts
}

/// Queues that hold an operation that never finished, kept alive until the process ends: the operation and the
/// queue's record of it stay valid, and nothing waits for them.
let stuckQueues = Mutex<[OperationQueue]>([])

/// Whether `operation` finishes as its queue sees it: a marker operation that depends on it runs within
/// `timeoutSeconds`, and the operation then says it is finished.
private func finishesOnQueue(_ operation: Operation, timeoutSeconds: Double) -> Bool {
    let queue = OperationQueue()
    let markerRan = DispatchSemaphore(value: 0)
    let marker = BlockOperation { markerRan.signal() }
    marker.addDependency(operation)
    queue.addOperations([operation, marker], waitUntilFinished: false)
    let finished = markerRan.wait(timeout: .now() + timeoutSeconds) == .success && operation.isFinished
    if !finished { stuckQueues.withLock { $0.append(queue) } }
    return finished
}
