import SyncVariants

extension Outcome {
    /// A token's block ran exactly once.
    package static let ranOnce = Outcome("block-ran-once", .acceptable)
    package static let ranMoreThanOnce = Outcome("block-ran-more-than-once", .forbidden)
    package static let neverRan = Outcome("block-never-ran", .forbidden)
    /// A caller's `once` returned before the block's write was visible to it.
    package static let returnedEarly = Outcome("caller-returned-before-block-finished", .forbidden)
}

extension OnceRaceReport {
    /// The report as graded outcomes: one per token (ran once, more, never), plus each early return.
    package var outcomes: OutcomeCounts {
        var counts = OutcomeCounts()
        if timedOut { counts.record(.timedOut) }
        counts.record(.ranOnce, times: timedOut ? 0 : rounds - repeatedRuns - missedRuns)
        counts.record(.ranMoreThanOnce, times: repeatedRuns)
        counts.record(.neverRan, times: missedRuns)
        counts.record(.returnedEarly, times: earlyReturns)
        counts.trials = rounds
        return counts
    }
}

extension StressCatalog {
    /// Fresh tokens raced per iteration: enough for a broken variant to show, few enough to report often.
    static let onceRounds = 100

    /// The once race's power: measured against `UnguardedTrackerOnce` (docs/stress.md).
    package static let onceRacePower = CheckPower(
        trial: "fresh token, called by every thread at once", minimumTrials: 1_000,
        threads: "N threads meet at a barrier before each token and call once on it together (1: no race)",
        racyControl: "control/once/unguarded-tracker/race")

    /// The race of a once table, under `name/race`: every round, threads race one call on a fresh token of a
    /// fresh table; the block must run exactly once and no caller may return before it has.
    package static func onceCase<Table: OnceTable>(name: String, _: Table.Type) -> StressCase {
        onceCase(name: name) { OnceRaceCheck.race(Table.self, threads: $0, rounds: $1) }
    }

    /// The same race, run by `race(threads, rounds)`: for a once without a table of its own (the seed's call-site
    /// `once`, raced on fresh call sites).
    package static func onceCase(name: String,
                                 race: @escaping @Sendable (_ threads: Int, _ rounds: Int) -> OnceRaceReport)
        -> StressCase {
        StressCase("\(name)/race", onceRacePower) { threads in race(threads, onceRounds).outcomes }
    }

    static let onceControls: [StressCase] = [
        StressCase("once/unsynced-tracker/race", onceRacePower, control: .deterministic) { threads in
            OnceRaceCheck.race(UnsyncedTrackerOnce.self, threads: threads, rounds: onceRounds).outcomes
        },
        StressCase("once/early-return/race", onceRacePower, control: .deterministic) { threads in
            OnceRaceCheck.race(EarlyReturnOnce.self, threads: threads, rounds: onceRounds).outcomes
        },
        StressCase("once/unguarded-tracker/race", onceRacePower, control: .racy, controlThreads: 2) { threads in
            OnceRaceCheck.race(UnguardedTrackerOnce.self, threads: threads, rounds: onceRounds).outcomes
        },
    ]
}
