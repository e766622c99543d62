import BenchCore
import SyncVariants
import VariantCatalog

extension BenchmarkRegistry {
    /// Adds a waiter brought from outside to `wait/fan-out`, under the CSV id `variant`, with the catalog's
    /// parameters: `make` builds one waiter per case, outside the timed region. `@inlinable`, so that the timed
    /// loop calls the concrete `Waiter` directly.
    @inlinable
    package mutating func addFanOutBenchmark<Waiter: TaskWaiter>(variant: String,
                                                                 _ make: @escaping @Sendable () -> Waiter) {
        add(Benchmark(suite: WaitShape.fanOut.suite, name: WaitShape.fanOut.name, variants: [variant],
                      parameters: WaitShape.fanOutParameters, includes: WaitShape.fanOutIncludes) { benchmarkCase in
            batchWorkload(make(), tasks: benchmarkCase[parameter: "tasks"], work: benchmarkCase[parameter: "work"])
        })
    }

    /// Adds a throttle brought from outside to `wait/throttle`, under the CSV id `variant`, at every limit of the
    /// catalog's: `make(limit)` builds one per case. `@inlinable`, as `addFanOutBenchmark(variant:_:)`.
    /// `supports` says which limits it takes (`serial-worker`: 1 alone); it joins only at those.
    @inlinable
    package mutating func addThrottleBenchmark<Throttle: TaskWaiter>(
        variant: String, supports: @escaping @Sendable (_ limit: Int) -> Bool = { _ in true },
        _ make: @escaping @Sendable (_ limit: Int) -> Throttle
    ) {
        add(Benchmark(suite: WaitShape.throttle.suite, name: WaitShape.throttle.name,
                      variants: [variant], parameters: WaitShape.throttleParameters,
                      threadCounts: WaitShape.throttleThreads,
                      includes: { supports($0[parameter: "limit"]) }) { benchmarkCase in
            batchWorkload(make(benchmarkCase[parameter: "limit"]), tasks: benchmarkCase[parameter: "tasks"],
                          work: benchmarkCase[parameter: "work"])
        })
    }

    /// Adds a handoff brought from outside to `wait/handoff`, under the CSV id `variant`: two threads ping-pong
    /// through one pair from `make`. `@inlinable`, as `addFanOutBenchmark(variant:_:)`.
    @inlinable
    package mutating func addHandoffBenchmark<Pair: Handoff>(variant: String, _ make: @escaping @Sendable () -> Pair) {
        add(Benchmark(suite: WaitShape.handoff.suite, name: WaitShape.handoff.name,
                      variants: [variant], threadCounts: WaitShape.handoffThreads) { _ in
            handoffWorkload(make())
        })
    }
}

/// The waiting suite's benchmarks, for every waiter registered: every way the seeds wait for work, measured
/// against each other.
///
/// - `wait/fan-out`: each of `threads` waiters submits `tasks` tasks and blocks until all have finished;
///   ns_per_op is per task. `work` (ns of spinning per task) is swept at `tasks=256` only, to stay in budget.
/// - `wait/throttle`: one waiter runs 256 tasks with at most `limit` in flight; ns_per_op is per task.
/// - `wait/handoff`: two threads ping-pong; ns_per_op is one round trip, with per-round-trip percentiles.
@usableFromInline
enum WaitShape {
    /// Each benchmark's suite and name, from its catalog: the inlinable factories name them through here, so that
    /// the catalogs stay out of the code compiled in a caller's module.
    @usableFromInline static let fanOut = (suite: FanOutVariant.suite, name: FanOutVariant.Benchmark.fanOut.rawValue)
    @usableFromInline static let throttle =
        (suite: ThrottleVariant.suite, name: ThrottleVariant.Benchmark.throttle.rawValue)
    @usableFromInline static let handoff =
        (suite: HandoffVariant.suite, name: HandoffVariant.Benchmark.handoff.rawValue)

    @usableFromInline static let fanOutParameters: KeyValuePairs<String, [Int]> =
        ["tasks": [1, 16, 256, 4096], "work": [0, 1000]]

    /// Overhead (work=0) at every batch size; realistic small tasks (work=1000) at one mid-sized batch.
    @usableFromInline static func fanOutIncludes(_ benchmarkCase: BenchmarkCase) -> Bool {
        benchmarkCase[parameter: "work"] == 0 || benchmarkCase[parameter: "tasks"] == 256
    }

    @usableFromInline static let throttleParameters: KeyValuePairs<String, [Int]> =
        ["limit": [1, 2, 4, 8], "tasks": [256], "work": [0, 1000]]
    @usableFromInline static let throttleThreads = Benchmark.ThreadCounts.fixed([1])
    @usableFromInline static let handoffThreads = Benchmark.ThreadCounts.fixed([2])
}

/// `waiter` runs `tasks` tasks of `work` ns per iteration, blocking until all have finished; each task is reported
/// as an operation, so ns_per_op is per task. Generic over the concrete waiter, so the loop calls it directly.
@inlinable
func batchWorkload<Waiter: TaskWaiter>(_ waiter: Waiter, tasks: Int, work: Int) -> Workload {
    let task = spinningTask(nanoseconds: work)
    return Workload(operationsPerIteration: tasks, offloadsWork: true) { _, iterations in
        for _ in 0..<iterations { waiter.run(tasks: tasks, task) }
    }
}

/// Two threads ping-pong. Both threads complete every round trip; only the initiator's are reported, so ns_per_op
/// is one round trip. Only the initiator clocks round trips; its two clock reads are inside the measured time.
@inlinable
func handoffWorkload<Pair: Handoff>(_ handoff: Pair) -> Workload {
    Workload(pacing: .lockstep, reportsThread: { $0 == 0 }) { worker, iterations in
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

/// A task that does nothing (`work=0`: pure waiting overhead) or spins for `nanoseconds` on the monotonic clock.
///
/// The spin polls the clock until its deadline, so it lasts at least `nanoseconds` plus up to one clock read,
/// close enough for 1000 ns; it keeps the core busy, as a small real task would.
@usableFromInline
func spinningTask(nanoseconds: Int) -> @Sendable (Int) -> Void {
    guard nanoseconds > 0 else { return { _ in } }
    let duration = UInt64(nanoseconds)
    return { _ in
        let deadline = MonotonicClock.now() &+ duration
        while MonotonicClock.now() < deadline {}
    }
}
