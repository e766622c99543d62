import SyncVariants

extension Outcome {
    package static let keptLastWrite = Outcome("key-holds-its-last-write", .acceptable)
    package static let lostWrite = Outcome("write-lost", .forbidden)
    /// A round of concurrent reads and writes in which every read found a whole model.
    package static let readsWhole = Outcome("reads-saw-whole-models", .acceptable)
    package static let tornRead = Outcome("read-saw-half-applied-write", .forbidden)
    package static let readOwnWrite = Outcome("read-saw-own-write", .acceptable)
    package static let missedOwnWrite = Outcome("read-missed-own-write", .forbidden)
    /// A round in which every write block ran alone on the store's queue.
    package static let writesAlone = Outcome("write-blocks-ran-alone", .acceptable)
    package static let besideWrite = Outcome("block-ran-beside-a-write", .forbidden)
    package static let appliedWhenReturned = Outcome("write-applied-when-write-returned", .acceptable)
    package static let readMissedHeldWrite = Outcome("read-missed-a-pending-write", .forbidden)
    /// A critical section that ran alone under the lock.
    package static let sectionAlone = Outcome("section-ran-alone", .acceptable)
    package static let sectionsOverlapped = Outcome("sections-overlapped", .forbidden)
    package static let lostIncrement = Outcome("increment-lost", .forbidden)

    /// Reads overlapped on the queue: what a concurrent queue is for, forbidden on a serial one.
    package static func readsOverlapped(concurrent: Bool) -> Outcome {
        Outcome("reads-overlapped", concurrent ? .acceptable : .forbidden)
    }

    /// `write` returned while its write was still held on the queue: the contract of an async-write store allows
    /// it (nothing outside the queue may rely on the write yet), a synchronous store's forbids it.
    package static func returnedBeforeApplied(asynchronous: Bool) -> Outcome {
        Outcome("write-returned-before-applied", asynchronous ? .interesting : .forbidden)
    }
}

/// The isolation checks as graded outcomes, with their sizes scaled to one short iteration and `threads`.
package enum IsolationOutcomes {
    static let keysPerWriter = 16
    /// Writes (or operations) per thread in one iteration of the isolation checks.
    static let writesPerThread = 200

    package static func lostWrites(_ store: any IsolatedStore, threads: Int) -> OutcomeCounts {
        var counts = OutcomeCounts()
        counts.trials = threads * writesPerThread
        guard let lost = IsolationChecks.lostWrites(store, writers: threads, writesPerWriter: writesPerThread,
                                                    keysPerWriter: keysPerWriter) else {
            counts.record(.timedOut)
            return counts
        }
        counts.record(.keptLastWrite, times: threads * keysPerWriter - lost)
        counts.record(.lostWrite, times: lost)
        return counts
    }

    package static func tornReads(_ store: any IsolatedStore, threads: Int) -> OutcomeCounts {
        var counts = OutcomeCounts()
        // At most two readers, as in the tests: they read until the writers are done, and more of them keep a
        // reader-preferring lock (glibc's rwlock) read-held so continuously that its writers starve for seconds.
        let readers = threads < 4 ? 1 : 2
        counts.trials = max(1, threads - readers) * writesPerThread
        guard let torn = IsolationChecks.tornReads(store, writers: max(1, threads - readers), readers: readers,
                                                   writesPerWriter: writesPerThread) else {
            counts.record(.timedOut)
            return counts
        }
        counts.record(torn == 0 ? .readsWhole : .tornRead, times: max(torn, 1))
        return counts
    }

    package static func readYourWrites(_ store: any IsolatedStore, threads: Int) -> OutcomeCounts {
        var counts = OutcomeCounts()
        let rounds = 100
        counts.trials = threads * rounds
        guard let misses = IsolationChecks.readYourWritesMisses(store, threads: threads, rounds: rounds) else {
            counts.record(.timedOut)
            return counts
        }
        counts.record(.readOwnWrite, times: threads * rounds - misses)
        counts.record(.missedOwnWrite, times: misses)
        return counts
    }

    package static func mutualExclusion(_ lock: any ExclusiveLock, threads: Int) -> OutcomeCounts {
        var counts = OutcomeCounts()
        let sections = writesPerThread
        counts.trials = threads * sections
        guard let seen = IsolationChecks.mutualExclusion(lock, threads: threads, sectionsPerThread: sections) else {
            counts.record(.timedOut)
            return counts
        }
        counts.record(.sectionAlone, times: max(0, threads * sections - seen.overlaps))
        counts.record(.sectionsOverlapped, times: seen.overlaps)
        counts.record(.lostIncrement, times: seen.lostIncrements)
        return counts
    }

    package static func exclusivity(threads: Int, readsConcurrently: Bool,
                                    _ make: (_ probe: ExclusivityProbe) -> any IsolatedStore) -> OutcomeCounts {
        var counts = OutcomeCounts()
        counts.trials = max(1, threads - 1) * writesPerThread + writesPerThread
        guard let seen = IsolationChecks.exclusivity(readers: max(1, threads - 1), writers: 1,
                                                     operations: writesPerThread, make)
        else {
            counts.record(.timedOut)
            return counts
        }
        counts.record(seen.violations == 0 ? .writesAlone : .besideWrite, times: max(seen.violations, 1))
        counts.record(.readsOverlapped(concurrent: readsConcurrently), times: seen.overlappingReads)
        return counts
    }

    package static func writeWindow(asynchronous: Bool, _ make: (_ probe: WriteGateProbe) -> any IsolatedStore)
        -> OutcomeCounts {
        var counts = OutcomeCounts()
        let window = IsolationChecks.writeWindow(make)
        counts.record(window.appliedWhenWriteReturned ? .appliedWhenReturned
                      : .returnedBeforeApplied(asynchronous: asynchronous))
        if window.readBack != window.written { counts.record(.readMissedHeldWrite) }
        return counts
    }
}

extension StressCatalog {
    /// The lost-write check's power: measured against `CopyOutsideLockStore` (docs/stress.md).
    package static let lostWritesPower = CheckPower(
        trial: "write", minimumTrials: 20_000,
        threads: "N writers, each cycling through 16 keys of its own (1: no race, the store's sequential contract)",
        racyControl: "control/isolation/copy-outside-lock/lost-writes")
    /// The torn-read check's power: no racy control measures it; its controls are deterministic.
    static let tornReadsPower = CheckPower(
        trial: "write", minimumTrials: 1,
        threads: "N threads: 1 reader below 4 threads, else 2; the rest write shared keys (at least 1 writer)")
    static let readYourWritesPower = CheckPower(
        trial: "write read straight back", minimumTrials: 1,
        threads: "N threads, each writing its own key and reading it back")
    static let mutualExclusionPower = CheckPower(
        trial: "critical section", minimumTrials: 1, threads: "N threads taking the lock")
    static let exclusivityPower = CheckPower(
        trial: "block on the store's queue", minimumTrials: 1, threads: "1 writer and N - 1 readers (at least 1)")
    static let writeWindowPower = CheckPower(
        trial: "held write read back", minimumTrials: 1, threads: "none: one writer and one reader whatever N")

    /// The checks every store passes, under `name/lost-writes`, `name/torn-reads` and `name/read-your-writes`,
    /// each iteration on a fresh store from `make` holding the checks' shared keys: for the catalog's stores and
    /// for a store a package brings.
    package static func lockStoreCases(name: String, make: @escaping @Sendable ([IdentityModel]) -> any IsolatedStore)
        -> [StressCase] {
        let preload = IsolationChecks.sharedKeys
        return [
            StressCase("\(name)/lost-writes", lostWritesPower) {
                IsolationOutcomes.lostWrites(make(preload), threads: $0)
            },
            StressCase("\(name)/torn-reads", tornReadsPower) { IsolationOutcomes.tornReads(make(preload), threads: $0) },
            StressCase("\(name)/read-your-writes", readYourWritesPower) {
                IsolationOutcomes.readYourWrites(make(preload), threads: $0)
            },
        ]
    }

    /// The check of a bare lock, under `name/mutual-exclusion`, each iteration on a fresh lock from `make`: for the
    /// catalog's exclusive locks and for a lock a package brings.
    package static func mutualExclusionCase(name: String, make: @escaping @Sendable () -> any ExclusiveLock)
        -> StressCase {
        StressCase("\(name)/mutual-exclusion", mutualExclusionPower) { IsolationOutcomes.mutualExclusion(make(), threads: $0) }
    }

    /// The checks a store on a dispatch queue adds to `lockStoreCases`, through the queue's test probe: no block
    /// runs beside a write block (reads may overlap on a concurrent queue), and when a write is applied.
    package static func queueStoreCases(
        name: String, readsConcurrently: Bool, writesAsynchronously: Bool,
        make: @escaping @Sendable (_ preloading: [IdentityModel], _ probe: any QueueBlockProbe) -> any IsolatedStore
    ) -> [StressCase] {
        let preload = IsolationChecks.sharedKeys
        return [
            StressCase("\(name)/exclusivity", exclusivityPower) { threads in
                IsolationOutcomes.exclusivity(threads: threads, readsConcurrently: readsConcurrently) {
                    make(preload, $0)
                }
            },
            StressCase("\(name)/write-window", writeWindowPower) { _ in
                IsolationOutcomes.writeWindow(asynchronous: writesAsynchronously) { make(preload, $0) }
            },
        ]
    }

    static let isolationControls: [StressCase] = {
        let preload = IsolationChecks.sharedKeys
        return [
            StressCase("isolation/racy-store/lost-writes", lostWritesPower, control: .deterministic) {
                IsolationOutcomes.lostWrites(RacyStore(preloading: preload), threads: $0)
            },
            StressCase("isolation/copy-outside-lock/lost-writes", lostWritesPower, control: .racy, controlThreads: 2) {
                IsolationOutcomes.lostWrites(CopyOutsideLockStore(preloading: preload), threads: $0)
            },
            StressCase("isolation/racy-store/torn-reads", tornReadsPower, control: .deterministic) {
                IsolationOutcomes.tornReads(RacyStore(preloading: preload), threads: $0)
            },
            StressCase("isolation/racy-store/read-your-writes", readYourWritesPower, control: .deterministic) {
                IsolationOutcomes.readYourWrites(RacyStore(preloading: preload), threads: $0)
            },
            StressCase("isolation/check-then-set-lock/mutual-exclusion", mutualExclusionPower, control: .deterministic) {
                IsolationOutcomes.mutualExclusion(CheckThenSetLock(), threads: $0)
            },
            StressCase("isolation/barrierless/exclusivity", exclusivityPower, control: .deterministic) { threads in
                IsolationOutcomes.exclusivity(threads: threads, readsConcurrently: true) {
                    BarrierlessStore(preloading: preload, probe: $0)
                }
            },
        ]
    }()
}
