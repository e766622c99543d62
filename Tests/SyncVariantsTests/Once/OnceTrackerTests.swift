import StressChecks
import SyncVariants
import Testing
import VariantCatalog

/// Single-threaded behaviour of the once variants: one run per token, tokens independent.
@Suite struct OnceTrackerTests {
    /// Every variant that makes fresh tables, from the catalog, and the call-site tracker's explicit tokens.
    @Test(arguments: OnceVariant.joining(.first) + [.autoToken])
    func eachTokensBlockRunsOnce(variant: OnceVariant) throws {
        let runs = try #require(variant.accept(RunsPerToken()))
        #expect(runs == [1, 1, 1])
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

/// Runs per token of three fresh tokens of a fresh table, for the shapes that have tables; nil for the others.
private struct RunsPerToken: OnceVariantVisitor {
    func table<Table: OnceTable>(_: Table.Type) -> [Int]? {
        runsPerToken(Table.makeTable(tokens: 3), tokens: Table.makeTokens(3))
    }

    func staticLet(_ type: LazyStatic.Type) -> [Int]? { table(type) }
    func callSite(_ type: AutoTokenOnce.Type) -> [Int]? { table(type) }
    func barrierOnly() -> [Int]? { nil }
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
