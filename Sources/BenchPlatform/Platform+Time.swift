#if os(Linux)
import Glibc
#else
import Darwin
#endif

extension Platform {
    /// Nanoseconds since an arbitrary fixed point (`CLOCK_MONOTONIC`): never goes backwards, unaffected by
    /// wall-clock changes. Inlined into timed loops: it adds nothing to the call itself (a vDSO read on Linux).
    @inlinable @inline(__always)
    package static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Sleeps the calling thread for at least `nanoseconds` (one `nanosleep`; a signal may end it early).
    /// Inlinable, so that the coordinator's sleep to the end of a measurement window is the code it was.
    @inlinable
    package static func sleep(nanoseconds: UInt64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        _ = nanosleep(&request, nil)
    }

    /// Keeps the processor busy for `nanoseconds` on the monotonic clock, without yielding it: a racing thread's
    /// hold or pause that lasts as long in a debug build as in a release one.
    package static func busyWait(nanoseconds: UInt64) {
        let start = monotonicNanoseconds()
        while monotonicNanoseconds() - start < nanoseconds {}
    }

    /// Gives the processor to another runnable thread, if any (`sched_yield`). Inlined: spin loops call it.
    @inlinable @inline(__always)
    package static func yieldProcessor() {
        sched_yield()
    }
}
