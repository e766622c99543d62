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
/// **Picks the report may make.** The report does not pick a variant it disqualifies (starved, starving a role,
/// unfair: `DisqualificationSigns`, which a row carries as `mayBeDisqualified`). So the lines are drawn through
/// every case that may be the pick: the fastest, and each next one while those before it may be disqualified, up
/// to the first that shows no sign. Each such case is apart from every case after it up to the next that shows no
/// sign (its runner-up, whichever of them the report keeps), and every case is apart from each possible pick before
/// it and clear of its avoid line. With no sign in a scenario this is the two lines above. Each claim keeps the
/// error below; a case beside several possible picks rests on more claims.
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
        /// Whether the report may disqualify the row's variant (`DisqualificationSigns`), so that it may not be
        /// the report's pick however fast it is.
        package var mayBeDisqualified: Bool

        package init(benchmarkCase: Case, scenario: String, roundMedians: [Double], decides: Bool = true,
                     mayBeDisqualified: Bool = false) {
            self.benchmarkCase = benchmarkCase
            self.scenario = scenario
            self.roundMedians = roundMedians
            self.decides = decides
            self.mayBeDisqualified = mayBeDisqualified
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
        let range = { (rank: Int) in intervals[ranked[rank]]!.range }
        // The ranks that may be the report's pick: up to and including the first without a sign (or all).
        let lastPossiblePick = ranked.firstIndex { !scenario[$0].mayBeDisqualified } ?? ranked.count - 1
        var settled = [Bool](repeating: true, count: ranked.count)
        for rank in ranked.indices {
            for pick in 0..<min(rank, lastPossiblePick + 1) {
                let line = (Self.avoidFactor * range(pick).lowerBound)...(Self.avoidFactor * range(pick).upperBound)
                settled[rank] = settled[rank] && Self.apart(range(rank), range(pick)) && Self.apart(range(rank), line)
            }
            guard rank <= lastPossiblePick else { continue }
            // Its runner-up, should it be the pick: the next case, or a later one while those between may go.
            var next = rank + 1
            while next < ranked.count {
                settled[rank] = settled[rank] && Self.apart(range(rank), range(next))
                if !scenario[ranked[next]].mayBeDisqualified { break }
                next += 1
            }
        }
        var byIndex = enough
        for (rank, index) in ranked.enumerated() { byIndex[index] = settled[rank] }
        return byIndex
    }

    /// Whether two intervals have no point in common.
    static func apart(_ one: ClosedRange<Double>, _ other: ClosedRange<Double>) -> Bool {
        one.upperBound < other.lowerBound || other.upperBound < one.lowerBound
    }
}
