import CSyncSupport
#if canImport(CDispatch)
import CDispatch
#else
import Dispatch
#endif

/// `dispatch-once-inline`: `DispatchOnce` with the check that C callers of `dispatch_once` get inline
/// (dispatch/once.h's `DISPATCH_ONCE_INLINE_FASTPATH`, which Swift cannot import), done in Swift: an acquire load of
/// the predicate, and `dispatch_once_f` only when it does not read "done" (~0).
///
/// A hit therefore never enters libdispatch and never writes the predicate's cache line (the out-of-line function
/// tries a compare-exchange on x86-64 even when the predicate is done). The acquire load pairs with libdispatch's
/// release of the predicate once the block has returned, so a caller that skips the call sees the block's effects.
/// Same table of zeroed predicates, same thread-safety and nesting rules as `DispatchOnce`.
@usableFromInline
package final class DispatchOnceInline: OnceTable, @unchecked Sendable {
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
    package static func makeTable(tokens: Int) -> DispatchOnceInline {
        DispatchOnceInline(count: tokens)
    }

    @inlinable
    package func once(token: Int, block: @escaping () -> Void) {
        let predicate = predicates.address(of: token)
        if sync_dispatch_once_is_done(predicate) { return }
        dispatchOnce(predicate, block)
    }
}
