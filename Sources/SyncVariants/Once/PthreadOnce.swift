import CSyncSupport

/// `pthread-once`: POSIX `pthread_once` over a table of `count` `pthread_once_t` controls (tokens are
/// `0..<count`), each at a stable heap address and initialized to `PTHREAD_ONCE_INIT`.
///
/// `pthread_once` takes a C function without a context argument, so the block is handed to it through a C
/// `_Thread_local` slot: one plain store before the call, read back by the init routine, which runs on the calling
/// thread. The store is paid on every call, hits included, and is all this adds to a bare `pthread_once` (glibc's
/// fast path is then one acquire load of the control); `pthread_setspecific` would be a library call of its own.
/// This `once` takes an escaping block for the same reason as `DispatchOnce`'s (see `OnceTracker`).
///
/// Thread-safe: for each token the block runs once, and callers that lose the race wait until it has returned.
/// Blocks of different tokens may run at the same time. A block that calls `once` for its own token deadlocks.
@usableFromInline
package final class PthreadOnce: OnceTable, @unchecked Sendable {
    /// Written only by `pthread_once` after initialization.
    @usableFromInline let controls: PredicateBuffer<pthread_once_t>

    /// The number of tokens (controls) in the table.
    @usableFromInline
    package var count: Int { controls.count }

    @usableFromInline
    package init(count: Int) {
        controls = PredicateBuffer(count: count, initialValue: pthread_once_t(PTHREAD_ONCE_INIT))
    }

    @usableFromInline
    package static func makeTable(tokens: Int) -> PthreadOnce {
        PthreadOnce(count: tokens)
    }

    @inlinable
    package func once(token: Int, block: @escaping () -> Void) {
        let control = controls.address(of: token)
        // Unprotected: the pointer never outlives the call, and a stack protector would add a canary load and
        // check to every hit.
        _withUnprotectedUnsafePointer(to: OnceBlock(body: block)) { context in
            sync_once_set_pending_block(UnsafeMutableRawPointer(mutating: context))
            pthread_once(control) {
                sync_once_get_pending_block()!.assumingMemoryBound(to: OnceBlock.self).pointee.body()
            }
        }
    }
}
