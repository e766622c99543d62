import Histogram

/// What one worker thread knows about itself while it runs a workload: its index in the team, the team's size,
/// and a latency histogram of its own (no sharing, so recording takes no lock).
///
/// Owned by one worker thread during a sample; the coordinator reads it only between samples, after the
/// team's end barrier.
@usableFromInline package final class WorkerContext: @unchecked Sendable {
    /// 0..<threadCount; stable for the whole case.
    @usableFromInline package let index: Int
    package let threadCount: Int
    var latencies = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
    var completedIterations = 0
    /// How long this thread's last untimed-by-the-coordinator run took, by its own clock (for calibration).
    var lastRunNanoseconds: UInt64 = 0

    init(index: Int, threadCount: Int) {
        self.index = index
        self.threadCount = threadCount
    }

    /// Records the latency of one operation, in nanoseconds, for the sample's p50/p90/p99.
    @inline(__always)
    @usableFromInline package func recordLatency(nanoseconds: UInt64) {
        _ = latencies.record(nanoseconds)
    }
}
