import BenchCore
import SyncVariants

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
            suite: "wait", name: "fan-out",
            variants: ["semaphore", "group-wait", "group-notify", "concurrent-perform", "operation-queue", "task-group"],
            parameters: ["tasks": [1, 16, 256, 4096], "work": [0, 1000]],
            // Overhead (work=0) at every batch size; realistic small tasks (work=1000) at one mid-sized batch.
            includes: { $0[parameter: "work"] == 0 || $0[parameter: "tasks"] == 256 }
        ) { benchmarkCase in
            let tasks = benchmarkCase[parameter: "tasks"]
            let waiter = fanOutWaiter(benchmarkCase.variant)
            let task = spinningTask(nanoseconds: benchmarkCase[parameter: "work"])
            return Workload(operationsPerIteration: tasks) { _, iterations in
                for _ in 0..<iterations { waiter.run(tasks: tasks, task) }
            }
        })
    }

    private mutating func addThrottleBenchmark() {
        add(Benchmark(
            suite: "wait", name: "throttle",
            variants: ["semaphore-limit", "operation-queue-limit", "serial-worker"],
            parameters: ["limit": [1, 2, 4, 8], "tasks": [256], "work": [0, 1000]],
            threadCounts: .fixed([1]),
            includes: { $0.variant != "serial-worker" || $0[parameter: "limit"] == 1 }
        ) { benchmarkCase in
            let tasks = benchmarkCase[parameter: "tasks"]
            let waiter = throttle(benchmarkCase.variant, limit: benchmarkCase[parameter: "limit"])
            let task = spinningTask(nanoseconds: benchmarkCase[parameter: "work"])
            return Workload(operationsPerIteration: tasks) { _, iterations in
                for _ in 0..<iterations { waiter.run(tasks: tasks, task) }
            }
        })
    }

    private mutating func addHandoffBenchmark() {
        add(Benchmark(
            suite: "wait", name: "handoff",
            variants: ["semaphore", "group", "condition"],
            threadCounts: .fixed([2])
        ) { benchmarkCase in
            let handoff = handoff(benchmarkCase.variant)
            // Both threads complete every round trip; only the initiator's are reported, so ns_per_op is one
            // round trip. Only the initiator clocks round trips; its two clock reads (~20 ns each) are inside the
            // measured time.
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
        })
    }
}

/// The fan-out variant with the given CSV id.
private func fanOutWaiter(_ variant: String) -> any TaskWaiter {
    switch variant {
    case "semaphore": SemaphoreFanOut()
    case "group-wait": GroupWaitFanOut()
    case "group-notify": GroupNotifyFanOut()
    case "concurrent-perform": ConcurrentPerformFanOut()
    case "operation-queue": OperationQueueFanOut()
    case "task-group": TaskGroupFanOut()
    default: preconditionFailure("wait/fan-out has no variant '\(variant)'")
    }
}

/// The throttle variant with the given CSV id.
private func throttle(_ variant: String, limit: Int) -> any TaskWaiter {
    switch variant {
    case "semaphore-limit": SemaphoreLimitThrottle(limit: limit)
    case "operation-queue-limit": OperationQueueLimitThrottle(limit: limit)
    case "serial-worker": SerialWorkerThrottle()
    default: preconditionFailure("wait/throttle has no variant '\(variant)'")
    }
}

/// The handoff variant with the given CSV id.
private func handoff(_ variant: String) -> any Handoff {
    switch variant {
    case "semaphore": SemaphoreHandoff()
    case "group": GroupHandoff()
    case "condition": ConditionHandoff()
    default: preconditionFailure("wait/handoff has no variant '\(variant)'")
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
