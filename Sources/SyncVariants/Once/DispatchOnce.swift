#if canImport(CDispatch)
import CDispatch
#else
import Dispatch
#endif

/// `dispatch-once`: libdispatch's `dispatch_once_f`, the function behind Objective-C's `dispatch_once` in seed
/// 002, over a table of `count` predicates (one per token, tokens are `0..<count`).
///
/// Each predicate is a `dispatch_once_t` at a stable heap address, zeroed at creation ("not yet run"); after the
/// block has run it reads -1 (`~0`, "done"), as seed 002 logs. Swift on Linux calls the out-of-line
/// `dispatch_once_f`: the C header's inline check (`if *predicate != ~0`), which C callers get on x86-64, is a
/// macro Swift does not import, and on x86-64 the out-of-line function skips straight to trying to take the
/// predicate with a compare-exchange, which writes its cache line even when the block has long run
/// (`DispatchOnceInline` adds the check back). The block reaches the C callback through its context pointer
/// (which is why this `once` takes an escaping block: see `OnceTracker`).
///
/// Thread-safe: for each token the block runs once, and callers that lose the race wait until it has returned.
/// Blocks of different tokens may run at the same time. A block that calls `once` for its own token deadlocks
/// (libdispatch traps where it can tell).
@usableFromInline
package final class DispatchOnce: OnceTable, @unchecked Sendable {
    /// Written only by libdispatch after initialization.
    @usableFromInline let predicates: PredicateBuffer<dispatch_once_t>

    /// The number of tokens (predicates) in the table.
    @usableFromInline
    package var count: Int { predicates.count }

    @usableFromInline
    package init(count: Int) {
        predicates = PredicateBuffer(count: count, initialValue: 0)
    }

    @usableFromInline
    package static func makeTable(tokens: Int) -> DispatchOnce {
        DispatchOnce(count: tokens)
    }

    @inlinable
    package func once(token: Int, block: @escaping () -> Void) {
        dispatchOnce(predicates.address(of: token), block)
    }

    /// The raw predicate of `token` (0: not run, -1: done), as seed 002 prints it. Only meaningful while no
    /// call for that token is in flight.
    @usableFromInline
    package func predicate(of token: Int) -> Int {
        predicates.address(of: token).pointee
    }
}

/// `dispatch_once_f(predicate, …)` running `block`, which reaches the C callback through the context pointer.
@inlinable @inline(__always)
func dispatchOnce(_ predicate: UnsafeMutablePointer<dispatch_once_t>, _ block: @escaping () -> Void) {
    // Unprotected: the pointer never outlives the call; a stack protector would add a check to every call.
    _withUnprotectedUnsafePointer(to: OnceBlock(body: block)) { context in
        dispatch_once_f(predicate, UnsafeMutableRawPointer(mutating: context), runOnceBlock)
    }
}
