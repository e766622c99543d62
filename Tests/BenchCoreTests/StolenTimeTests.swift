@testable import BenchCore
import BenchPlatform
import Testing

/// What the hypervisor stole from a sample's CPUs: a row's figure summed over the CPUs its own threads were on, each
/// once, or none where one of them has no figure; each CPU's figure the difference of its two readings.
@Suite struct StolenTimeTests {
    /// A row's stolen time sums the CPUs its own threads were on, at either edge, each once; a CPU without a
    /// figure leaves the row without one.
    @Test func aRowSumsTheCPUsItsThreadsWereOnOnce() throws {
        let steal = TeamSteal(processors: [(opened: 0, closed: 1), (opened: 1, closed: 1), (opened: 3, closed: 3),
                                           (opened: 2, closed: 0), (opened: 7, closed: 0)],
                              ticks: [10, 20, nil, 5])
        func nanoseconds(_ ticks: UInt64) throws -> UInt64 { try #require(CPUStealTicks.nanoseconds(ticks: ticks)) }
        #expect(try steal.stolen(threads: [0, 1]) == StolenTime(nanoseconds: nanoseconds(30), cpus: 2))
        #expect(try steal.stolen(threads: [2]) == StolenTime(nanoseconds: nanoseconds(5), cpus: 1))
        #expect(try steal.stolen(threads: [0, 1, 2]) == StolenTime(nanoseconds: nanoseconds(35), cpus: 3))
        #expect(steal.stolen(threads: [3]) == nil, "CPU 2 has no figure")
        #expect(steal.stolen(threads: [4]) == nil, "CPU 7 is beyond the CPUs read")
        #expect(steal.stolen(threads: []) == nil)
        // Through a sample split by role, as CaseRunner.results does.
        let raw = RawSample(elapsedNanoseconds: 1, threadOperations: [1, 1, 1, 1, 1], usage: ResourceUsage(),
                            latency: nil, steal: steal)
        #expect(try raw.sample(threads: [2]).stolen == StolenTime(nanoseconds: nanoseconds(5), cpus: 1))
        #expect(RawSample(elapsedNanoseconds: 1, threadOperations: [1], usage: ResourceUsage(), latency: nil)
            .sample(threads: [0]).stolen == nil)
    }

    /// Between two readings each CPU's steal is its difference; a CPU without a figure at either edge, or whose
    /// count went back, has none, and readings of different teams give nothing.
    @Test func theDifferenceOfTwoReadingsIsEachCPUsOwn() throws {
        let opened = StealReading(processors: [0, 1],
                                  ticks: try #require(CPUStealTicks(procStat: "cpu0 0 0 0 0 0 0 0 100\n"
                                                                    + "cpu1 0 0 0 0 0 0 0 50\ncpu2 0 0 0 0 0 0 0 9\n")))
        let closed = StealReading(processors: [1, 1],
                                  ticks: try #require(CPUStealTicks(procStat: "cpu0 0 0 0 0 0 0 0 103\n"
                                                                    + "cpu1 0 0 0 0 0 0 0 49\ncpu2 0 0 0 0 0 0 0\n")))
        let steal = try #require(TeamStealReader.difference(opened, closed))
        #expect(steal.ticks == [3, nil, nil])
        #expect(steal.processors.map(\.opened) == [0, 1] && steal.processors.map(\.closed) == [1, 1])
        #expect(TeamStealReader.difference(opened, nil) == nil)
        let other = StealReading(processors: [0], ticks: closed.ticks)
        #expect(TeamStealReader.difference(opened, other) == nil)
    }
}
