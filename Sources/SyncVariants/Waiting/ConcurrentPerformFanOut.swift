import Dispatch

/// Fan-out with `DispatchQueue.concurrentPerform` (`fan-out/concurrent-perform`), seed 001's alternative to a
/// loop of `async` calls: GCD splits the iterations over about one thread per core, the calling thread
/// included, and returns when all are done. It takes no queue.
///
/// Stateless and thread-safe. Several threads calling it at once share GCD's one pool, so with more callers
/// than cores each caller's width shrinks.
@usableFromInline
package struct ConcurrentPerformFanOut: TaskWaiter {
    @usableFromInline
    package init() {}

    @usableFromInline
    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: tasks, execute: task)
    }
}
