import BenchCore
import Testing

/// The signs that the report may disqualify a variant, each shown at half the report's line and not short of it.
@Suite struct DisqualificationSignsTests {
    /// One role of `rounds` samples, one a round: each with `ns` ns/op and the given slowest and busiest threads'
    /// operations.
    static func role(ns: Double = 10, fewest: Double = 100, most: Double = 100, rounds: Int = 5,
                     starved: Int = 0) -> DisqualificationSigns.Role {
        var role = DisqualificationSigns.Role()
        for round in 1...rounds {
            role.append(nanosecondsPerOperation: round <= starved ? .infinity : ns, round: round,
                        fewestOperations: fewest, mostOperations: most)
        }
        return role
    }

    func shown(threads: Int = 2, logicalCPUs: Int = 2, _ roles: [DisqualificationSigns.Role]) -> Bool {
        DisqualificationSigns.shown(threads: threads, logicalCPUs: logicalCPUs, roles: roles)
    }

    @Test func aFairCaseOfOneRoleShowsNoSign() {
        #expect(!shown([Self.role()]))
    }

    /// Starved in a tenth of its samples (half the report's fifth) is a sign; in none, not.
    @Test func starvedSamplesAreASignFromATenthOn() {
        #expect(shown([Self.role(rounds: 10, starved: 1)]))
        #expect(!shown([Self.role(rounds: 10, starved: 0)]))
        #expect(!shown([Self.role(rounds: 20, starved: 1)]), "a twentieth is short of a tenth")
    }

    /// A role whose busiest thread did a fifth of another role's operations (half the report's tenth) is a sign; a
    /// quarter is not; none at all is.
    @Test func aRoleStarvedOfOperationsIsASign() {
        #expect(shown([Self.role(most: 100), Self.role(most: 20)]))
        #expect(!shown([Self.role(most: 100), Self.role(most: 25)]))
        #expect(shown([Self.role(most: 100), Self.role(fewest: 0, most: 0)]))
    }

    /// The slowest thread's share below 0.2 (twice the report's 0.1) is a sign where every thread has a CPU of its
    /// own; oversubscribed, or at one thread, it is not judged.
    @Test func unfairnessIsASignOnlyWhereTheReportJudgesIt() {
        let unfair = Self.role(fewest: 15, most: 100)
        #expect(shown(threads: 2, logicalCPUs: 2, [unfair]))
        #expect(!shown(threads: 2, logicalCPUs: 2, [Self.role(fewest: 25, most: 100)]))
        #expect(!shown(threads: 8, logicalCPUs: 2, [unfair]))
        #expect(!shown(threads: 1, logicalCPUs: 2, [unfair]))
    }
}
