import BenchPlatform
import Synchronization

/// A reusable barrier for `parties` threads that meet once per round: each `arriveAndWait` returns when all
/// parties have arrived for the current round. Used to start racing callers together, round after round (`once/race` and its stress check).
///
/// It spins briefly, then calls `sched_yield` between checks: with more threads than cores (8 threads on 2
/// cores) a pure spin would burn the quantum a late thread needs to arrive, while a blocking barrier (futex
/// sleep and wake) would add a wake-up of every waiter to each round. Its cost is part of a round's cost, which
/// is why the once suite measures it alone (`barrier-only`). Thread-safe; generations make it reusable
/// without a reset.
@usableFromInline package final class RoundBarrier: Sendable {
    /// The number of threads that meet each round.
    package let parties: Int
    private let arrived = Atomic<Int>(0)
    private let generation = Atomic<Int>(0)
    /// Checks of the generation before the first `sched_yield`.
    private static let spinsBeforeYield = 100

    @usableFromInline package init(parties: Int) {
        precondition(parties >= 1, "a barrier needs at least one party")
        self.parties = parties
    }

    /// Waits until all parties have arrived for this round. Returns false (and leaves the barrier broken for
    /// this round) if `deadline`, a `MonotonicClock.now()` time, passes first.
    @discardableResult
    @usableFromInline package func arriveAndWait(deadline: UInt64 = .max) -> Bool {
        let round = generation.load(ordering: .acquiring)
        if arrived.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == parties {
            // Reset before publishing the new round: a thread that sees the new generation arrives afterwards.
            arrived.store(0, ordering: .relaxed)
            generation.store(round &+ 1, ordering: .releasing)
            return true
        }
        var spins = 0
        while generation.load(ordering: .acquiring) == round {
            if spins < Self.spinsBeforeYield {
                spins += 1
            } else {
                Platform.yieldProcessor()
                if deadline != .max && MonotonicClock.now() > deadline { return false }
            }
        }
        return true
    }
}
