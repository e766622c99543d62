/// A block on its way through a C API's context pointer (`dispatch_once_f`, `pthread_once`'s thread-local
/// slot). Wrapping the closure in a struct stores it as it is; storing a bare closure as a generic value would
/// re-wrap it in a heap-allocated thunk on every call. Callers hand the C API a pointer to a borrowed
/// `OnceBlock` (`_withUnprotectedUnsafePointer(to: OnceBlock(body: block))`), which costs no retain and release of the block;
/// copying it into a `var` to take its address did, on every call.
@usableFromInline
struct OnceBlock {
    @usableFromInline let body: () -> Void

    @usableFromInline init(body: @escaping () -> Void) { self.body = body }
}

/// Runs the `OnceBlock` that `context` points to: the one C callback of the once variants that hand a block to C
/// through a context pointer (`dispatch_once_f`, `swift_once`). One function, not an identical closure at each call
/// site: two identical closures specialized into one module were merged by LLVM into one function and a thunk that
/// calls it, so a variant paid 8 more instructions per first call or not depending on which module it was
/// specialized in (docs/findings/2026-11-27-one-door.md).
@inlinable
func runOnceBlock(_ context: UnsafeMutableRawPointer?) {
    context!.assumingMemoryBound(to: OnceBlock.self).pointee.body()
}
