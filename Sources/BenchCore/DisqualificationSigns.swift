/// Whether the report may disqualify a case's variant, as far as a timing file shows: the stopping rule then draws
/// its lines through every case that may turn out to be the report's pick (`StoppingRule`), not only through the
/// fastest.
///
/// The report (scripts/analyze_lib/judge/decisions.py, `disqualification`) disqualifies a variant that is starved,
/// starves another role of its case, or is unfair, and then does so in every case of its suite. Here each of those
/// reasons is read from the same samples, each at half its line, so that a variant the report disqualifies always
/// shows a sign here (the report also weighs the roles' time on a CPU, and fairness only on a quiet machine: each
/// only narrows its reasons). A variant whose stress checks fail is disqualified too; a timing file does not say
/// so, and the rule cannot know it.
package enum DisqualificationSigns {
    /// The report's lines (decisions.py `STARVED_SHARE`, `ROLE_STARVATION_FACTOR`; evidence.py `FAIRNESS_MIN`).
    package static let starvedShare = 0.2
    package static let roleStarvationFactor = 10.0
    package static let fairnessMinimum = 0.1
    /// How much nearer than the report's line a sign is taken.
    static let margin = 2.0

    /// One role's samples of a case (the only one when its threads play none).
    package struct Role: Sendable {
        /// ns/op of each sample: infinite when it completed no operation.
        package var nanosecondsPerOperation: [Double]
        /// Each sample's round, its slowest thread's operations and its busiest thread's, in the same order.
        package var rounds: [Int]
        package var fewestOperations: [Double]
        package var mostOperations: [Double]

        package init(nanosecondsPerOperation: [Double] = [], rounds: [Int] = [], fewestOperations: [Double] = [],
                     mostOperations: [Double] = []) {
            self.nanosecondsPerOperation = nanosecondsPerOperation
            self.rounds = rounds
            self.fewestOperations = fewestOperations
            self.mostOperations = mostOperations
        }

        /// Adds one sample.
        package mutating func append(nanosecondsPerOperation: Double, round: Int, fewestOperations: Double,
                                     mostOperations: Double) {
            self.nanosecondsPerOperation.append(nanosecondsPerOperation)
            rounds.append(round)
            self.fewestOperations.append(fewestOperations)
            self.mostOperations.append(mostOperations)
        }
    }

    /// Whether a case of `threads` threads, on a machine of `logicalCPUs`, whose roles measured `roles`, shows a sign
    /// that the report may disqualify its variant.
    package static func shown(threads: Int, logicalCPUs: Int, roles: [Role]) -> Bool {
        for role in roles {
            let starved = role.nanosecondsPerOperation.filter(\.isInfinite).count
            if starved > 0 && Double(starved) >= starvedShare / margin * Double(role.nanosecondsPerOperation.count) {
                return true
            }
            // Unfair: judged by the report only where every thread has a CPU of its own.
            if threads > 1 && threads <= logicalCPUs, let fairness = fairness(role),
               fairness < fairnessMinimum * margin {
                return true
            }
        }
        // Starving a role: the busiest threads of one role completed far fewer operations than another's.
        let busiest = roles.compactMap { Statistics($0.mostOperations.filter(\.isFinite))?.median }
        if busiest.count >= 2, let least = busiest.min(), let most = busiest.max() {
            if least == 0 || most / least >= roleStarvationFactor / margin { return true }
        }
        return false
    }

    /// The slowest thread's operations over the busiest's, as a level: the median of the round medians of each
    /// sample's share (decisions.py via signals.fairness); nil when no sample recorded them.
    static func fairness(_ role: Role) -> Double? {
        var byRound: [Int: [Double]] = [:]
        for (index, most) in role.mostOperations.enumerated() where most > 0 && most.isFinite
            && role.fewestOperations[index].isFinite {
            byRound[role.rounds[index], default: []].append(role.fewestOperations[index] / most)
        }
        return Statistics(byRound.values.compactMap { Statistics($0)?.median })?.median
    }
}
