import Dispatch
import Foundation
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked (caught by the dependency check). An asynchronous operation that calls
/// `finish()` as soon as it has started its work, not when the work is done: the queue starts its dependents too early.
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

extension EarlyFinishOperation {
    /// Made as the checks make the real operation: its work runs after `delay`, but it finishes at once.
    package static func delayed(_ delay: Double, _ work: @escaping @Sendable () -> Void) -> Operation {
        EarlyFinishOperation { _ in
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { work() }
        }
    }
}
