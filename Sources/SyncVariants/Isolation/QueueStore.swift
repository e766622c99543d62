/// A store built on a dispatch queue: every read and write is a block on its queue, and a test probe can watch
/// those blocks (see `QueueBlockProbe`).
@usableFromInline
package protocol QueueStore: IsolatedStore {
    /// Whether read blocks may run beside each other (a concurrent queue) rather than one at a time (a serial one).
    static var readsConcurrently: Bool { get }
    /// A store holding `models`; `probe`, for tests only, is told when each block begins and ends.
    init(preloading models: [IdentityModel], probe: (any QueueBlockProbe)?)
}

/// Which kind of block a queue-based store is running, for `QueueBlockProbe`.
@usableFromInline
package enum QueueBlockKind: Sendable {
    /// A read: a plain block (on a concurrent queue, it may run beside other reads).
    case read
    /// A write: a barrier block on a concurrent queue, a plain block on a serial one.
    case write
}

/// Test instrumentation for the queue-based stores: told when each block the store submits starts and ends, on
/// the thread that runs it, inside the block. Package access: a test hook, not part of what a package brings.
///
/// A store built without a probe (as every benchmark builds them) runs the plain seed code; the only trace of
/// the hook is one well-predicted nil check before the block is submitted, outside the critical section.
@usableFromInline
package protocol QueueBlockProbe: AnyObject, Sendable {
    func blockBegan(_ kind: QueueBlockKind)
    func blockEnded(_ kind: QueueBlockKind)
}

extension QueueBlockProbe {
    /// Runs `body` between `blockBegan(kind)` and `blockEnded(kind)`.
    @inlinable
    package func observing<Result>(_ kind: QueueBlockKind, _ body: () -> Result) -> Result {
        blockBegan(kind)
        defer { blockEnded(kind) }
        return body()
    }
}
