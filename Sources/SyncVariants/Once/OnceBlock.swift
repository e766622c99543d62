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
