import BenchPlatform

/// A monotonic clock in nanoseconds (`CLOCK_MONOTONIC`): never goes backwards, unaffected by wall-clock changes.
/// Reading it costs a few tens of nanoseconds (vDSO), which is why samples time whole batches of operations.
@usableFromInline package enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point in the past.
    @inlinable @inline(__always)
    package static func now() -> UInt64 {
        Platform.monotonicNanoseconds()
    }

    /// Sleeps the calling thread until at least `deadline` (a `now()` value) has passed.
    package static func sleep(until deadline: UInt64) {
        while true {
            let current = now()
            guard current < deadline else { return }
            Platform.sleep(nanoseconds: deadline - current)
        }
    }
}
