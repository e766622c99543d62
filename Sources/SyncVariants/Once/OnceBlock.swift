/// A block on its way through a C API's context pointer (`dispatch_once_f`, `pthread_once`'s thread-specific
/// slot). Wrapping the closure in a struct stores it as it is; storing a bare closure as a generic value would
/// re-wrap it in a heap-allocated thunk on every call.
struct OnceBlock {
    let body: () -> Void
}
