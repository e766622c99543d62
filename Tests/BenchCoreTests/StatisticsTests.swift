@testable import BenchCore
import Testing

@Suite struct StatisticsTests {
    @Test func summarizesKnownValues() throws {
        let stats = try #require(Statistics([4, 1, 3, 2]))
        #expect(stats.count == 4)
        #expect(stats.min == 1)
        #expect(stats.max == 4)
        #expect(stats.mean == 2.5)
        #expect(stats.median == 2.5)
        // numpy.percentile([1, 2, 3, 4], [25, 75]) == [1.75, 3.25]
        #expect(stats.lowerQuartile == 1.75)
        #expect(stats.upperQuartile == 3.25)
        // Sample standard deviation: sqrt(5/3)
        #expect(abs(stats.standardDeviation - 1.2909944487358056) < 1e-12)
        #expect(stats.relativeSpread == 0.6)
    }

    @Test func oddCountMedianIsTheMiddleValue() throws {
        let stats = try #require(Statistics([10, 30, 20, 50, 40]))
        #expect(stats.median == 30)
        #expect(stats.lowerQuartile == 20)
        #expect(stats.upperQuartile == 40)
    }

    @Test func singleValueHasNoSpread() throws {
        let stats = try #require(Statistics([7]))
        #expect(stats.median == 7)
        #expect(stats.standardDeviation == 0)
        #expect(stats.relativeSpread == 0)
        #expect(stats.coefficientOfVariation == 0)
    }

    @Test func emptyInputHasNoSummary() {
        #expect(Statistics([]) == nil)
    }

    @Test func quantileInterpolatesBetweenRanks() {
        let sorted: [Double] = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
        #expect(Statistics.quantile(sorted: sorted, 0) == 0)
        #expect(Statistics.quantile(sorted: sorted, 1) == 100)
        #expect(Statistics.quantile(sorted: sorted, 0.95) == 95)
        #expect(Statistics.quantile(sorted: [1, 2], 0.5) == 1.5)
    }

    @Test func sampleDerivedFigures() throws {
        let sample = Sample(operations: 400, elapsedNanoseconds: 2_000, threadOperations: [100, 300])
        #expect(sample.nanosecondsPerOperation == 5)
        #expect(sample.operationsPerSecond == 200_000_000)
        // The slowest thread did 100 of 400 operations where a fair share is 200.
        #expect(sample.fairness == 0.5)
    }
}

@Suite struct StarvedQuantileTests {
    /// A starved sample is infinite: a quantile on or beside it is infinite or finite, never NaN.
    @Test func infiniteValuesGiveNoNaN() throws {
        let odd = try #require(Statistics([1, 2, .infinity]))
        #expect(odd.median == 2)
        let even = try #require(Statistics([1, 2, 3, .infinity]))
        #expect(even.median == 2.5)
        #expect(even.upperQuartile == .infinity)
        #expect(Statistics([4, .infinity])!.median == .infinity)
    }
}
