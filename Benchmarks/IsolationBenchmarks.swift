import BenchCore
import Dispatch
import SyncVariants
import VariantCatalog

extension BenchmarkRegistry {
    /// Adds a lock brought from outside to `isolation/counter`, under the CSV id `variant`: every thread increments
    /// one shared counter under the one lock `make` returns for the case, as the catalog's locks do. `@inlinable`,
    /// so that the timed loop calls the concrete `Lock` directly.
    @inlinable
    package mutating func addCounterBenchmark<Lock: ExclusiveLock>(variant: String,
                                                                 _ make: @escaping @Sendable () -> Lock) {
        add(Benchmark(suite: IsolationBenchmark.suite, name: LockCounter.benchmark, variants: [variant],
                      parameters: IsolationBenchmark.counter.parameters) { benchmarkCase in
            LockCounter(threads: benchmarkCase.threads, path: benchmarkCase.path).workload(make())
        })
    }

    /// Adds a store brought from outside to the isolation suite, under the CSV id `variant`: the same
    /// benchmarks, parameters, thread counts, read mixes and roles as the catalog's stores. `make` builds a fresh
    /// store holding the given models for each case, outside the timed region.
    ///
    /// `@inlinable`, so that the timed loop is compiled in the caller's module for the concrete `Store`: no
    /// existential and no unspecialized generic call in the loop, as for a built-in store.
    @inlinable
    package mutating func addIsolationBenchmarks<Store: IsolatedStore>(
        variant: String, _ make: @escaping @Sendable (_ preloading: [IdentityModel]) -> Store
    ) {
        for benchmark in IsolationBenchmark.stores {
            add(benchmark.benchmark(variant: variant) { plan, models, role in plan.workload(make(models), role: role) })
        }
    }

    /// Adds an actor store to the isolation suite, under the CSV id `variant`: the same benchmarks, parameters,
    /// thread counts, read mixes and roles as the other stores, driven from tasks (`IsolationPlan.workload` for an
    /// actor: each batch a worker thread is given runs as one task of awaited calls). A fresh store holding the
    /// case's models is made for each case, outside the timed region. `@inlinable`, as `addIsolationBenchmarks`.
    @inlinable
    package mutating func addActorStoreBenchmarks<Store: ActorIsolatedStore>(variant: String, _: Store.Type) {
        for benchmark in IsolationBenchmark.stores {
            add(benchmark.benchmark(variant: variant) { plan, models, role in
                plan.workload(Store(preloading: models), role: role)
            })
        }
    }
}

/// What the isolation suite's benchmarks (named in VariantCatalog's `IsolationBenchmark`) measure: the two store
/// benchmarks' parameters, the cases they include, each thread's read mix and role, for every store registered
/// (`addIsolationBenchmarks(variant:_:)`): one identity map (`[String: IdentityModel]`, preloaded with `keys`
/// models) guarded by each isolation mechanism in turn, read and written by every thread.
///
/// - `isolation/mixed`: every thread runs the same deterministic mix, `read_pct` reads out of every 100
///   operations, spread evenly, on keys it steps through.
/// - `isolation/roles`: `writers` (1) thread writes only while the other `threads − 1` read only; the rows
///   report the readers' (`role=read`) and the writer's (`role=write`) throughput separately, so that one sees
///   whether readers starve the writer or the reverse.
/// - `isolation/counter`: every thread takes one shared lock over and over, and increments one shared counter
///   inside (`Int`, on a cache line of its own): the lock alone, contended, with the shortest critical section
///   that still does something under it. It is swift-nio's `NIOPerformanceTester` lock benchmark
///   (`lock_{1,2,4,8}_thread(s)_10M_ops`: N threads, one `NIOLock`, `withLock { opsDone &+= 1 }`), so that a
///   lock brought in (`Variant.lock`) is measured here as there, and the built-in locks beside it; its
///   `ns_per_op` is wall time over all threads' increments, as swift-nio's time for 10 M increments / 10 M. Two
///   differences remain: the harness paces by time, not by a fixed count per thread (a thread an unfair lock
///   favours cannot finish early and leave the rest uncontended), and the counter is reached through a pointer
///   rather than a class property (no exclusivity check). It belongs to the isolation suite because it measures
///   the isolation family's own locks on the state they guard, with that state shrunk to one word; the
///   variants are those whose lock can be taken on its own (`ExclusiveLockStore`), not the queues or the
///   actor. In teardown the counter must equal the increments the threads made, or the case stops: a lock
///   that let two threads in at once has no figure.
///
/// The async-write variants' writes are drained inside the timed region (a final barrier or `sync`), so each
/// sample pays for every write its threads enqueued. Under the harness's fixed-duration pacing the threads can
/// enqueue writes faster than the queue applies them: the queue then grows during the sample and the drain
/// at its end is long. Their `ns_per_op` is therefore the rate at which the queue applies the mix, not the
/// cost a caller sees per `write` (which returns at once).
///
/// The `actor` variant is driven from tasks: each batch a worker thread is given starts one task that makes
/// all of the batch's awaited actor calls (at least `IsolationPlan.actorCallsPerIteration`), and the thread
/// blocks on a semaphore until the task ends. T threads thus drive T concurrent callers, whose code (and the
/// actor's) runs on Swift's cooperative pool, one thread per core, while the harness's threads sleep. The task
/// start and the semaphore handoff (a few microseconds) are amortized over the batch's thousand or more calls;
/// the rows then compare with the others as "throughput of T concurrent callers", not as "T threads
/// contending", and at most two of those callers (one per pool thread) ever run at once.
extension IsolationBenchmark {
    @usableFromInline static let suite = IsolationVariant.suite

    /// The benchmarks that time a store, in the order a store joins them: `mixed` (every thread runs the same mix,
    /// `read_pct` reads out of every 100 operations) and `roles` (`writers` threads write only, the others read
    /// only; their rows are reported per role). `counter` times a lock alone (`LockCounter`).
    @usableFromInline static let stores: [IsolationBenchmark] = [.mixed, .roles]

    @usableFromInline var parameters: KeyValuePairs<String, [Int]> {
        switch self {
        case .mixed: ["keys": [1_000], "read_pct": [100, 90, 50, 10, 0]]
        case .roles: ["keys": [1_000], "writers": [1]]
        case .counter: [:]
        }
    }

    /// This store benchmark for the store variant `variant`: for each case, `workload` gets the case's plan, the
    /// models a fresh store is to hold and the threads' roles, and returns the workload on a fresh store, made
    /// outside the timed region.
    @inlinable
    func benchmark(
        variant: String,
        _ workload: @escaping @Sendable (_ plan: IsolationPlan, _ preloading: [IdentityModel],
                                         _ role: (@Sendable (_ threadIndex: Int) -> String)?) -> Workload
    ) -> Benchmark {
        Benchmark(suite: Self.suite, name: rawValue, variants: [variant], parameters: parameters,
                  includes: includes) { benchmarkCase in
            workload(plan(benchmarkCase), IdentityModel.preload(count: benchmarkCase[parameter: "keys"]),
                     role(benchmarkCase))
        }
    }

    /// Roles need a reader beside the writers.
    @usableFromInline func includes(_ benchmarkCase: BenchmarkCase) -> Bool {
        self != .roles || benchmarkCase.threads > benchmarkCase[parameter: "writers"]
    }

    /// What each thread of `benchmarkCase` does, fixed before the clock starts.
    @usableFromInline func plan(_ benchmarkCase: BenchmarkCase) -> IsolationPlan {
        switch self {
        case .counter:
            preconditionFailure("isolation/counter times a lock alone: it has no store to plan for")
        case .mixed:
            let readPercent = benchmarkCase[parameter: "read_pct"]
            return IsolationPlan(keys: benchmarkCase[parameter: "keys"], threads: benchmarkCase.threads,
                                 readPercent: { _ in readPercent })
        case .roles:
            let writers = benchmarkCase[parameter: "writers"]
            return IsolationPlan(keys: benchmarkCase[parameter: "keys"], threads: benchmarkCase.threads,
                                 readPercent: { $0 < writers ? 0 : 100 })
        }
    }

    /// The role each thread's rows report under, nil when every thread does the same.
    @usableFromInline func role(_ benchmarkCase: BenchmarkCase) -> (@Sendable (_ threadIndex: Int) -> String)? {
        switch self {
        case .mixed, .counter: return nil
        case .roles:
            let writers = benchmarkCase[parameter: "writers"]
            return { $0 < writers ? "write" : "read" }
        }
    }
}

/// `isolation/counter`'s state: the one counter every thread increments under the lock, on a cache line of its
/// own, and each thread's tally of the increments it made, one padded row each, which teardown checks the counter
/// against.
@usableFromInline
final class LockCounter: @unchecked Sendable {
    @usableFromInline static let benchmark = IsolationBenchmark.counter.rawValue
    /// Ints per row: 128 bytes, so that no two rows, and not the counter, share a cache line.
    @usableFromInline static let stride = 16

    /// Row 0 holds the counter, touched only by the lock's holder; row `1 + t` holds thread `t`'s tally, touched
    /// only by that thread (and by teardown, after every thread has stopped).
    @usableFromInline let rows: UnsafeMutablePointer<Int>
    @usableFromInline let threads: Int
    /// The case's path (`isolation/counter/mutex`), for the teardown's message.
    let path: String

    @usableFromInline
    init(threads: Int, path: String) {
        self.threads = threads
        self.path = path
        rows = .allocate(capacity: (threads + 1) * Self.stride)
        rows.initialize(repeating: 0, count: (threads + 1) * Self.stride)
    }

    deinit {
        rows.deallocate()
    }

    /// Each iteration takes `lock` and increments the counter inside; teardown checks that no increment was lost.
    @inlinable
    func workload<Lock: ExclusiveLock>(_ lock: Lock) -> Workload {
        Workload(teardown: { [self] in checkCount(of: lock) }) { [self] worker, iterations in
            let counter = rows
            for _ in 0..<iterations {
                lock.withLock { counter.pointee &+= 1 }
            }
            rows[(1 + worker.index) * Self.stride] &+= iterations
        }
    }

    /// Stops the run if the counter is not the sum of the threads' tallies: the lock let two threads in at once.
    @usableFromInline
    func checkCount(of lock: some ExclusiveLock) {
        let made = (1...threads).reduce(0) { $0 + rows[$1 * Self.stride] }
        let counted = lock.withLock { rows.pointee }
        precondition(counted == made, "\(path): \(type(of: lock)) counted \(counted) "
                     + "increments of \(made): it let two threads in at once")
    }
}

/// What each thread does, fixed in setup: the key strings, each thread's read/write pattern, and where each
/// thread is in it (so that consecutive batches continue the pattern rather than restart it).
///
/// A pattern has 100 slots of which `read_pct` are reads, spread evenly (slot `s` reads when
/// `⌊(s+1)·p/100⌋ > ⌊s·p/100⌋`); a thread steps through the slots and, at the same time, through the keys from
/// its own starting offset. Writes store a fresh value under the key.
@usableFromInline
final class IsolationPlan: @unchecked Sendable {
    @usableFromInline static let slots = 100
    /// Ints per thread in `cursors`: slot, key, last written value, then padding to 128 bytes so that threads
    /// never share a cache line.
    @usableFromInline static let cursorStride = 16

    /// Built once here, never in the timed loop.
    @usableFromInline let ids: [String]
    /// `patterns[thread][slot]`: true for a read.
    @usableFromInline let patterns: [[Bool]]
    /// Owned by the worker threads, one padded row each: a thread touches only its own row.
    @usableFromInline let cursors: UnsafeMutablePointer<Int>

    @usableFromInline
    init(keys: Int, threads: Int, readPercent: (_ threadIndex: Int) -> Int) {
        precondition(keys >= 1, "the store needs at least one key")
        ids = IdentityModel.preload(count: keys).map(\.id)
        patterns = (0..<threads).map { thread in
            let percent = readPercent(thread)
            precondition((0...100).contains(percent), "read_pct must be 0…100")
            return (0..<Self.slots).map { slot in (slot + 1) * percent / 100 > slot * percent / 100 }
        }
        cursors = .allocate(capacity: threads * Self.cursorStride)
        cursors.initialize(repeating: 0, count: threads * Self.cursorStride)
        for thread in 0..<threads { cursors[thread * Self.cursorStride + 1] = thread * keys / threads }
    }

    deinit {
        cursors.deallocate()
    }

    /// The workload for a store with synchronous calls; async-write stores are drained inside the timed region.
    @inlinable
    func workload<Store: IsolatedStore>(_ store: Store, role: (@Sendable (Int) -> String)?) -> Workload {
        var drain: (@Sendable () -> Void)?
        if let asynchronous = store as? any AsynchronousWriteStore {
            drain = { asynchronous.drainWrites() }
        }
        // An async write runs later on the queue's thread, not the caller's.
        return Workload(role: role, drain: drain, offloadsWork: drain != nil) { [self] worker, iterations in
            let cursor = cursors + worker.index * Self.cursorStride
            let pattern = patterns[worker.index]
            var slot = cursor[0], key = cursor[1], value = cursor[2]
            for _ in 0..<iterations {
                if pattern[slot] {
                    blackHole(store.read(ids[key])?.value ?? -1)
                } else {
                    value &+= 1
                    store.write(IdentityModel(id: ids[key], value: value))
                }
                slot += 1
                if slot == Self.slots { slot = 0 }
                key += 1
                if key == ids.count { key = 0 }
            }
            cursor[0] = slot
            cursor[1] = key
            cursor[2] = value
        }
    }

    /// Awaited actor calls per iteration of the actor workload (each one reported as an operation).
    ///
    /// Starting a task and waiting for it on a semaphore costs a few microseconds, some 30–100 calls' worth.
    /// With one call per iteration the calibration would settle on batches of a handful of calls whenever the
    /// batch target is short (`--quick`), and the rows would measure task starts; a task of at least 1024 calls
    /// keeps that overhead to a few percent of the batch.
    @usableFromInline static let actorCallsPerIteration = 1_024

    /// The workload for the actor: each batch runs as one task making `iterations × actorCallsPerIteration`
    /// awaited calls, while the worker thread waits for it on a semaphore.
    @inlinable
    func workload<Store: ActorIsolatedStore>(_ store: Store, role: (@Sendable (Int) -> String)?) -> Workload {
        Workload(operationsPerIteration: Self.actorCallsPerIteration, role: role,
                 offloadsWork: true) { [self] worker, iterations in
            let finished = DispatchSemaphore(value: 0)
            let index = worker.index
            Task.detached { [self] in
                await run(store, thread: index, calls: iterations * Self.actorCallsPerIteration)
                finished.signal()
            }
            finished.wait()
        }
    }

    /// The same loop as the synchronous workload, with awaited calls.
    @inlinable
    func run<Store: ActorIsolatedStore>(_ store: Store, thread: Int, calls: Int) async {
        let cursor = cursors + thread * Self.cursorStride
        let pattern = patterns[thread]
        var slot = cursor[0], key = cursor[1], value = cursor[2]
        for _ in 0..<calls {
            if pattern[slot] {
                let model = await store.read(ids[key])
                blackHole(model?.value ?? -1)
            } else {
                value &+= 1
                await store.write(IdentityModel(id: ids[key], value: value))
            }
            slot += 1
            if slot == Self.slots { slot = 0 }
            key += 1
            if key == ids.count { key = 0 }
        }
        cursor[0] = slot
        cursor[1] = key
        cursor[2] = value
    }
}
