import SyncVariants
import Testing

/// Single-threaded behaviour of the once variants: one run per token, tokens independent.
@Suite struct OnceTrackerTests {
    /// Calls once three times for each of three tokens and returns the runs per token.
    private func runsPerToken<Tracker: OnceTracker>(_ tracker: Tracker, tokens: [Tracker.Token]) -> [Int] {
        var runs = [Int](repeating: 0, count: tokens.count)
        for _ in 0..<3 {
            for (index, token) in tokens.enumerated() {
                tracker.once(token: token) { runs[index] += 1 }
            }
        }
        return runs
    }

    @Test func stringTrackersRunEachTokensBlockOnce() {
        let tokens = ["com.example.a", "com.example.b", "com.example.c"]
        #expect(runsPerToken(ArrayTrackerOnce(), tokens: tokens) == [1, 1, 1])
        #expect(runsPerToken(SetTrackerOnce(), tokens: tokens) == [1, 1, 1])
        #expect(runsPerToken(OSLockOnce(), tokens: tokens) == [1, 1, 1])
        #expect(runsPerToken(AutoTokenOnce(), tokens: tokens) == [1, 1, 1])
    }

    @Test func predicateTablesRunEachTokensBlockOnce() {
        #expect(runsPerToken(DispatchOnce(count: 3), tokens: [0, 1, 2]) == [1, 1, 1])
        #expect(runsPerToken(PthreadOnce(count: 3), tokens: [0, 1, 2]) == [1, 1, 1])
        #expect(runsPerToken(AtomicFlagOnce(count: 3), tokens: [0, 1, 2]) == [1, 1, 1])
        // Two tables never share a predicate.
        #expect(runsPerToken(PthreadOnce(count: 3), tokens: [2, 1, 0]) == [1, 1, 1])
    }

    @Test func recursiveTrackersAllowOnceForAnotherTokenInsideABlock() {
        for tracker in [ArrayTrackerOnce(), SetTrackerOnce()] as [any OnceTracker<String>] {
            var inner = 0
            tracker.once(token: "outer") { tracker.once(token: "inner") { inner += 1 } }
            tracker.once(token: "inner") { inner += 1 }
            #expect(inner == 1)
        }
    }

    @Test func autoTokenRunsOncePerCallSite() {
        let tracker = AutoTokenOnce()
        var runs = 0
        for _ in 0..<3 { tracker.once { runs += 1 } }
        #expect(runs == 1)
        for _ in 0..<3 { tracker.once { runs += 1 } }
        #expect(runs == 2, "a second call site is a second token")
        tracker.once(line: 7) { runs += 1 }
        tracker.once(line: 7) { runs += 1 }
        #expect(runs == 3)
        // The seed's token format, shared with explicit tokens.
        tracker.once(token: "\(#file):\(#function):7") { runs += 1 }
        #expect(runs == 3)
    }
}
