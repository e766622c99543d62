import BenchPlatform
import Dispatch
import Foundation
import Synchronization
import SyncVariants

extension Outcome {
    /// One ping answered by its pong.
    package static let roundTripCompleted = Outcome("round-trip-completed", .acceptable)
    /// No round trip completed for the stall time: a wake-up was lost and both threads sleep.
    package static let signalLost = Outcome("signal-lost-waiter-still-blocked", .forbidden)
}

/// No lost wake-ups: two threads complete `roundTrips` ping-pongs through `handoff`. Every `stallSeconds` the check
/// looks; no round trip completed since the last look (or the start) is a stall, so a lost wake-up is reported one
/// to two times `stallSeconds` after it. On a stall the threads are told to stop and `rescue` is called until they
/// have (a correct handoff never needs it; a broken one offers a way to wake its sleepers), so the check always
/// returns. `spinners` more threads (none when 0 or fewer) spin on the CPUs meanwhile, so that the pair is
/// preempted at moments no quiet machine would choose: a race between a signal and a wait needs the signaller to
/// run while the waiter is between its check and its wait. Outcomes: one `round-trip-completed` per round trip
/// (its trials), and `signal-lost-waiter-still-blocked` once on a stall.
package func handoffOutcomes(
    _ handoff: any Handoff,
    roundTrips: Int,
    stallSeconds: Double = 2,
    spinners: Int = 0,
    rescue: @escaping @Sendable () -> Void = {}
) -> OutcomeCounts {
    let completed = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    let exited = DispatchGroup()
    let spinning = DispatchGroup()
    for _ in 0..<max(spinners, 0) {
        spinning.enter()
        Thread {
            while !stop.load(ordering: .relaxed) {}  // spins until the check returns (the defer below)
            spinning.leave()
        }.start()
    }
    defer {
        stop.store(true, ordering: .relaxed)
        spinning.wait()
    }
    for role in 0..<2 {
        exited.enter()
        Thread {
            var jitter = Jitter(seed: UInt64(role) &+ 0x9E37_79B9_7F4A_7C15,
                                maximumNanoseconds: role == 0 ? 500 : 16_000)
            for _ in 0..<roundTrips where !stop.load(ordering: .relaxed) {
                jitter.pause()
                if role == 0 {
                    handoff.ping()
                    completed.add(1, ordering: .relaxed)
                    StressPulse.beat()
                } else {
                    handoff.pong()
                }
            }
            exited.leave()
        }.start()
    }
    var counts = OutcomeCounts()
    var seen = 0
    while exited.wait(timeout: .now() + stallSeconds) == .timedOut {
        let now = completed.load(ordering: .relaxed)
        if now == seen {
            stop.store(true, ordering: .relaxed)
            for _ in 0..<500 {
                rescue()
                if exited.wait(timeout: .now() + 0.01) == .success { break }
            }
            counts.record(.roundTripCompleted, times: now)
            counts.record(.signalLost)
            counts.trials = now + 1
            return counts
        }
        seen = now
    }
    counts.record(.roundTripCompleted, times: completed.load(ordering: .relaxed))
    counts.trials = completed.load(ordering: .relaxed)
    return counts
}

/// A short pause of a random length before each call of a racing thread, so that the moments two threads' calls
/// meet are spread over every offset within the pause's range instead of falling where a quiet machine's rhythm
/// puts them: a window of tens of nanoseconds between a signal and a wait is then hit in a share of the trials, not
/// in none. Measured on the monotonic clock, so that it lasts as long in a debug build as in a release one; a
/// xorshift generator, one per thread: no shared state, no system call.
struct Jitter {
    private var state: UInt64
    /// The longest pause.
    let maximumNanoseconds: UInt64

    init(seed: UInt64, maximumNanoseconds: UInt64) {
        state = seed | 1
        self.maximumNanoseconds = maximumNanoseconds
    }

    mutating func pause() {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        Platform.busyWait(nanoseconds: state % maximumNanoseconds)
    }
}
