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
/// returns. Outcomes: one `round-trip-completed` per round trip, and `signal-lost-waiter-still-blocked` once on a
/// stall.
package func handoffOutcomes(
    _ handoff: any Handoff,
    roundTrips: Int,
    stallSeconds: Double = 2,
    rescue: @escaping @Sendable () -> Void = {}
) -> OutcomeCounts {
    let completed = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    let exited = DispatchGroup()
    for role in 0..<2 {
        exited.enter()
        Thread {
            for _ in 0..<roundTrips where !stop.load(ordering: .relaxed) {
                if role == 0 {
                    handoff.ping()
                    completed.add(1, ordering: .relaxed)
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
            return counts
        }
        seen = now
    }
    counts.record(.roundTripCompleted, times: completed.load(ordering: .relaxed))
    return counts
}
