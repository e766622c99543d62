@testable import BenchCore
import BenchPlatform
import Foundation
import Testing

/// Where a team's threads' time went: read per thread by the coordinator, summed per role into a sample, and
/// nothing (not a part) where a thread cannot be read. No timing is asserted: only what every reading must
/// satisfy (counts never go back, a thread that blocked was switched in again, a thread that worked ran).
@Suite struct ThreadScheduleTests {
    @Test func eachThreadOfATeamIsReadAndItsFiguresOnlyGrow() throws {
        let team = ThreadTeam(count: 2)
        defer { team.shutdown() }
        #expect(team.identities.count == 2 && team.identities.allSatisfy { $0 != nil })
        let reader = TeamScheduleReader(team.identities)
        let before = try #require(reader.read(), "Linux keeps per-thread scheduler statistics")
        team.run { index in
            if index == 0 {
                var sum = 0
                for value in 0..<1_000_000 { sum &+= value &* value }
                blackHole(sum)
            } else {
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
        let after = try #require(reader.read())
        let done = try #require(TeamScheduleReader.difference(before, after))
        #expect(done.count == 2 && done.allSatisfy { $0.threads == 1 })
        for (earlier, later) in zip(before, after) {
            #expect(later.runningNanoseconds >= earlier.runningNanoseconds)
            #expect(later.runQueueNanoseconds >= earlier.runQueueNanoseconds)
            #expect(later.switchesIn >= earlier.switchesIn)
        }
        // Both slept at the team's barriers (and thread 1 in its sleep), so both were switched in again; thread 0
        // computed, so it ran.
        #expect(done.allSatisfy { $0.switchesIn >= 1 })
        #expect(done[0].runningNanoseconds > 0)
    }

    /// A thread that cannot be read (no such thread, or no identity) makes the whole team's reading nil: a
    /// sample records the split of all its threads or none.
    @Test func aTeamWithAThreadThatCannotBeReadReadsNothing() throws {
        let team = ThreadTeam(count: 1)
        defer { team.shutdown() }
        let identity = try #require(team.identities[0])
        #expect(TeamScheduleReader([identity]).read() != nil, "the control: a live thread reads")
        let missing = ThreadIdentity(threadID: Int32.max, cpuClock: identity.cpuClock)
        #expect(TeamScheduleReader([identity, missing]).read() == nil)
        #expect(TeamScheduleReader([identity, nil]).read() == nil)
        #expect(TeamScheduleReader.difference(nil, [ThreadSchedule(threads: 1, runningNanoseconds: 1,
                                                                   runQueueNanoseconds: 0, switchesIn: 1)]) == nil)
    }

    /// A sample (a role's threads) sums the schedules of its own threads only, and has none when none was read.
    @Test func aSampleSumsItsOwnThreadsSchedules() {
        func thread(_ running: UInt64, _ waiting: UInt64, _ switches: UInt64) -> ThreadSchedule {
            ThreadSchedule(threads: 1, runningNanoseconds: running, runQueueNanoseconds: waiting, switchesIn: switches)
        }
        var raw = RawSample(elapsedNanoseconds: 10, threadOperations: [1, 2, 3], usage: ResourceUsage(),
                            latency: nil, schedules: [thread(100, 10, 1), thread(200, 20, 2), thread(400, 40, 4)])
        #expect(raw.sample(threads: [0, 2]).schedule == ThreadSchedule(threads: 2, runningNanoseconds: 500,
                                                                     runQueueNanoseconds: 50, switchesIn: 5))
        #expect(raw.sample(threads: [1]).schedule == thread(200, 20, 2))
        raw.schedules = nil
        #expect(raw.sample(threads: [0, 1, 2]).schedule == nil)
    }
}
