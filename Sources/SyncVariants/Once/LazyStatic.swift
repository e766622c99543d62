import CSyncSupport

/// `lazy-static`: Swift's own run-once. A `static let` is initialized on first access, thread-safe by the
/// language's guarantee: on Linux every access from outside its defining file goes through an accessor that calls
/// the runtime's `swift_once(predicate, initializer, context)` on a zeroed word the compiler emits beside the static
/// (on Darwin `swift_once` is `dispatch_once_f` underneath).
///
/// - `value()` reads a real `static let`. It is non-inlinable, as the read is for a caller in another module, so
///   every call pays the accessor; the optimizer hoists a read it can see out of a loop, and a benchmark of that
///   reports 0 ns. This is what `once/hit` times.
/// - As a table, `once(token:block:)` makes that same runtime call, `swift_once`, on a table of fresh predicates,
///   one per token: zeroed, 8-byte aligned words, like the compiler's. A program cannot make new statics at run
///   time; this is how `once/first`, `once/race` and the stress checks get fresh ones. The runtime reads a
///   predicate as two 32-bit halves: a flag that turns negative once the initializer has returned (the fast path
///   inside `swift_once`: one acquire load and a compare) and the lock its slow path takes (a futex with priority
///   inheritance, `FUTEX_LOCK_PI`). A predicate is never reused while a call may be inside it.
///
/// Thread-safe: for each token the block runs once, and callers that lose the race wait until it has returned.
/// Blocks of different tokens may run at the same time. A block that calls `once` for its own token is not
/// supported (the runtime's lock is not recursive).
@usableFromInline
package final class LazyStatic: OnceTable, @unchecked Sendable {
    private static let storage: Int = Int.random(in: 1...1_000)

    /// Reads the static, initializing it on the first call. Thread-safe.
    @inline(never)
    @usableFromInline
    package static func value() -> Int {
        storage
    }

    /// Written only by the runtime after initialization.
    @usableFromInline let predicates: PredicateBuffer<sync_swift_once_t>

    /// The number of tokens (predicates) in the table.
    @usableFromInline
    package var count: Int { predicates.count }

    @usableFromInline
    package init(count: Int) {
        predicates = PredicateBuffer(count: count, initialValue: 0)
    }

    @usableFromInline
    package static func makeTable(tokens: Int) -> LazyStatic {
        LazyStatic(count: tokens)
    }

    @inlinable
    package func once(token: Int, block: @escaping () -> Void) {
        let predicate = predicates.address(of: token)
        // Unprotected: the pointer never outlives the call; a stack protector would add a check to every call.
        _withUnprotectedUnsafePointer(to: OnceBlock(body: block)) { context in
            sync_swift_once(predicate, runOnceBlock, UnsafeMutableRawPointer(mutating: context))
        }
    }
}
