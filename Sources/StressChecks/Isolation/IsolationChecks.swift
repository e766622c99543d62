import BenchPlatform
import Dispatch
import Foundation
import Synchronization
import SyncVariants

/// The isolation family's stress checks. Each drives a store from real threads and returns how many
/// violations it saw, or nil when its threads stopped making progress for `stallSeconds`: a hang, reported as
/// one (`didNotFinish`), never as a violation. The same functions run against the variants, which must report 0,
/// and against the broken stores in this target, which must not.
///
/// A check's verdict does not depend on the machine's speed: a slow run takes longer and reports the same
/// counts. The bound is on a stall (no operation completed for `stallSeconds`), not on the whole run, so it
/// only keeps a deadlocked or starved check from hanging its caller for ever.
package enum IsolationChecks {
    package static let stallSeconds = 15

    /// What a nil result means, in the words a failed test or a report shows.
    package static let didNotFinish =
        "threads made no progress for \(stallSeconds) s (suspected starvation or deadlock)"

    /// No lost writes: `writers` threads each write `writesPerWriter` times, cycling through `keysPerWriter` keys
    /// of their own, into a store preloaded with a few shared keys. Returns the number of keys whose final model
    /// is not the last one written to them.
    package static func lostWrites(
        _ store: any IsolatedStore, writers: Int = 4, writesPerWriter: Int = 2_000, keysPerWriter: Int = 16
    ) -> Int? {
        let ids = (0..<writers).map { writer in (0..<keysPerWriter).map { "w\(writer)-\($0)" } }
        let finished = runOnThreads(writers) { writer, progress in
            for write in 0..<writesPerWriter {
                store.write(IdentityModel(id: ids[writer][write % keysPerWriter], value: write))
                progress.tick()
            }
        }
        guard finished else { return nil }
        (store as? any AsynchronousWriteStore)?.drainWrites()
        var lost = 0
        for writer in 0..<writers {
            for key in 0..<keysPerWriter {
                // The last write to key k is the largest w < writesPerWriter with w % keysPerWriter == k.
                let last = (writesPerWriter - 1 - key) / keysPerWriter * keysPerWriter + key
                if store.read(ids[writer][key]) != IdentityModel(id: ids[writer][key], value: last) { lost += 1 }
            }
        }
        return lost
    }

    /// No torn reads: `writers` threads rewrite a few shared keys while `readers` threads read them until the
    /// writers are done, and once more after. Returns the number of reads that found a model whose fields
    /// disagree, or no model.
    package static func tornReads(
        _ store: any IsolatedStore, writers: Int = 2, readers: Int = 2, writesPerWriter: Int = 2_000
    ) -> Int? {
        let ids = sharedKeys.map(\.id)
        let writersLeft = Atomic<Int>(writers)
        let torn = Atomic<Int>(0)
        let finished = runOnThreads(writers + readers) { thread, progress in
            if thread < writers {
                for write in 0..<writesPerWriter {
                    store.write(IdentityModel(id: ids[(write + thread) % ids.count], value: write * writers + thread))
                    progress.tick()
                }
                writersLeft.subtract(1, ordering: .releasing)
            } else {
                var key = thread
                var writersDone = false
                repeat {  // the last read comes after every write
                    writersDone = writersLeft.load(ordering: .acquiring) == 0
                    key = (key + 1) % ids.count
                    if store.read(ids[key])?.isConsistent != true { torn.add(1, ordering: .relaxed) }
                } while !writersDone
            }
        }
        guard finished else { return nil }
        (store as? any AsynchronousWriteStore)?.drainWrites()
        return torn.load(ordering: .relaxed)
    }

    /// Read your writes: `threads` threads each write their own key and read it straight back, `rounds`
    /// times. Returns the number of reads that did not return the model just written.
    ///
    /// The yield between the write and the read is allowed (the promise holds for any read after the write
    /// returns) and gives other threads the chance to interfere.
    package static func readYourWritesMisses(_ store: any IsolatedStore, threads: Int = 4, rounds: Int = 1_000) -> Int? {
        let ids = (0..<threads).map { "ryw\($0)" }
        let misses = Atomic<Int>(0)
        let finished = runOnThreads(threads) { thread, progress in
            for round in 0..<rounds {
                let model = IdentityModel(id: ids[thread], value: round)
                store.write(model)
                Platform.yieldProcessor()
                if store.read(ids[thread]) != model { misses.add(1, ordering: .relaxed) }
                progress.tick()
            }
        }
        guard finished else { return nil }
        (store as? any AsynchronousWriteStore)?.drainWrites()
        return misses.load(ordering: .relaxed)
    }

    /// Mutual exclusion, on a bare lock: `threads` threads each run `sectionsPerThread` critical sections under
    /// `lock`. Inside, a section counts itself in and out of an occupancy counter and increments a shared count in
    /// two steps, a load and then a store, which only the lock keeps from losing increments; between the two it
    /// reads the occupancy `sectionSteps` times (well under a microsecond), so that a second thread let in finds the
    /// first still inside, and every `sleepEvery`-th section sleeps there too (a microsecond asked, tens granted), so
    /// that the holder is off its processor while it holds the lock, the moment a lock that does not hold shows it
    /// even on one free core. A section that saw another inside is an overlap. Returns the overlaps and the
    /// increments lost.
    ///
    /// The holder sleeps rather than yields: with a spin lock and many more threads than cores, a holder that
    /// yields waits behind every spinner's time slice, and the check stalled past `bench stress`'s watchdog
    /// (`spin-lock` at 32 threads on 2 cores) without a lock being wrong; a sleeper is woken by its timer and
    /// preempts a spinner.
    package static func mutualExclusion(
        _ lock: any ExclusiveLock, threads: Int = 4, sectionsPerThread: Int = 2_000, sleepEvery: Int = 16
    ) -> (overlaps: Int, lostIncrements: Int)? {
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let count = Atomic<Int>(0)
        let finished = runOnThreads(threads) { _, progress in
            for section in 0..<sectionsPerThread {
                lock.withLock {
                    var overlapped = inside.add(1, ordering: .sequentiallyConsistent).newValue != 1
                    let seen = count.load(ordering: .relaxed)
                    if section % sleepEvery == 0 { Platform.sleep(nanoseconds: 1_000) }
                    for _ in 0..<sectionSteps where !overlapped {
                        overlapped = inside.load(ordering: .relaxed) != 1
                    }
                    count.store(seen + 1, ordering: .relaxed)
                    inside.subtract(1, ordering: .sequentiallyConsistent)
                    if overlapped { overlaps.add(1, ordering: .relaxed) }
                }
                progress.tick()
            }
        }
        guard finished else { return nil }
        return (overlaps.load(ordering: .relaxed), threads * sectionsPerThread - count.load(ordering: .relaxed))
    }

    /// The occupancy reads a mutual-exclusion section makes while it holds the lock.
    package static let sectionSteps = 512

    /// Barrier exclusivity: `readers` and `writers` threads use a queue-based store built with an
    /// `ExclusivityProbe` (passed to `make`). Returns the probe's counts after the queue has drained.
    package static func exclusivity(
        readers: Int = 3, writers: Int = 1, operations: Int = 1_000,
        _ make: (_ probe: ExclusivityProbe) -> any IsolatedStore
    ) -> (violations: Int, overlappingReads: Int)? {
        let probe = ExclusivityProbe()
        let store = make(probe)
        let ids = sharedKeys.map(\.id)
        let finished = runOnThreads(readers + writers) { thread, progress in
            for operation in 0..<operations {
                let id = ids[(operation + thread) % ids.count]
                if thread < writers {
                    store.write(IdentityModel(id: id, value: operation))
                } else {
                    _ = store.read(id)
                }
                progress.tick()
            }
        }
        guard finished else { return nil }
        (store as? any AsynchronousWriteStore)?.drainWrites()
        return (probe.violations.load(ordering: .sequentiallyConsistent),
                probe.overlappingReads.load(ordering: .sequentiallyConsistent))
    }

    /// The keys the shared-key checks preload and use.
    package static let sharedKeys = IdentityModel.preload(count: 8)

    /// Repeats `round` until it reports at least one violation, it fails (nil), or `rounds` rounds have run;
    /// returns the last round's result. For negative controls, whose races are likely but not certain per round.
    ///
    /// The budget is a number of rounds, not of seconds: on a loaded machine a round takes longer (a racy write
    /// yields its processor, which other processes then hold for a whole slice), and a time budget would give a
    /// slow machine fewer chances to catch the same race.
    package static func untilViolation(rounds: Int = 100, _ round: () -> Int?) -> Int? {
        var violations: Int? = 0
        for _ in 0..<rounds {
            violations = round()
            guard let found = violations, found == 0 else { break }
        }
        return violations
    }

    /// Runs `body(index, progress)` on `count` new threads released together; false if they stopped making
    /// progress (no `tick` from any of them) for `stallSeconds` before all had finished.
    package static func runOnThreads(_ count: Int,
                                     _ body: @escaping @Sendable (_ index: Int, _ progress: Progress) -> Void) -> Bool {
        let done = DispatchGroup()
        let go = DispatchSemaphore(value: 0)
        let progress = Progress()
        for index in 0..<count {
            done.enter()
            Thread {
                go.wait()
                body(index, progress)
                done.leave()
            }.start()
        }
        for _ in 0..<count { go.signal() }
        var seen = -1
        while done.wait(timeout: .now() + .seconds(stallSeconds)) == .timedOut {
            let now = progress.ticks
            if now == seen { return false }
            seen = now
        }
        return true
    }

    /// Operations completed by a check's threads, which the check's bound watches.
    package final class Progress: Sendable {
        private let count = Atomic<Int>(0)

        package func tick() {
            count.add(1, ordering: .relaxed)
            StressPulse.beat()
        }

        var ticks: Int { count.load(ordering: .relaxed) }
    }
}

/// Counts, with sequentially consistent atomics, the read and write blocks inside a queue-based store's queue
/// at each moment. A write block that is not alone, or a read that runs beside a write, is a violation; reads
/// that run beside other reads are counted too (a concurrent queue should show some, a serial one none).
/// Each block yields once inside, so that overlaps have a chance to happen on two cores.
package final class ExclusivityProbe: QueueBlockProbe {
    private let readersInside = Atomic<Int>(0)
    private let writersInside = Atomic<Int>(0)
    package let violations = Atomic<Int>(0)
    package let overlappingReads = Atomic<Int>(0)

    package func blockBegan(_ kind: QueueBlockKind) {
        switch kind {
        case .read:
            let readers = readersInside.add(1, ordering: .sequentiallyConsistent).newValue
            if readers > 1 { overlappingReads.add(1, ordering: .relaxed) }
            if writersInside.load(ordering: .sequentiallyConsistent) != 0 { violation() }
        case .write:
            let writers = writersInside.add(1, ordering: .sequentiallyConsistent).newValue
            if writers != 1 || readersInside.load(ordering: .sequentiallyConsistent) != 0 { violation() }
        }
        Platform.yieldProcessor()
    }

    package func blockEnded(_ kind: QueueBlockKind) {
        switch kind {
        case .read:
            if writersInside.load(ordering: .sequentiallyConsistent) != 0 { violation() }
            readersInside.subtract(1, ordering: .sequentiallyConsistent)
        case .write:
            if writersInside.load(ordering: .sequentiallyConsistent) != 1
                || readersInside.load(ordering: .sequentiallyConsistent) != 0 { violation() }
            writersInside.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    private func violation() {
        violations.add(1, ordering: .relaxed)
    }
}
