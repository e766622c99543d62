import BenchCore
import SyncVariants
import VariantCatalog

extension BenchmarkRegistry {
    /// The waiting suite: every way the seeds wait for work, measured against each other.
    ///
    /// - `wait/fan-out`: each of `threads` waiters submits `tasks` tasks and blocks until all have finished;
    ///   ns_per_op is per task. `work` (ns of spinning per task) is swept at `tasks=256` only, to stay in budget.
    /// - `wait/throttle`: one waiter runs 256 tasks with at most `limit` in flight; ns_per_op is per task.
    /// - `wait/handoff`: two threads ping-pong; ns_per_op is one round trip, with per-round-trip percentiles.
    mutating func addWaitingBenchmarks() {
        addFanOutBenchmark()
        addThrottleBenchmark()
        addHandoffBenchmark()
    }

    private mutating func addFanOutBenchmark() {
        add(Benchmark(
            FanOutVariant.self, .fanOut,
            parameters: ["tasks": [1, 16, 256, 4096], "work": [0, 1000]],
            // Overhead (work=0) at every batch size; realistic small tasks (work=1000) at one mid-sized batch.
            includes: { _, benchmarkCase in benchmarkCase[parameter: "work"] == 0 || benchmarkCase[parameter: "tasks"] == 256 }
        ) { variant, benchmarkCase in
            variant.accept(BatchSetup(tasks: benchmarkCase[parameter: "tasks"], work: benchmarkCase[parameter: "work"]))
        })
    }

    private mutating func addThrottleBenchmark() {
        add(Benchmark(
            ThrottleVariant.self, .throttle,
            parameters: ["limit": [1, 2, 4, 8], "tasks": [256], "work": [0, 1000]],
            threadCounts: .fixed([1]),
            includes: { variant, benchmarkCase in variant.supports(limit: benchmarkCase[parameter: "limit"]) }
        ) { variant, benchmarkCase in
            variant.accept(ThrottleSetup(limit: benchmarkCase[parameter: "limit"],
                                         batch: BatchSetup(tasks: benchmarkCase[parameter: "tasks"],
                                                           work: benchmarkCase[parameter: "work"])))
        })
    }

    private mutating func addHandoffBenchmark() {
        add(Benchmark(HandoffVariant.self, .handoff, threadCounts: .fixed([2])) { variant, _ in
            variant.accept(HandoffSetup())
        })
    }
}

/// A waiter that runs `tasks` tasks of `work` ns per iteration, blocking until all have finished; each task is
/// reported as an operation, so ns_per_op is per task.
private struct BatchSetup: TaskWaiterVisitor {
    let tasks: Int
    let work: Int

    func visit<Waiter: TaskWaiter>(_ make: () -> Waiter) -> Workload? {
        workload(make())
    }

    /// Generic over the concrete waiter, so the loop calls it directly.
    func workload<Waiter: TaskWaiter>(_ waiter: Waiter) -> Workload {
        let tasks = self.tasks
        let task = spinningTask(nanoseconds: work)
        return Workload(operationsPerIteration: tasks, offloadsWork: true) { _, iterations in
            for _ in 0..<iterations { waiter.run(tasks: tasks, task) }
        }
    }
}

/// A throttle at the case's `limit`, run as a batch; nil at a limit the variant does not take.
private struct ThrottleSetup: ThrottleVisitor {
    let limit: Int
    let batch: BatchSetup

    func anyLimit<Throttle: TaskWaiter>(_ make: (Int) -> Throttle) -> Workload? {
        batch.workload(make(limit))
    }

    func fixedLimit<Throttle: TaskWaiter>(_ fixed: Int, _ make: () -> Throttle) -> Workload? {
        limit == fixed ? batch.workload(make()) : nil
    }
}

/// Two threads ping-pong. Both threads complete every round trip; only the initiator's are reported, so ns_per_op
/// is one round trip. Only the initiator clocks round trips; its two clock reads (~20 ns each) are inside the
/// measured time.
private struct HandoffSetup: HandoffVisitor {
    func visit<Pair: Handoff>(_ make: () -> Pair) -> Workload? {
        let handoff = make()
        return Workload(pacing: .lockstep, reportsThread: { $0 == 0 }) { worker, iterations in
            if worker.index == 0 {
                for _ in 0..<iterations {
                    let started = MonotonicClock.now()
                    handoff.ping()
                    worker.recordLatency(nanoseconds: MonotonicClock.now() &- started)
                }
            } else {
                for _ in 0..<iterations { handoff.pong() }
            }
        }
    }
}

/// A task that does nothing (`work=0`: pure waiting overhead) or spins for `nanoseconds` on the monotonic clock.
///
/// The spin polls the clock until its deadline, so it lasts at least `nanoseconds` plus up to one clock read
/// (~20 ns), close enough for 1000 ns; it keeps the core busy, as a small real task would.
private func spinningTask(nanoseconds: Int) -> @Sendable (Int) -> Void {
    guard nanoseconds > 0 else { return { _ in } }
    let duration = UInt64(nanoseconds)
    return { _ in
        let deadline = MonotonicClock.now() &+ duration
        while MonotonicClock.now() < deadline {}
    }
}
