import Foundation

/// When a case of an adaptive run (`bench` without `--rounds`) has had enough rounds: the one statement of the
/// rule. docs/running.md ("Adaptive rounds") says the same in words.
///
/// **Scenario.** A case takes part in the decisions of its scenario: the cases of the run with the same suite,
/// benchmark, thread count and parameters (each role of a case's threads is a scenario of its own), as
/// scripts/analyze draws them (judge/decisions.py): *use* the lowest median of round medians, the runner-up next,
/// *avoid* what costs at least `avoidFactor` times the use. The harness (the floor), a suite's baselines and a
/// case alone in its scenario take part in none.
///
/// **Interval.** A case's interval is the range of its round medians, least to greatest. Round medians are
/// taken to be independent draws of one continuous cost (each round is a fresh process); nothing is assumed of
/// that cost's distribution. The range misses the cost's median below only if every round fell above it, with
/// probability 2⁻ⁿ after n rounds, and above likewise.
///
/// **Lines.** A case is settled when its interval clears every line its scenario draws through it:
/// - the fastest (lowest median of round medians): its interval is apart from the second fastest's (the pick
///   against the runner-up);
/// - every other case: its interval is apart from the fastest's, and wholly above or wholly below
///   `avoidFactor` × the fastest's (the avoid line).
///
/// A case that takes part in no decision is settled as soon as it has `minimumRounds`. A case whose scenario
/// holds a case with fewer rounds than that, or with a round median that is not a number, is not settled. A case
/// whose threads play roles is settled when every role is.
///
/// **Looks and error.** Each claim that an interval clears a line (one median above another, or above or below
/// `avoidFactor` times another) is wrong only if one of its two intervals missed its median on the side that
/// matters: probability at most 2 · 2⁻ⁿ with n the rounds of the first look (`claimError(rounds:)`). A range
/// only widens as rounds are added, so an interval that misses at a later look missed at every earlier one: the
/// misses of all looks together are the first look's, and looking again spends nothing more. The rule looks
/// first at `firstLook`, the fewest rounds whose claim error is within `alpha`; no look comes earlier, so every
/// claim, made at any look, is wrong with probability at most `claimError(rounds: firstLook)` ≤ `alpha` (for a
/// case between the two lines, two claims rest on it). A range that only widens also means that a case not
/// settled at its first look settles later only if its scenario's fastest case changes: in practice the first
/// look decides which cases go on to `maximumRounds`.
///
/// Every case gets `minimumRounds` (at least `fewestRounds`, and no fewer than `firstLook`) and at most
/// `maximumRounds`; after each round from `minimumRounds` on, the cases not settled by everything measured so far
/// go into the next round, and a settled case is reopened if a later look finds it no longer settled.
package struct StoppingRule: Sendable, Equatable {
    /// A case to avoid costs at least this many times the one to use (scripts/analyze_lib/judge/decisions.py
    /// AVOID_FACTOR).
    package static let avoidFactor = 3.0
    /// The fewest rounds any case of an adaptive run gets, whatever `alpha` allows.
    package static let fewestRounds = 3
    /// The error allowed to each claim across all looks: 0.10, so that the first look is at 5 rounds (0.0625). At
    /// 0.05 it would come a round later; a look at 3 rounds would allow a wrong claim one time in four.
    package static let standardAlpha = 0.10

    /// The error allowed to each claim, across all looks together.
    package let alpha: Double
    /// The most rounds a case gets.
    package let maximumRounds: Int
    /// The fewest rounds at which a claim's error is within `alpha`: the first look.
    package let firstLook: Int

    package init(alpha: Double = Self.standardAlpha, maximumRounds: Int) {
        precondition(alpha > 0 && alpha < 1 && maximumRounds >= 1, "an error between 0 and 1 and a cap")
        self.alpha = alpha
        self.maximumRounds = maximumRounds
        var rounds = 1
        while Self.claimError(rounds: rounds) > alpha { rounds += 1 }
        firstLook = rounds
    }

    /// The rounds every case gets: the first look, and never fewer than `fewestRounds` nor more than
    /// `maximumRounds`.
    package var minimumRounds: Int { min(max(Self.fewestRounds, firstLook), maximumRounds) }

    /// The probability, at most, that a claim made from ranges of at least `rounds` round medians is wrong: one
    /// range misses below (2⁻ⁿ) or the other above (2⁻ⁿ).
    package static func claimError(rounds: Int) -> Double {
        2 * pow(0.5, Double(rounds))
    }

    /// One case's (or one role's) round medians in a scenario.
    package struct Row<Case: Hashable> {
        /// The case the row belongs to: a case is settled when all its rows are.
        package var benchmarkCase: Case
        /// What makes two rows compete: suite, benchmark, threads, parameters and role.
        package var scenario: String
        /// The row's round medians, in any order.
        package var roundMedians: [Double]
        /// Whether the row takes part in its scenario's decisions (not the harness, not a baseline).
        package var decides: Bool

        package init(benchmarkCase: Case, scenario: String, roundMedians: [Double], decides: Bool = true) {
            self.benchmarkCase = benchmarkCase
            self.scenario = scenario
            self.roundMedians = roundMedians
            self.decides = decides
        }
    }

    /// The cases of `rows` that are not settled: those to measure in the next round (before `maximumRounds`).
    package func openCases<Case>(_ rows: [Row<Case>]) -> Set<Case> {
        var open = Set<Case>()
        for (_, scenario) in Dictionary(grouping: rows, by: \.scenario) {
            for (row, settled) in zip(scenario, settled(scenario)) where !settled {
                open.insert(row.benchmarkCase)
            }
        }
        return open
    }

    /// Whether each row of one scenario clears the lines the scenario draws through it, in the rows' order.
    func settled<Case>(_ scenario: [Row<Case>]) -> [Bool] {
        let enough = scenario.map { $0.roundMedians.count >= minimumRounds }
        let deciding = scenario.indices.filter { scenario[$0].decides }
        // Alone, the harness or a baseline: no line to clear.
        guard deciding.count >= 2 else { return enough }
        var intervals: [Int: (median: Double, range: ClosedRange<Double>)] = [:]
        for index in deciding {
            let medians = scenario[index].roundMedians
            // A scenario with an interval too short for the rule's error, or with no number, settles nothing.
            guard enough[index], !medians.contains(where: \.isNaN), let statistics = Statistics(medians) else {
                return scenario.map { !$0.decides && $0.roundMedians.count >= minimumRounds }
            }
            intervals[index] = (statistics.median, statistics.min...statistics.max)
        }
        // Lowest median first; equal medians keep the rows' order (such a pair is never apart).
        let ranked = deciding.sorted { (intervals[$0]!.median, $0) < (intervals[$1]!.median, $1) }
        let fastest = intervals[ranked[0]]!.range
        let avoidLine = (Self.avoidFactor * fastest.lowerBound)...(Self.avoidFactor * fastest.upperBound)
        return scenario.indices.map { index in
            guard let interval = intervals[index]?.range else { return enough[index] }
            if index == ranked[0] { return Self.apart(fastest, intervals[ranked[1]]!.range) }
            return Self.apart(interval, fastest) && Self.apart(interval, avoidLine)
        }
    }

    /// Whether two intervals have no point in common.
    static func apart(_ one: ClosedRange<Double>, _ other: ClosedRange<Double>) -> Bool {
        one.upperBound < other.lowerBound || other.upperBound < one.lowerBound
    }
}
