import BenchCore
import Foundation
import Synchronization
import StressChecks
import SyncVariants
import Testing
import VariantCatalog
import VariantRegistration

/// Exactly once and no early return, for every variant, with real threads racing on fresh tokens.
@Suite(.serialized) struct OnceStressTests {
    /// Rounds per race: many fresh tokens per race (the controls below are usually caught in their first batch).
    static let rounds = 1_000

    @Test(arguments: OnceVariant.raced, [2, 4, 16])
    func blockRunsExactlyOnceAndNoCallerReturnsEarly(variant: OnceVariant, threads: Int) async throws {
        let race = try #require(variant.race)
        let report = await onPlainThread { race(threads, Self.rounds) }
        #expect(report.isClean, "\(variant), \(threads) threads: \(report)")
    }

    /// A variant added to the catalog is raced without a test edit: only a baseline without a type of its own
    /// (no once call to check) is left out.
    @Test func everyVariantWithATypeIsRaced() {
        let unraced = OnceVariant.allCases.filter { $0.typeName != nil && !OnceVariant.raced.contains($0) }
        #expect(unraced.isEmpty)
    }

    @Test(arguments: [4, 16])
    func lazyStaticInitializesOnceUnderARace(threads: Int) async throws {
        let accessors = threads == 4 ? RacedStatics.firstGroup : RacedStatics.secondGroup
        let barrier = RoundBarrier(parties: threads)
        let deadline = MonotonicClock.now() + 10_000_000_000
        let wrongReads = Atomic<Int>(0)
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            Thread {
                defer { finished.leave() }
                for (index, read) in accessors.enumerated() {
                    guard barrier.arriveAndWait(deadline: deadline) else { return }
                    if read() != index + 1 { wrongReads.add(1, ordering: .relaxed) }
                }
            }.start()
        }
        let allFinished = await onPlainThread { finished.wait(timeout: .now() + 11) == .success }
        try #require(allFinished, "a thread did not finish")
        #expect(wrongReads.load(ordering: .relaxed) == 0)
        for (index, counter) in (threads == 4 ? RacedStatics.firstRuns : RacedStatics.secondRuns).enumerated() {
            let runs = counter.runs.load(ordering: .relaxed)
            #expect(runs == 1, "static \(index) initialized \(runs) times")
        }
    }
}

/// The checks above must catch these deliberately broken trackers (kept here, never benchmarked); if they
/// stop doing so, the checks have lost their teeth.
@Suite(.serialized) struct OnceNegativeControlTests {
    static let maximumBatches = 25

    /// Caught in one race: the control lets two callers past its check before either registers.
    @Test func unsyncedTrackerIsCaughtRunningABlockTwice() async {
        let report = await onPlainThread {
            OnceRaceCheck.race(UnsyncedTrackerOnce.self, threads: 4, rounds: OnceStressTests.rounds)
        }
        #expect(report.repeatedRuns == OnceStressTests.rounds,
                "the exactly-once check missed the unsynced tracker in some token: \(report)")
        #expect(!report.isClean)
    }

    @Test func unsyncedTrackerIsCaughtReturningEarly() async {
        let report = await Self.raceUntilCaught(UnsyncedTrackerOnce.self, by: \.earlyReturns)
        #expect(report.earlyReturns > 0, "the no-early-return check missed the unsynced tracker: \(report)")
    }

    @Test func blockOutsideTheLockIsCaughtReturningEarly() async {
        let report = await Self.raceUntilCaught(EarlyReturnOnce.self, by: \.earlyReturns)
        #expect(report.earlyReturns > 0, "the no-early-return check missed the early-returning tracker: \(report)")
        // Registration is atomic, so this control breaks only the one property.
        #expect(report.repeatedRuns == 0 && report.missedRuns == 0)
    }

    /// Races `control` on 4 threads, batch after batch of `OnceStressTests.rounds` fresh tokens, until the summed
    /// report counts at least one `violation` or `maximumBatches` have run: for the early returns, which need a
    /// caller's read to come before another thread's write (see `EarlyReturnOnce`).
    static func raceUntilCaught<Control: OnceTable>(
        _ control: Control.Type, by violation: KeyPath<OnceRaceReport, Int> & Sendable
    ) async -> OnceRaceReport {
        await onPlainThread {
            OnceRaceCheck.raceUntil(
                Control.self, maximumBatches: maximumBatches, threads: 4, rounds: OnceStressTests.rounds,
                isCaught: { $0[keyPath: violation] > 0 }
            )
        }
    }
}

/// `static let`s whose initializers count their runs and yield, to race on first access. A static cannot be
/// made fresh, so each is raced once per process: each group belongs to one test case.
enum RacedStatics {
    static let firstRuns = (0..<4).map { _ in RunCounter() }
    static let secondRuns = (0..<4).map { _ in RunCounter() }

    static let a: Int = initialize(firstRuns[0], value: 1)
    static let b: Int = initialize(firstRuns[1], value: 2)
    static let c: Int = initialize(firstRuns[2], value: 3)
    static let d: Int = initialize(firstRuns[3], value: 4)
    static let e: Int = initialize(secondRuns[0], value: 1)
    static let f: Int = initialize(secondRuns[1], value: 2)
    static let g: Int = initialize(secondRuns[2], value: 3)
    static let h: Int = initialize(secondRuns[3], value: 4)

    static let firstGroup: [@Sendable () -> Int] = [{ a }, { b }, { c }, { d }]
    static let secondGroup: [@Sendable () -> Int] = [{ e }, { f }, { g }, { h }]

    private static func initialize(_ counter: RunCounter, value: Int) -> Int {
        counter.runs.add(1, ordering: .relaxed)
        sched_yield()
        return value
    }
}

/// A count of initializer runs.
final class RunCounter: Sendable {
    let runs = Atomic<Int>(0)
}

/// The race tells a stall from a broken variant: a call that never returns stops the race after its timeout
/// without progress, and the rounds it never reached are not counted as missed or repeated runs.
@Suite struct OnceRaceStallTests {
    /// Runs every block at once, except token 3's call, which blocks until `release` is signalled.
    final class StallingTracker: OnceTracker, @unchecked Sendable {
        let release = DispatchSemaphore(value: 0)
        private let ran = Mutex<Set<Int>>([])

        func once(token: Int, block: @escaping () -> Void) {
            if token == 3 { release.wait() }
            if ran.withLock({ $0.insert(token).inserted }) { block() }
        }
    }

    @Test func aStalledRaceIsReportedAsStalledAndItsUnreachedRoundsAreNotJudged() async {
        let tracker = StallingTracker()
        let report = await onPlainThread { OnceRaceCheck.run(tracker, tokens: Array(0..<10), threads: 2, timeout: 0.5) }
        tracker.release.signal()
        tracker.release.signal()
        #expect(report.timedOut)
        #expect(report.missedRuns == 0 && report.repeatedRuns == 0, "\(report)")
        #expect(report.description.contains("suspected starvation or deadlock"))
    }
}
