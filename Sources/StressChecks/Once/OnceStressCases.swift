import SyncVariants
import VariantCatalog

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
        return counts
    }
}

extension StressCatalog {
    /// Fresh tokens raced per iteration: enough for a broken variant to show, few enough to report often.
    static let onceRounds = 100

    static let onceCases: [StressCase] = OnceVariant.raced.compactMap { variant in
        guard let race = variant.accept(OnceRacer()) else { return nil }
        return StressCase("once/\(variant.rawValue)/race") { threads in race(threads, onceRounds).outcomes }
    }

    /// The race check of a once table, under `name/race`: for a table a package brings, as for the catalog's.
    package static func onceCase<Table: OnceTable>(name: String, _: Table.Type) -> StressCase {
        StressCase("\(name)/race") { threads in
            OnceRaceCheck.race(Table.self, threads: threads, rounds: onceRounds).outcomes
        }
    }

    static let onceControls: [StressCase] = [
        StressCase("once/unsynced-tracker/race", control: true) { threads in
            OnceRaceCheck.race(UnsyncedTrackerOnce.self, threads: threads, rounds: onceRounds).outcomes
        },
        StressCase("once/early-return/race", control: true) { threads in
            OnceRaceCheck.race(EarlyReturnOnce.self, threads: threads, rounds: onceRounds).outcomes
        },
    ]
}
