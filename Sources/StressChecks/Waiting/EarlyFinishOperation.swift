import Dispatch
import Foundation
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked (caught by the dependency check). An asynchronous operation that calls
/// `finish()` as soon as it has started, not when its work is done: the queue starts its dependents too early.
///
/// Caught in every run, at any speed: its work is left until the operation itself is released, which cannot happen
/// while a dependent still holds it, so every dependent the queue starts on its word starts before that work.
/// It is an `AsyncBlockOperation` whose block finishes at once and holds the work until the block, and with it the
/// operation, is released (`AsyncOperation` is not open to a subclass in this module).
package enum EarlyFinishOperation {
    /// Made as the checks make the real operation; whatever `delay` is asked, its work runs only once it is released.
    package static func delayed(_ delay: Double, _ work: @escaping @Sendable () -> Void) -> Operation {
        let leftover = WorkOnRelease(work)
        return AsyncBlockOperation { finish in
            withExtendedLifetime(leftover) { finish() }
        }
    }
}

/// Runs its work on a global queue when it is released.
private final class WorkOnRelease: Sendable {
    private let work: @Sendable () -> Void

    init(_ work: @escaping @Sendable () -> Void) {
        self.work = work
    }

    deinit {
        DispatchQueue.global().async(execute: work)
    }
}
