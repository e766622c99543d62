import Foundation

/// An `Operation` whose work finishes asynchronously (seed 004's `AbstractOperation`, corrected): `start()`
/// moves it to executing and calls `main()`, which starts the work and returns; the work calls `finish()` when
/// it is really done, and only then does the queue see the operation finished and start its dependents.
///
/// The seed guarded its state change with `if _state == .isFinished`, which is inverted: a ready operation is
/// never finished, so no transition ever happened and its operations never finished. Here the guard is that
/// the transition is allowed (ready → executing → finished, or ready → finished when cancelled before start).
///
/// The queue learns about transitions through key-value notifications for `isExecuting` and `isFinished`
/// (on Linux, swift-corelibs-foundation's `OperationQueue` acts on `didChangeValue(forKey:)` for those keys; the
/// seed's `keyPathsForValuesAffecting…` class methods need the Objective-C runtime). Notifications are sent
/// outside the state lock, as the seed notes, because observers read the state back.
///
/// Thread-safe: `state` is guarded by a lock. Subclasses override `main()` and must call `finish()` exactly once.
@usableFromInline
package class AsyncOperation: Operation, @unchecked Sendable {
    /// The life of an asynchronous operation.
    @usableFromInline
    package enum State: Sendable {
        case ready, executing, finished

        /// Whether an operation in this state may move to `next`.
        @usableFromInline
        package func canTransition(to next: State) -> Bool {
            switch (self, next) {
            case (.ready, .executing), (.ready, .finished), (.executing, .finished): return true
            default: return false
            }
        }
    }

    private let stateLock = NSLock()
    private var _state = State.ready

    /// The current state. Read from any thread.
    @usableFromInline
    package var state: State {
        stateLock.lock()
        defer { stateLock.unlock() }
        return _state
    }

    override package var isAsynchronous: Bool { true }
    override package var isExecuting: Bool { state == .executing }
    override package var isFinished: Bool { state == .finished }

    override package init() {
        super.init()
    }

    override package final func start() {
        if isCancelled || dependencies.contains(where: \.isCancelled) {
            finish()
            return
        }
        transition(to: .executing)
        main()
    }

    /// Starts the work and returns; the work calls `finish()` when it is done. Subclasses must override it.
    override package func main() {
        preconditionFailure("\(type(of: self)) must override main() and call finish() when its work is done")
    }

    /// Marks the operation finished, so that the queue removes it and starts its dependents. Call it once.
    package final func finish() {
        transition(to: .finished)
    }

    private func transition(to next: State) {
        let previous = state
        precondition(previous.canTransition(to: next), "invalid operation state transition \(previous) -> \(next)")
        let keys = (previous == .executing || next == .executing ? ["isExecuting"] : []) +
            (next == .finished ? ["isFinished"] : [])
        for key in keys { willChangeValue(forKey: key) }
        stateLock.lock()
        _state = next
        stateLock.unlock()
        for key in keys.reversed() { didChangeValue(forKey: key) }
    }
}
