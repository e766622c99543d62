/// Runs a case's operation a fixed number of times on one thread, between two hooks that run on that thread:
/// for counts that do not depend on time or load (instructions under callgrind, allocations under jemalloc).
///
/// The operation runs once untouched first, so that state built on first use (a lazily created table, a
/// queue's first thread) is not counted as the cost of every operation.
public struct CountRunner: Sendable {
    /// Iterations of the workload in the counted run (and in the warm-up run before it).
    public let iterations: Int

    public init(iterations: Int) {
        precondition(iterations >= 1, "a counted run has at least one iteration")
        self.iterations = iterations
    }

    /// Runs `workload` on one thread: a warm-up run, then a run between `begin` and `end`, which return what
    /// was counted. Returns that, and the operations the counted run performed.
    public func count<Counted: Sendable>(
        _ workload: Workload,
        begin: @escaping @Sendable () -> Void,
        end: @escaping @Sendable () -> Counted
    ) -> (counted: Counted, operations: Int) {
        let session = Session(workload: workload, threads: 1)
        defer { session.finish() }
        session.solo(thread: 0, iterations: iterations)
        let result = ResultBox<Counted>()
        session.solo(thread: 0, iterations: iterations, begin: begin, end: { result.value = end() })
        workload.drain?()
        session.collectLatencies()
        return (result.value!, iterations * workload.operationsPerIteration)
    }
}

/// Carries a value out of a worker thread; the thread team's end barrier orders the write before the read.
private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
