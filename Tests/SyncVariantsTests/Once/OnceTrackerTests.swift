import StressChecks
import SyncVariants
import Testing

/// Single-threaded behaviour of the once variants: one run per token, tokens independent.
@Suite struct OnceTrackerTests {
    /// Every once type that makes fresh tables, and the call-site tracker's explicit tokens.
    @Test func eachTokensBlockRunsOnce() {
        let tables: [any OnceTable.Type] = [
            ArrayTrackerOnce.self, SetTrackerOnce.self, OSLockOnce.self, LazyStatic.self, DispatchOnce.self,
            DispatchOnceInline.self, PthreadOnce.self, AtomicFlagOnce.self, AutoTokenOnce.self,
        ]
        for table in tables {
            #expect(runsPerToken(table) == [1, 1, 1], "\(table)")
        }
    }

    /// `PthreadOnce` hands blocks over through per-thread state that every table shares; a second table still
    /// runs each of its own blocks.
    @Test func aSecondTableRunsItsOwnBlocks() {
        #expect(runsPerToken(PthreadOnce(count: 3), tokens: [0, 1, 2]) == [1, 1, 1])
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

/// Runs per token of three fresh tokens of a fresh table of `Table`.
private func runsPerToken<Table: OnceTable>(_: Table.Type) -> [Int] {
    runsPerToken(Table.makeTable(tokens: 3), tokens: Table.makeTokens(3))
}

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
