import BenchCore
import BenchTestSupport
import Foundation
import Testing

/// Where a `ThreadTeam`'s threads may run: each on its CPU of `cpus` alone when given, wherever the process may
/// run otherwise (the negative control), and a CPU it may not use reported, not ignored.
@Suite struct ThreadTeamTests {
    /// What each thread of `team` sees as its allowed CPUs, from inside a job.
    static func cpusSeen(by team: ThreadTeam) -> [[Int]] {
        final class Seen: @unchecked Sendable {
            let lock = NSLock()
            var cpus: [[Int]]
            init(count: Int) { cpus = Array(repeating: [], count: count) }
        }
        let seen = Seen(count: team.count)
        team.run { index in
            let cpus = allowedCPUs()
            seen.lock.withLock { seen.cpus[index] = cpus }
        }
        return seen.lock.withLock { seen.cpus }
    }

    @Test func eachThreadRunsOnItsCPUAloneWhenAsked() throws {
        let allowed = allowedCPUs()
        try #require(!allowed.isEmpty, "Linux lists the CPUs a thread may use")
        let cpus = Array(allowed.reversed())
        let team = ThreadTeam(count: 3, cpus: cpus)
        defer { team.shutdown() }
        #expect(team.pinFailure == nil)
        #expect(Self.cpusSeen(by: team) == (0..<3).map { [cpus[$0 % cpus.count]] })
    }

    @Test func withoutCPUsEveryThreadMayRunWhereTheProcessMay() throws {
        let allowed = allowedCPUs()
        let team = ThreadTeam(count: 2)
        defer { team.shutdown() }
        #expect(team.pinFailure == nil)
        #expect(Self.cpusSeen(by: team) == [allowed, allowed])
    }

    @Test func aCPUTheThreadMayNotUseIsReported() throws {
        let beyond = (allowedCPUs().max() ?? 0) + 1
        for cpu in [beyond, 1 << 20] {
            let team = ThreadTeam(count: 2, cpus: [allowedCPUs().first ?? 0, cpu])
            defer { team.shutdown() }
            let failure = try #require(team.pinFailure, "CPU \(cpu) cannot be given")
            #expect(failure.hasPrefix("thread 1 cannot run on CPU \(cpu) alone: "), "\(failure)")
        }
    }
}
