/// One timed sample of one case: what was done, how long it took, and what it cost the process.
package struct Sample: Sendable, Equatable {
    /// Operations completed by all threads (of the row's role) together.
    package var operations: Int
    /// Wall time from releasing the threads to the last one finishing (and any drain), in nanoseconds.
    package var elapsedNanoseconds: UInt64
    /// Operations completed by each thread, in thread order: unequal counts show an unfair mechanism.
    package var threadOperations: [Int]
    /// CPU time and context switches of the whole process during the sample.
    package var usage: ResourceUsage
    /// Percentiles of the latencies recorded by the workload, when it records any.
    package var latency: LatencyPercentiles?
    /// The process's OS threads (`OSThreadCount.current()`) when the sample started and when it ended; nil when
    /// not counted. Threads that appear during a sample were started by the mechanism under test.
    package var osThreadsAtStart: Int?
    package var osThreadsAtEnd: Int?
    /// Where the time of the threads counted in `threadOperations` went, summed over them (running, waiting
    /// for a CPU, switches in); nil where it could not be read (not Linux, no schedstat).
    package var schedule: ThreadSchedule?
    /// The most operations one of those threads publishes at a time, for timed pacing (its batch × the workload's
    /// operations per iteration): a thread's count in `threadOperations` moves by whole batches, so a count of 0
    /// in a sample shorter than a batch is no sign of starvation. Nil for lockstep pacing (counts exact at the
    /// sample's end) and for a hung case's span.
    package var batchOperations: Int?
    /// What the hypervisor stole from the CPUs those threads were on during the sample; nil where it could not be
    /// read (not Linux, no steal in `/proc/stat`, a thread's CPU unreadable).
    package var stolen: StolenTime?

    package init(operations: Int, elapsedNanoseconds: UInt64, threadOperations: [Int],
                usage: ResourceUsage = ResourceUsage(), latency: LatencyPercentiles? = nil,
                osThreadsAtStart: Int? = nil, osThreadsAtEnd: Int? = nil, schedule: ThreadSchedule? = nil,
                batchOperations: Int? = nil, stolen: StolenTime? = nil) {
        self.operations = operations
        self.elapsedNanoseconds = elapsedNanoseconds
        self.threadOperations = threadOperations
        self.usage = usage
        self.latency = latency
        self.osThreadsAtStart = osThreadsAtStart
        self.osThreadsAtEnd = osThreadsAtEnd
        self.schedule = schedule
        self.batchOperations = batchOperations
        self.stolen = stolen
    }

    /// Elapsed wall time divided by all threads' operations: the cost of one operation to the system as a
    /// whole (with T threads in parallel this is less than one thread's latency per operation).
    package var nanosecondsPerOperation: Double {
        operations == 0 ? .infinity : Double(elapsedNanoseconds) / Double(operations)
    }

    /// Throughput of all threads together.
    package var operationsPerSecond: Double {
        elapsedNanoseconds == 0 ? 0 : Double(operations) * 1e9 / Double(elapsedNanoseconds)
    }

    /// The slowest thread's share of the work relative to a fair share: 1 when every thread did the same,
    /// 0 when one thread starved. Nil without threads.
    package var fairness: Double? {
        guard let fewest = threadOperations.min(), operations > 0 else { return nil }
        return Double(fewest) * Double(threadOperations.count) / Double(operations)
    }
}

/// Latency percentiles in nanoseconds, from an HdrHistogram with three significant digits.
package struct LatencyPercentiles: Sendable, Equatable {
    package var p50: UInt64
    package var p90: UInt64
    package var p99: UInt64

    package init(p50: UInt64, p90: UInt64, p99: UInt64) {
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
    }
}

/// The samples of one case, or of one role of a case whose threads play different roles.
package struct CaseResult: Sendable {
    package var benchmarkCase: BenchmarkCase
    /// The role of the threads these samples count (`read`, `write`), or nil when all threads do the same.
    package var role: String?
    package var samples: [Sample]
    /// The case hung: none of its threads completed an operation, and the harness made no progress on it, for the
    /// hang timeout (`HangWatch`), so it was abandoned. Its one sample is then the span it was watched making no
    /// progress, with no operation (an infinite ns per operation): what the process and the case's threads did in
    /// that time, never a timing.
    package var hung: Bool

    package init(benchmarkCase: BenchmarkCase, role: String? = nil, samples: [Sample], hung: Bool = false) {
        self.benchmarkCase = benchmarkCase
        self.role = role
        self.samples = samples
        self.hung = hung
    }

    /// Summary of the samples' nanoseconds per operation.
    package var nanosecondsPerOperation: Statistics? {
        Statistics(samples.map(\.nanosecondsPerOperation))
    }
}
