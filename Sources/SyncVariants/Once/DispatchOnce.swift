#if canImport(CDispatch)
import CDispatch
#else
import Dispatch
#endif

/// `dispatch-once`: libdispatch's `dispatch_once_f`, the function behind Objective-C's `dispatch_once` in seed
/// 002, over a table of `count` predicates (one per token, tokens are `0..<count`).
///
/// Each predicate is a `dispatch_once_t` at a stable heap address, zeroed at creation ("not yet run"); after the
/// block has run it reads -1 (`~0`, "done"), as seed 002 logs. A predicate must never move, so it is never a Swift
/// property. Swift on Linux calls the out-of-line `dispatch_once_f`: the C header's inline check (`if *predicate
/// != ~0`), which C callers get on x86-64, is a macro Swift does not import, and on x86-64 the out-of-line
/// function skips straight to trying to take the predicate with a compare-exchange, which writes its cache line
/// even when the block has long run. The block reaches the C callback through its context pointer (which is why
/// this `once` takes an escaping block: see `OnceTracker`).
///
/// Thread-safe: for each token the block runs once, and callers that lose the race wait until it has returned.
/// Blocks of different tokens may run at the same time. A block that calls `once` for its own token deadlocks
/// (libdispatch traps where it can tell).
public final class DispatchOnce: OnceTable, @unchecked Sendable {
    /// The number of tokens (predicates) in the table.
    public let count: Int
    /// `count` predicates, written only by libdispatch after initialization.
    private let predicates: UnsafeMutablePointer<dispatch_once_t>

    public init(count: Int) {
        precondition(count >= 1, "a table holds at least one predicate")
        self.count = count
        predicates = .allocate(capacity: count)
        predicates.initialize(repeating: 0, count: count)
    }

    deinit {
        predicates.deallocate()
    }

    public static func makeTable(tokens: Int) -> DispatchOnce {
        DispatchOnce(count: tokens)
    }

    public func once(token: Int, block: @escaping () -> Void) {
        precondition(token >= 0 && token < count, "token \(token) outside 0..<\(count)")
        var context = OnceBlock(body: block)
        withUnsafeMutablePointer(to: &context) { context in
            dispatch_once_f(predicates + token, context) { context in
                context!.assumingMemoryBound(to: OnceBlock.self).pointee.body()
            }
        }
    }

    /// The raw predicate of `token` (0: not run, -1: done), as seed 002 prints it. Only meaningful while no
    /// call for that token is in flight.
    public func predicate(of token: Int) -> Int {
        precondition(token >= 0 && token < count, "token \(token) outside 0..<\(count)")
        return predicates[token]
    }
}
