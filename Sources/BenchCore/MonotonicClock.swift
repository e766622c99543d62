#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A monotonic clock in nanoseconds (`CLOCK_MONOTONIC`): never goes backwards, unaffected by wall-clock changes.
/// Reading it costs a few tens of nanoseconds (vDSO), which is why samples time whole batches of operations.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point in the past.
    @inlinable @inline(__always)
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Sleeps the calling thread until at least `deadline` (a `now()` value) has passed.
    public static func sleep(until deadline: UInt64) {
        while true {
            let current = now()
            guard current < deadline else { return }
            let remaining = deadline - current
            var request = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
            _ = nanosleep(&request, nil)
        }
    }
}
