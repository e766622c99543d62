@testable import BenchCommandLine
import Testing

/// Issue 44 (8): counts agree with their nouns, a bad --filter says why, and a duration that is not a number
/// says that seconds are expected.
@Suite struct WordingTests {
    @Test(arguments: [(0, "0 samples"), (1, "1 sample"), (2, "2 samples"), (10, "10 samples")])
    func aCountAgreesWithItsNoun(count: Int, text: String) {
        #expect(plural(count, "sample") == text)
    }

    @Test func oneOfEachCountIsSingular() {
        #expect(plural(UInt64(1), "iteration") == "1 iteration")
        #expect("\(plural(2, "round")) of \(plural(1, "case"))" == "2 rounds of 1 case")
    }

    @Test func aFilterThatDoesNotCompileSaysWhy() {
        #expect(FilterPattern.reason("^once/(hit") == "expected ')'")
        #expect(FilterPattern.reason("[a-") == "expected ']'")
        #expect(FilterPattern.reason("^once/(hit|first)") == nil)
    }

    @Test func secondsMustBeANumber() throws {
        #expect(try SecondsArgument.parse("2.5") == 2.5)
        #expect(throws: (any Error).self) { try SecondsArgument.parse("ten") }
    }
}
