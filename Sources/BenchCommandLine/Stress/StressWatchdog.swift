import BenchCore
import Foundation
import Synchronization

/// Watches a stress run for progress: the runner calls `progress(_:)` after every iteration, and a check that
/// makes none for `limit` seconds is reported by name as a suspected deadlock by `onStall`, on the watchdog's own
/// thread, which must end the process (the hung check's threads cannot be stopped, only abandoned).
final class StressWatchdog: Sendable {
    let limitNanoseconds: UInt64
    private let lastProgress = Atomic<UInt64>(MonotonicClock.now())
    private let current = Mutex<String>("")

    init(limitSeconds: Double, onStall: @escaping @Sendable (_ check: String, _ seconds: Double) -> Never) {
        limitNanoseconds = UInt64(limitSeconds * 1e9)
        let thread = Thread { [self] in
            // Polls a few times per limit, so that a stall is reported within about 1.25 limits.
            let poll = min(0.25, limitSeconds / 4)
            while true {
                Thread.sleep(forTimeInterval: poll)
                let quiet = MonotonicClock.now() &- lastProgress.load(ordering: .acquiring)
                if quiet > limitNanoseconds && quiet < UInt64.max / 2 {
                    onStall(current.withLock { $0 }, Double(quiet) / 1e9)
                }
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Starts watching `check` now.
    func starting(_ check: String) {
        current.withLock { $0 = check }
        lastProgress.store(MonotonicClock.now(), ordering: .releasing)
    }

    /// The check completed an iteration.
    func progress() {
        lastProgress.store(MonotonicClock.now(), ordering: .releasing)
    }
}
