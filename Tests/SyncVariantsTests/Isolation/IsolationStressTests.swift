import BenchCore
import Dispatch
import Foundation
import StressChecks
import SyncVariants
import Testing
import VariantCatalog
import VariantRegistration

/// The isolation family's stress checks, run against every variant and, with the same check functions, against
/// the broken stores of this target (negative controls), which must be caught.
///
/// Serialized: each test spawns several threads. Their blocking work runs on a thread of its own
/// (`onPlainThread`), so that no test holds a thread of the cooperative pool; the actor's calls do not need one
/// either (`ActorStoreBridge`), which `actorChecksFinishWithTheCooperativePoolBlocked` proves.
@Suite(.serialized) struct IsolationStressTests {
    static let preload = IsolationChecks.sharedKeys

    // MARK: No lost writes, no torn reads, read your writes

    @Test(arguments: StoreCheck.allCases, IsolationVariant.allCases)
    func everyVariantPasses(_ check: StoreCheck, _ variant: IsolationVariant) async throws {
        let store = variant.makeStore(preloading: Self.preload)
        let violations = try finished(await onPlainThread { check.violations(store) })
        #expect(violations == 0)
    }

    @Test(arguments: StoreCheck.allCases)
    func checkCatchesTheRacyStore(_ check: StoreCheck) async {
        let violations = await onPlainThread {
            check.violations(RacyStore(preloading: Self.preload))
        }
        #expect((violations ?? 0) > 0, check.missedTheRacyStore)
    }

    // MARK: Mutual exclusion of the bare locks

    /// Every lock that `isolation/counter` measures bare lets one section in at a time and loses no increment.
    @Test(arguments: IsolationVariant.allCases.filter(\.isExclusiveLock))
    func everyExclusiveLockLetsOneSectionInAtATime(_ variant: IsolationVariant) async throws {
        let make = try #require(variant.lockFactory)
        let seen = try finished(await onPlainThread { IsolationChecks.mutualExclusion(make()) })
        #expect(seen.overlaps == 0)
        #expect(seen.lostIncrements == 0)
    }

    /// The locks the catalog names as measured in `isolation/counter` are the ones this family's checks can take
    /// bare: the new pthread and spin locks, and the lock of `mutex`, `nslock` and `rwlock` (its write lock).
    @Test func theExclusiveLocksAreTheLockStores() {
        #expect(IsolationVariant.allCases.filter(\.isExclusiveLock).map(\.rawValue) == [
            "nslock", "mutex", "rwlock", "spin-lock", "pthread-mutex", "pthread-mutex-pi", "pthread-mutex-adaptive",
        ])
        #expect(IsolationVariant.allCases.allSatisfy { $0.isExclusiveLock == ($0.lockFactory != nil) })
    }

    @Test func mutualExclusionCheckCatchesTheCheckThenSetLock() async {
        let seen = await onPlainThread { IsolationChecks.mutualExclusion(CheckThenSetLock()) }
        #expect((seen?.overlaps ?? 0) > 0, "the mutual-exclusion check no longer catches two threads inside at once")
        #expect((seen?.lostIncrements ?? 0) > 0, "the mutual-exclusion check no longer catches a lost increment")
    }

    // MARK: When a write is applied

    /// A synchronous write has been applied when `write` returns, even while its block is held.
    @Test(arguments: IsolationVariant.queueBased.filter { !$0.writesAsynchronously })
    func syncWriteIsAppliedWhenItReturns(_ variant: IsolationVariant) async throws {
        let make = try #require(variant.probedStoreFactory)
        let window = await onPlainThread { IsolationChecks.writeWindow { make(Self.preload, $0) } }
        #expect(window.appliedWhenWriteReturned)
        #expect(window.readBack == window.written)
    }

    /// The window the async-write variants open: `write` returns while its write is held, not yet applied (so
    /// nothing outside the queue can rely on it), and a read through the store then waits for it rather than
    /// missing it. The same check reports "applied" for the sync variants above, so it can tell the two apart.
    /// Bounded attempts: the writer must load the count before the hold expires, which it does at once unless
    /// the machine stalls it for the whole hold.
    @Test(arguments: IsolationVariant.queueBased.filter(\.writesAsynchronously))
    func asyncWriteWindow(_ variant: IsolationVariant) async throws {
        let make = try #require(variant.probedStoreFactory)
        var windowSeen = false
        for _ in 0..<3 where !windowSeen {
            let window = await onPlainThread { IsolationChecks.writeWindow { make(Self.preload, $0) } }
            #expect(window.readBack == window.written, "a read after an async write missed it")
            windowSeen = !window.appliedWhenWriteReturned
        }
        #expect(windowSeen, "write returned only after its write was applied: the variant is not asynchronous")
    }

    // MARK: Barrier exclusivity

    /// No block runs beside a write block; on a concurrent queue reads do run beside each other (else the queue
    /// would be serial in disguise), on a serial queue never.
    @Test(arguments: IsolationVariant.queueBased)
    func writeBlocksRunAlone(_ variant: IsolationVariant) async throws {
        let make = try #require(variant.probedStoreFactory)
        let counts = try finished(await onPlainThread { IsolationChecks.exclusivity { make(Self.preload, $0) } })
        #expect(counts.violations == 0)
        if variant.readsConcurrently {
            let overlaps = await onPlainThread {
                IsolationChecks.untilViolation {
                    IsolationChecks.exclusivity { make(Self.preload, $0) }?.overlappingReads
                }
            }
            #expect((overlaps ?? 0) > 0, "reads on a concurrent queue never overlapped")
        } else {
            #expect(counts.overlappingReads == 0)
        }
    }

    @Test func exclusivityCheckCatchesTheBarrierlessStore() async {
        let violations = await onPlainThread {
            IsolationChecks.exclusivity { BarrierlessStore(preloading: Self.preload, probe: $0) }?.violations
        }
        #expect((violations ?? 0) > 0, "the exclusivity check no longer catches writes without a barrier")
    }

    // MARK: The actor's checks need no free cooperative-pool thread

    /// The guard against the starvation that once failed the lost-write check of the actor whenever other suites
    /// held the cooperative pool (two threads here) on a busy machine: with every pool thread blocked on purpose,
    /// the actor's checks still finish, and report what they report on an idle machine.
    ///
    /// Its negative control: a task that needs the pool did not run while the pool was held, so the holding was
    /// real and the checks ran without the pool.
    @Test func actorChecksFinishWithTheCooperativePoolBlocked() async {
        let (blocked, results) = await onPlainThread { () -> (CooperativePoolBlocker.Blocked, [Int?]) in
            CooperativePoolBlocker.whileBlocked { blocked in
                let store = { IsolationVariant.actor.makeStore(preloading: Self.preload) }
                return (blocked, StoreCheck.allCases.map { $0.violations(store()) })
            }
        }
        #expect(blocked.poolWasBlocked, "a task ran on the cooperative pool: it was not blocked, so this proves nothing")
        #expect(results == [0, 0, 0], "lost writes, torn reads, missed own writes (nil: \(IsolationChecks.didNotFinish))")
    }

    // MARK: Helpers

    /// A check's result, or a failure that says the check's threads did not finish (never a count).
    private func finished<T>(_ result: T?, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        try #require(result, Comment(rawValue: IsolationChecks.didNotFinish), sourceLocation: sourceLocation)
    }
}

/// The checks every isolation variant must pass with 0 violations and the racy store must fail: the same check
/// function for both, so a check that stops catching the racy store is seen to have lost its teeth.
enum StoreCheck: String, CaseIterable, Sendable {
    /// No write is lost when writers race on their own keys.
    case lostWrites
    /// No read sees a half-applied write.
    case tornReads
    /// Holds for every variant, the async-write ones included: their reads go through the same FIFO queue as
    /// their writes, so a read issued after `write` returned queues behind the write (see `asyncWriteWindow`).
    case readYourWrites

    /// The violations the check counted in `store`, or nil when its threads did not finish.
    func violations(_ store: any IsolatedStore) -> Int? {
        switch self {
        case .lostWrites: IsolationChecks.lostWrites(store)
        case .tornReads: IsolationChecks.tornReads(store)
        case .readYourWrites: IsolationChecks.readYourWritesMisses(store)
        }
    }

    /// What it means when the racy store passes the check.
    var missedTheRacyStore: Comment {
        switch self {
        case .lostWrites: "the lost-write check no longer catches a store that loses writes"
        case .tornReads: "the torn-read check no longer catches half-applied writes"
        case .readYourWrites: "the read-your-writes check no longer catches a write undone before it is read"
        }
    }
}
