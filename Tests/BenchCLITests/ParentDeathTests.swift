@testable import BenchCommandLine
import Foundation
import Testing

/// A `bench --rounds` run killed with SIGKILL (`timeout -s KILL`, the OOM killer, a CI runner cancelling the job)
/// takes its round with it: no process of the run goes on under another parent, nothing is written to its file
/// afterwards, and no temporary file is left. Waits are polls with generous bounds; no timing is asserted.
@Suite struct ParentDeathTests {
    @Test func aKilledRunLeavesNoRoundRunningAndNoTemporaryFile() throws {
        let directory = try BenchProcess.temporaryDirectory("parent-death")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let temporary = directory + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        let path = directory + "/k.csv"
        // One case of 1000 samples of at least 50 ms: a round that would run for more than 50 s on its own.
        let (process, _, error) = try BenchProcess.debug.start(
            ["--filter", "^harness/empty/", "--threads", "1", "--samples", "1000", "--sample-time", "50",
             "--rounds", "2", "--output", path],
            environment: ["TMPDIR": temporary])
        let announced = BenchProcess.read(error, until: "round 1 of 2")
        #expect(announced.contains("round 1 of 2"), "the round started: \(announced)")
        let rounds = Self.children(of: process.processIdentifier)
        try #require(rounds.count == 1, "one round process: \(rounds)")

        kill(process.processIdentifier, SIGKILL)
        // Not `waitUntilExit()` first: it also waits for the pipes to close, which a round still running holds.
        #expect(Self.poll(seconds: 30) { !Self.isRunning(rounds[0]) },
                "the round outlived its killed parent by more than 30 s")
        process.waitUntilExit()
        // The round was killed inside its only case: nothing was appended to the file the parent reserved.
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        #expect(size == 0, "rows were written after the run was killed")
        // Only bench's own: Foundation leaves a TemporaryDirectory.XXXXXX of its own in every process's TMPDIR.
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("bench") }
        #expect(left == [], "temporary files are left: \(left)")
    }

    /// `bench count`'s working directory of a killed run is removed by the next `bench count`; a live run's is not.
    @Test func countRemovesTheWorkingDirectoriesOfEndedRunsOnly() throws {
        let temporary = try BenchProcess.temporaryDirectory("count-sweep")
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let names = ["bench-count-\(ended.processIdentifier)-A", "bench-count-\(getpid())-B", "other-1-C"]
        for name in names {
            try FileManager.default.createDirectory(atPath: "\(temporary)/\(name)", withIntermediateDirectories: false)
        }
        CountPasses.removeDirectoriesOfEndedRuns(in: temporary)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).sorted() == Array(names.dropFirst()))
    }

    /// The processes whose parent is `pid`, from /proc.
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { status(of: $0)?.parent == pid }
    }

    /// Whether `pid` exists and is not a zombie (a killed child whose new parent has not reaped it yet).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let state = status(of: pid)?.state else { return false }
        return state != "Z" && state != "X"
    }

    /// The state letter and parent of a process, from /proc/PID/stat (fields after the parenthesized name).
    static func status(of pid: Int32) -> (state: Character, parent: Int32)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 2, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
        return (state, parent)
    }

    /// Polls `condition` every 50 ms for at most `seconds`; whether it became true.
    static func poll(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }
}
