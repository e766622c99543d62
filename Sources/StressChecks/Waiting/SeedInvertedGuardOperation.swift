import Dispatch
import Foundation

/// NEGATIVE CONTROL, never benchmarked (caught by the finish checks: it never finishes). Seed 004's `AbstractOperation`
/// as published, adapted to Linux only where it could not compile (`#keyPath` and `keyPathsForValuesAffecting…` need
/// the Objective-C runtime, so it notifies `isExecuting`/`isFinished` itself). Its guard `if _state == .isFinished` is
/// kept: the state never leaves `.isReady`, so it never finishes.
///
/// Caught in every run, at any speed: it never finishes at all, so the checks' bounded wait for it always ends
/// without it (`operation-never-finished`); the bound decides only how soon that is said.
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

extension SeedInvertedGuardOperation {
    /// Made as the checks make the real operation: it would finish once its delayed work has run.
    package static func delayed(_ delay: Double, _ work: @escaping @Sendable () -> Void) -> Operation {
        SeedInvertedGuardOperation { finish in
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                work()
                finish()
            }
        }
    }
}
