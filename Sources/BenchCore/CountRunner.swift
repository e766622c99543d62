/// Runs cases' operations a fixed number of times, each between two hooks, for counts that do not depend on
/// time or load (instructions under callgrind, allocations under jemalloc).
///
/// Every case runs on the same single worker thread, which lives as long as the runner: per-thread counters
/// (callgrind's) then see one thread throughout, and the process has more than one thread, as it does in
/// every timed run (glibc's locks take a cheaper path in a single-threaded process). The operation runs once
/// untouched first, so that state built on first use (a lazily created table, a queue's first thread) is not
/// counted as the cost of every operation.
///
/// Not thread-safe: one coordinator calls `count`, one case at a time.
package final class CountRunner: @unchecked Sendable {
    /// Iterations of the workload in the counted run (and in the warm-up run before it).
    package let iterations: Int
    private let team = ThreadTeam(count: 1, name: "bench-count")
    private let worker = WorkerContext(index: 0, threadCount: 1)
    /// Written on the worker thread, read by the coordinator after the team's end barrier orders it.
    private var counted: Any?

    package init(iterations: Int) {
        precondition(iterations >= 1, "a counted run has at least one iteration")
        self.iterations = iterations
    }

    deinit {
        team.shutdown()
    }

    /// Runs `workload` on the runner's thread: a warm-up run, then a run between `begin` and `end`, which
    /// return what was counted; then drains and tears the workload down. Returns what `end` counted and the
    /// operations of the counted run.
    package func count<Counted>(
        _ workload: Workload,
        begin: @escaping @Sendable () -> Void,
        end: @escaping @Sendable () -> Counted
    ) -> (counted: Counted, operations: Int) {
        let worker = self.worker, iterations = self.iterations, body = workload.body
        workload.prepare?(iterations)
        team.run { _ in body(worker, iterations) }
        workload.prepare?(iterations)
        team.run { [self] _ in
            begin()
            body(worker, iterations)
            counted = end()
        }
        workload.drain?()
        workload.teardown?()
        worker.latencies.reset()
        defer { counted = nil }
        return (counted as! Counted, iterations * workload.operationsPerIteration)
    }
}
