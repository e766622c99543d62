import Synchronization

/// `atomic-flag`: double-checked locking over a table of `count` tokens (`0..<count`): each token has an
/// `Atomic<Bool>` "done" flag read with acquire ordering on the fast path, and its own `Mutex` for the slow
/// path, which checks the flag again, runs the block, and sets the flag with release ordering.
///
/// A hit is one acquire load (a plain load on x86-64 and arm64's `ldar`), which writes nothing, so it should
/// not slow down as threads are added. This is the pattern `dispatch_once`'s inline fast path and `swift_once`
/// follow. Flags and mutexes live in heap buffers (atomics must not move).
///
/// Thread-safe: the release store of the flag happens after the block returns and the fast path's acquire
/// load pairs with it, so a caller that sees "done" sees the block's effects; callers that lose the race wait on
/// the token's mutex until the block has returned. Blocks of different tokens may run at the same time. A block
/// that calls `once` for its own token deadlocks.
@usableFromInline
package final class AtomicFlagOnce: OnceTable, @unchecked Sendable {
    /// The number of tokens in the table.
    @usableFromInline
    package let count: Int
    /// `count` flags, false until the token's block has returned.
    @usableFromInline let done: UnsafeMutablePointer<Atomic<Bool>>
    /// `count` mutexes, one per token, taken only while its flag is false.
    @usableFromInline let slowPath: UnsafeMutablePointer<Mutex<Void>>

    @usableFromInline
    package init(count: Int) {
        precondition(count >= 1, "a table holds at least one token")
        self.count = count
        done = .allocate(capacity: count)
        slowPath = .allocate(capacity: count)
        for index in 0..<count {
            (done + index).initialize(to: Atomic(false))
            (slowPath + index).initialize(to: Mutex(()))
        }
    }

    deinit {
        done.deinitialize(count: count)
        slowPath.deinitialize(count: count)
        done.deallocate()
        slowPath.deallocate()
    }

    @usableFromInline
    package static func makeTable(tokens: Int) -> AtomicFlagOnce {
        AtomicFlagOnce(count: tokens)
    }

    @inlinable
    package func once(token: Int, block: () -> Void) {
        precondition(token >= 0 && token < count, "token \(token) outside 0..<\(count)")
        if done[token].load(ordering: .acquiring) { return }
        slowPath[token].withLock { _ in
            if done[token].load(ordering: .relaxed) { return }
            block()
            done[token].store(true, ordering: .releasing)
        }
    }
}
