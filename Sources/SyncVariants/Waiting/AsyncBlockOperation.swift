/// An `AsyncOperation` that runs a closure which starts asynchronous work and calls the `finish` it is given
/// when that work is done: the seed's `CustomOperation1`/`CustomOperation2` without a subclass per job.
///
/// Thread-safe as `AsyncOperation` is; `finish` must be called exactly once, from any thread.
@usableFromInline
package final class AsyncBlockOperation: AsyncOperation, @unchecked Sendable {
    private let body: @Sendable (_ finish: @escaping @Sendable () -> Void) -> Void

    @usableFromInline
    package init(_ body: @escaping @Sendable (_ finish: @escaping @Sendable () -> Void) -> Void) {
        self.body = body
        super.init()
    }

    override package func main() {
        body { [self] in finish() }
    }
}
