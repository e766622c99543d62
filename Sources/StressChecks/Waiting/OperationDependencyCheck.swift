import Dispatch
import Foundation
import Synchronization

extension Outcome {
    package static let dependentStartedAfterBoth = Outcome("dependent-started-after-both-dependencies-finished",
                                                           .acceptable)
    /// The dependent started while a dependency's work was still to be done: that dependency finished too early.
    package static let dependentStartedEarly = Outcome("dependent-started-before-dependencies-finished", .forbidden)
    /// The dependent did not run within the check's bound: a dependency never finished.
    package static let dependentNeverRan = Outcome("dependent-never-ran", .forbidden)
}

/// Seed 004's dependency graph: operation 3 depends on 1 (20 ms of asynchronous work) and 2 (asynchronous work
/// at once), all made by `make`, and must start only after both have *really* finished their work. `rounds`
/// graphs, one after another, one outcome each; stops at the first forbidden one. A dependent that has not run
/// after `timeoutSeconds` is reported, and its queue kept alive, not waited for.
package func dependencyOutcomes(make: MakeDelayedOperation, rounds: Int, timeoutSeconds: Double = 5)
    -> OutcomeCounts {
    var counts = OutcomeCounts()
    for _ in 0..<rounds {
        let firstDone = Atomic<Bool>(false)
        let secondDone = Atomic<Bool>(false)
        let sawBoth = Atomic<Bool>(false)
        let thirdRan = DispatchSemaphore(value: 0)
        let third = BlockOperation {
            sawBoth.store(firstDone.load(ordering: .sequentiallyConsistent)
                          && secondDone.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
            thirdRan.signal()
        }
        let first = make(0.02) { firstDone.store(true, ordering: .sequentiallyConsistent) }
        let second = make(0) { secondDone.store(true, ordering: .sequentiallyConsistent) }
        third.addDependency(second)
        third.addDependency(first)
        let queue = OperationQueue()
        queue.addOperations([second, third, first], waitUntilFinished: false)
        guard thirdRan.wait(timeout: .now() + timeoutSeconds) == .success else {
            stuckQueues.withLock { $0.append(queue) }
            counts.record(.dependentNeverRan)
            return counts
        }
        guard sawBoth.load(ordering: .sequentiallyConsistent) else {
            counts.record(.dependentStartedEarly)
            return counts
        }
        counts.record(.dependentStartedAfterBoth)
    }
    return counts
}
