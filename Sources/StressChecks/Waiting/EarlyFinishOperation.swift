import Dispatch
import Foundation
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked (caught by the dependency check). An asynchronous operation that calls
/// `finish()` as soon as it has started, not when its work is done: the queue starts its dependents too early.
///
/// Caught in every run, at any speed: its work is left until the operation itself is released, which cannot happen
/// while a dependent still holds it, so every dependent the queue starts on its word starts before that work.
package final class EarlyFinishOperation: AsyncOperation, @unchecked Sendable {
    private let work: @Sendable () -> Void

    package init(_ work: @escaping @Sendable () -> Void) {
        self.work = work
        super.init()
    }

    deinit {
        DispatchQueue.global().async(execute: work)
    }

    package override func main() {
        finish()
    }
}

extension EarlyFinishOperation {
    /// Made as the checks make the real operation; whatever `delay` is asked, its work runs only once it is released.
    package static func delayed(_ delay: Double, _ work: @escaping @Sendable () -> Void) -> Operation {
        EarlyFinishOperation(work)
    }
}
