import BenchCore
import BenchPlatform
import Foundation
import Synchronization
import SyncVariants

/// What one `OnceRaceCheck` run saw. A correct variant reports no violation of any kind.
@usableFromInline
package struct OnceRaceReport: CustomStringConvertible, Sendable {
    package var rounds = 0
    /// Tokens whose block ran more than once (exactly-once broken).
    package var repeatedRuns = 0
    /// Tokens whose block never ran although every thread's call for them returned.
    package var missedRuns = 0
    /// Calls that returned before the block's write was visible to their caller (no-early-return broken).
    package var earlyReturns = 0
    /// The race made no progress for the check's timeout (a deadlock, or a thread starved that long): the rounds
    /// it did not reach are not judged, so a stall is never counted as a missed or repeated run.
    package var timedOut = false

    package init(rounds: Int = 0) {
        self.rounds = rounds
    }

    package var isClean: Bool { repeatedRuns == 0 && missedRuns == 0 && earlyReturns == 0 && !timedOut }

    package mutating func add(_ other: OnceRaceReport) {
        rounds += other.rounds
        repeatedRuns += other.repeatedRuns
        missedRuns += other.missedRuns
        earlyReturns += other.earlyReturns
        timedOut = timedOut || other.timedOut
    }

    @usableFromInline package var description: String {
        "\(rounds) rounds: \(repeatedRuns) repeated, \(missedRuns) missed, \(earlyReturns) early returns"
            + (timedOut ? "; did not finish: no progress for the check's timeout (suspected starvation or deadlock)"
                        : "")
    }
}

/// The once stress check: `threads` real threads race on each of the fresh `tokens` in turn, meeting at a
/// barrier before each token so that they call at the same moment.
///
/// The block counts its runs, yields the processor (widening the window in which a broken variant lets a
/// second caller in, or lets a caller out early), then writes the round's value; every caller reads that value
/// as soon as its call returns. Afterwards each token must have exactly one run, and every read must have seen
/// the value. Never hangs: a race that makes no progress for `timeout` seconds (no thread passes a barrier or
/// returns from a call) stops, and the report says `timedOut`. A race that is merely slow, on a loaded machine,
/// finishes and reports what a fast one reports.
package enum OnceRaceCheck {
    package static func run<Tracker: OnceTracker>(
        _ tracker: Tracker, tokens: [Tracker.Token], threads: Int, timeout: Double = 10
    ) -> OnceRaceReport where Tracker.Token: Sendable {
        let state = RaceState(rounds: tokens.count)
        let barrier = RoundBarrier(parties: threads)
        let stall = UInt64(timeout * 1e9)
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            let thread = Thread {
                defer { finished.leave() }
                for (round, token) in tokens.enumerated() {
                    guard barrier.arriveAndWait(deadline: MonotonicClock.now() + stall) else {
                        state.timedOut.store(true, ordering: .relaxed)
                        return
                    }
                    tracker.once(token: token) {
                        state.runs[round].add(1, ordering: .relaxed)
                        Platform.yieldProcessor()
                        state.values[round].store(round + 1, ordering: .relaxed)
                    }
                    if state.values[round].load(ordering: .relaxed) != round + 1 {
                        state.earlyReturns.add(1, ordering: .relaxed)
                    }
                    state.returned[round].add(1, ordering: .releasing)
                    StressPulse.beat()
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        var report = OnceRaceReport(rounds: tokens.count)
        var progress = -1
        while finished.wait(timeout: .now() + timeout) == .timedOut {
            // Threads stuck inside a variant keep `state` alive through their closure; report and move on.
            let now = state.progress(rounds: tokens.count)
            if now == progress {
                report.timedOut = true
                break
            }
            progress = now
        }
        report.timedOut = report.timedOut || state.timedOut.load(ordering: .relaxed)
        report.earlyReturns = state.earlyReturns.load(ordering: .relaxed)
        // Only rounds whose every call returned are judged: an unfinished round says nothing about the variant.
        for round in 0..<tokens.count where state.returned[round].load(ordering: .acquiring) == threads {
            switch state.runs[round].load(ordering: .relaxed) {
            case 0: report.missedRuns += 1
            case 1: break
            default: report.repeatedRuns += 1
            }
        }
        return report
    }

    /// One race over `rounds` fresh tokens of a fresh `Table`: the check every variant that makes fresh tokens
    /// goes through, and the negative controls with it.
    package static func race<Table: OnceTable>(_: Table.Type, threads: Int, rounds: Int) -> OnceRaceReport {
        run(Table.makeTable(tokens: rounds), tokens: Table.makeTokens(rounds), threads: threads)
    }

    /// Runs `race` with fresh tables until `isCaught` says the report shows what the caller is looking for, or
    /// `maximumBatches` have run: for the negative controls, whose violations depend on scheduling.
    package static func raceUntil<Table: OnceTable>(
        _: Table.Type, maximumBatches: Int, threads: Int, rounds: Int, isCaught: (OnceRaceReport) -> Bool
    ) -> OnceRaceReport {
        var total = OnceRaceReport()
        for _ in 0..<maximumBatches {
            total.add(race(Table.self, threads: threads, rounds: rounds))
            if isCaught(total) || total.timedOut { break }
        }
        return total
    }
}

/// Per-round counters shared by the racing threads, in heap buffers of atomics: every access is atomic, and the
/// buffers are freed only when the last thread has let go of the state.
private final class RaceState: @unchecked Sendable {
    package let runs: UnsafeMutablePointer<Atomic<Int>>
    package let values: UnsafeMutablePointer<Atomic<Int>>
    /// How many threads' calls for each round have returned.
    package let returned: UnsafeMutablePointer<Atomic<Int>>
    package let earlyReturns = Atomic<Int>(0)
    package let timedOut = Atomic<Bool>(false)
    private let rounds: Int

    package init(rounds: Int) {
        self.rounds = rounds
        runs = .allocate(capacity: rounds)
        values = .allocate(capacity: rounds)
        returned = .allocate(capacity: rounds)
        for round in 0..<rounds {
            (runs + round).initialize(to: Atomic(0))
            (values + round).initialize(to: Atomic(0))
            (returned + round).initialize(to: Atomic(0))
        }
    }

    /// Calls returned so far, over all rounds: what the coordinator watches to tell a slow race from a stalled one.
    package func progress(rounds: Int) -> Int {
        (0..<rounds).reduce(0) { $0 + returned[$1].load(ordering: .relaxed) }
    }

    deinit {
        runs.deinitialize(count: rounds)
        values.deinitialize(count: rounds)
        returned.deinitialize(count: rounds)
        runs.deallocate()
        values.deallocate()
        returned.deallocate()
    }
}
