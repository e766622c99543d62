/// A sample as the session measured it, before it is split by role.
struct RawSample {
    var elapsedNanoseconds: UInt64
    var threadOperations: [Int]
    var usage: ResourceUsage
    var latency: LatencyPercentiles?
    /// The process's OS threads just before the sample's timed region and just after it.
    var osThreads: (start: Int?, end: Int?) = (nil, nil)
    /// What each thread's time went to from just before the timed region to just after it, in thread order; nil
    /// where it could not be read.
    var schedules: [ThreadSchedule]? = nil
    /// Each thread's CPUs at the sample's edges and what was stolen from every CPU in between; nil where it could
    /// not be read.
    var steal: TeamSteal? = nil
    /// The operations each thread publishes at a time (its batch × the workload's operations per iteration), in
    /// thread order, for timed pacing; nil for lockstep pacing, whose counts are exact at the sample's end.
    var batchOperations: [Int]? = nil

    /// The sample as seen from the given threads.
    func sample(threads: [Int]) -> Sample {
        let counted = threads.map { threadOperations[$0] }
        return Sample(operations: counted.reduce(0, +), elapsedNanoseconds: elapsedNanoseconds,
                      threadOperations: counted, usage: usage, latency: latency,
                      osThreadsAtStart: osThreads.start, osThreadsAtEnd: osThreads.end,
                      schedule: schedules.flatMap { all in ThreadSchedule.sum(threads.map { all[$0] }) },
                      batchOperations: batchOperations.flatMap { all in threads.map { all[$0] }.max() },
                      stolen: steal?.stolen(threads: threads))
    }
}
