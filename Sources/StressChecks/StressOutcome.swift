/// How an observed outcome is graded, as jcstress grades them: what the contract allows, what it allows but is
/// worth showing (a window the contract leaves open), and what it forbids (a bug).
package enum OutcomeGrade: String, Sendable, CaseIterable, Comparable {
    case acceptable
    case interesting = "acceptable-interesting"
    case forbidden

    package static func < (lhs: OutcomeGrade, rhs: OutcomeGrade) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One thing a stress check can observe, by a stable id (the CSV's `outcome` column) and its grade for the
/// variant under check: the same observation can be interesting for one contract and forbidden for another.
package struct Outcome: Hashable, Sendable, CustomStringConvertible {
    package let id: String
    package let grade: OutcomeGrade

    package init(_ id: String, _ grade: OutcomeGrade) {
        self.id = id
        self.grade = grade
    }

    package var description: String { "\(id) (\(grade.rawValue))" }

    /// The checked threads did not all finish within the check's own deadline (a deadlock or a lost thread).
    package static let timedOut = Outcome("threads-did-not-finish", .forbidden)
}

/// How many times each outcome was observed. A value type: each iteration returns one, the runner adds them up.
package struct OutcomeCounts: Sendable, Equatable {
    package private(set) var counts: [Outcome: Int] = [:]
    /// Racing windows the check made (`CheckPower.trial`); `bench stress` counts an iteration that leaves it 0 as
    /// one trial.
    package var trials = 0

    package init() {}

    /// Records `outcome` `times` times; an outcome observed 0 times is not recorded.
    package mutating func record(_ outcome: Outcome, times: Int = 1) {
        guard times > 0 else { return }
        counts[outcome, default: 0] += times
    }

    /// Adds `other`'s outcomes and trials.
    package mutating func add(_ other: OutcomeCounts) {
        for (outcome, count) in other.counts { record(outcome, times: count) }
        trials += other.trials
    }

    /// Observations graded forbidden.
    package var forbidden: Int { counts.filter { $0.key.grade == .forbidden }.values.reduce(0, +) }

    /// The outcomes, worst grade first, then by id.
    package var sorted: [(outcome: Outcome, count: Int)] {
        counts.map { ($0.key, $0.value) }.sorted {
            $0.outcome.grade != $1.outcome.grade ? $0.outcome.grade > $1.outcome.grade : $0.outcome.id < $1.outcome.id
        }
    }
}
