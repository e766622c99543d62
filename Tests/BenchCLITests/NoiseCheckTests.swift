import BenchCore
@testable import BenchCommandLine
import Testing

/// Issue 14 (16): the signs of a busy machine, on given values.
@Suite struct NoiseCheckTests {
    @Test func aLoadAtOrAboveTheCoreCountIsWarnedAbout() throws {
        #expect(NoiseCheck.loadWarning(loadAverage: 1.99, logicalCPUs: 2) == nil)
        #expect(NoiseCheck.loadWarning(loadAverage: nil, logicalCPUs: 2) == nil, "unknown is not a warning")
        let warning = try #require(NoiseCheck.loadWarning(loadAverage: 2, logicalCPUs: 2))
        #expect(warning.hasPrefix("warning: the 1-minute load average is 2.00 on 2 logical CPUs: "))
        #expect(!warning.contains("\n"), "one line")
        #expect(NoiseCheck.loadWarning(loadAverage: 7.5, logicalCPUs: 4) != nil)
    }

    @Test func outliersLieBeyondThreeInterquartileRanges() {
        let steady: [Double] = [10, 10, 11, 11, 11, 12, 12]
        #expect(NoiseCheck.outlierCount(steady) == 0)
        // With one more value the quartiles (numpy's default) are 10.75 and 12: the upper fence is 12 + 3 × 1.25.
        #expect(NoiseCheck.outlierCount(steady + [15.7]) == 0)
        #expect(NoiseCheck.outlierCount(steady + [15.8]) == 1)
        #expect(NoiseCheck.outlierCount([10, 10, 11, 11, 11, 12, 12, 40, 3]) == 2)
        #expect(NoiseCheck.outlierCount([5]) == 0)
        #expect(NoiseCheck.outlierCount([]) == 0)
        #expect(NoiseCheck.outlierCount(steady + [.infinity]) == 0, "a starved sample is not an outlier")
    }

    func result(_ variant: String, _ nanoseconds: [UInt64]) -> CaseResult {
        CaseResult(benchmarkCase: BenchmarkCase(suite: "s", benchmark: "b", variant: variant, threads: 1),
                   samples: nanoseconds.map { Sample(operations: 1, elapsedNanoseconds: $0, threadOperations: [1]) })
    }

    @Test func theSummaryCountsOutliersAndSaysSoOnce() {
        let quiet = result("quiet", [10, 10, 11, 11, 11, 12, 12])
        let busy = result("busy", [10, 10, 11, 11, 11, 12, 12, 90])
        let noisy = SummaryTable.render([quiet, busy], logicalCPUs: 2).split(separator: "\n")
        #expect(noisy[0].hasSuffix("outliers"))
        #expect(noisy.first { $0.hasPrefix("s/b/busy") }?.hasSuffix("1/8") == true)
        let quietRow = noisy.first { $0.hasPrefix("s/b/quiet") } ?? ""
        #expect(!quietRow.contains("/7"), "no count without outliers: \(quietRow)")
        #expect(noisy.filter { $0.hasPrefix("! 1 of 2 results had outlier samples") }.count == 1)

        let calm = SummaryTable.render([quiet], logicalCPUs: 2)
        #expect(!calm.contains("outlier samples"))
    }

    /// Issue 44: the footnote defines `starved` only when a cell shows it, as a value, not as a column.
    @Test func theStarvedFootnoteAppearsOnlyWhereACellReadsStarved() {
        let calm = SummaryTable.render([result("quiet", [10, 10, 11])], logicalCPUs: 2)
        #expect(!calm.contains("starved"))
        let starvedSample = Sample(operations: 0, elapsedNanoseconds: 50, threadOperations: [0])
        let starved = CaseResult(benchmarkCase: BenchmarkCase(suite: "s", benchmark: "b", variant: "w", threads: 1),
                                 samples: [Sample(operations: 1, elapsedNanoseconds: 10, threadOperations: [1]),
                                           starvedSample])
        let lines = SummaryTable.render([starved], logicalCPUs: 2).split(separator: "\n")
        #expect(lines.first { $0.hasPrefix("s/b/w") }?.contains("10.0–starved") == true)
        #expect(lines.contains("starved, in place of a number: no operation completed in that sample."))
        #expect(!lines[0].contains("starved"), "no column is named starved")
    }

    /// Issue 44: a progress line never says `~0s left`.
    @Test func aRemainingTimeUnderHalfASecondReadsLessThanOneSecond() {
        #expect(Progress.duration(0) == "<1s")
        #expect(Progress.duration(0.4) == "<1s")
        #expect(Progress.duration(0.6) == "1s")
        #expect(Progress.duration(40) == "40s")
        #expect(Progress.duration(125) == "2m05s")
    }
}
