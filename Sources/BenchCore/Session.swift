import CBenchSupport
import Synchronization

/// The live state of one case being measured: its workload, its thread team with one context per thread, and
/// the two ways a run of them is timed (lockstep, and a synchronized measurement window).
///
/// Not thread-safe: one coordinator thread drives it, one run at a time.
final class Session: @unchecked Sendable {
    let workload: Workload
    let team: ThreadTeam
    let workers: [WorkerContext]
    /// Reads where each worker's time went, at a sample's edges.
    private let schedules: TeamScheduleReader
    /// Reads each worker's CPU and what the hypervisor stole from every CPU, at a sample's edges.
    private let steal: TeamStealReader
    /// Each worker's completed iterations in the current timed run, published after every batch.
    private let counters: UnsafeMutablePointer<bench_padded_counter>
    /// Raised once, when the workers of a timed run may leave.
    private let stop = Atomic<Bool>(false)
    /// Workers that have begun the current timed run.
    private let ready = Atomic<Int>(0)
    /// How often the coordinator looks whether every worker has begun.
    static let readyPollNanoseconds: UInt64 = 20_000
    /// Where the coordinator says how far it has got, for a watchdog (`HangWatch`); nil when nobody watches.
    private let pulse: CasePulse?

    /// `cpus`: where the team's threads run (`ThreadTeam`), or nil for wherever the scheduler puts them. `pulse`:
    /// stepped as each run of the team returns and each window closes, and given the threads' published counts.
    init(workload: Workload, threads: Int, cpus: [Int]? = nil, pulse: CasePulse? = nil) {
        self.workload = workload
        team = ThreadTeam(count: threads, cpus: cpus)
        workers = (0..<threads).map { WorkerContext(index: $0, threadCount: threads) }
        schedules = TeamScheduleReader(team.identities)
        steal = TeamStealReader(team.identities)
        counters = .allocate(capacity: threads)
        counters.initialize(repeating: bench_padded_counter(), count: threads)
        self.pulse = pulse
        pulse?.attach(self)
    }

    deinit {
        counters.deallocate()
    }

    /// Every thread runs exactly `iterations`; the sample ends when the last one is done (and the drain, if
    /// any, has returned).
    func lockstep(iterations: Int) -> RawSample {
        let workers = self.workers, body = workload.body
        workload.prepare?(iterations)
        let threadsBefore = OSThreadCount.current()
        let usageBefore = ResourceUsage.current()
        let schedulesBefore = schedules.read()
        let stealBefore = steal.read()
        let started = MonotonicClock.now()
        team.run { index in
            let worker = workers[index]
            let begun = MonotonicClock.now()
            body(worker, iterations)
            worker.lastRunNanoseconds = MonotonicClock.now() - begun
            worker.completedIterations = iterations
        }
        workload.drain?()
        let elapsed = MonotonicClock.now() - started
        let schedulesAfter = schedules.read()
        let stealAfter = steal.read()
        pulse?.step()
        return RawSample(
            elapsedNanoseconds: elapsed,
            threadOperations: workers.map { $0.completedIterations * workload.operationsPerIteration },
            usage: ResourceUsage.current().since(usageBefore),
            latency: collectLatencies(),
            osThreads: (threadsBefore, OSThreadCount.current()),
            schedules: TeamScheduleReader.difference(schedulesBefore, schedulesAfter),
            steal: TeamStealReader.difference(stealBefore, stealAfter)
        )
    }

    /// How long the quickest thread of the last lockstep run spent in it, measured by that thread.
    ///
    /// Threads that wait for each other every iteration finish together, so the thread that arrived last
    /// spent the least time: its clock excludes the wait for the team to wake up, which a slow wake-up (a
    /// thread not yet scheduled, a vCPU being woken) would otherwise add to a short calibration run.
    var quickestThreadOfLastRun: UInt64 {
        workers.map(\.lastRunNanoseconds).min() ?? 0
    }

    /// Thread `index` alone runs `iterations`, timed by itself: the cost of one thread, free of wake-ups and of
    /// the other threads. The other workers return at once. `begin` and `end` run on that thread just before
    /// and just after the operations (for counters that are per thread, such as callgrind's).
    @discardableResult
    func solo(thread index: Int, iterations: Int,
              begin: @escaping @Sendable () -> Void = {}, end: @escaping @Sendable () -> Void = {}) -> UInt64 {
        let worker = workers[index], body = workload.body
        workload.prepare?(iterations)
        team.run { current in
            guard current == index else { return }
            begin()
            let begun = MonotonicClock.now()
            body(worker, iterations)
            worker.lastRunNanoseconds = MonotonicClock.now() - begun
            end()
        }
        pulse?.step()
        return worker.lastRunNanoseconds
    }

    /// `windows` samples, each a synchronized measurement window of `duration`, after JMH's synchronized
    /// iterations, handed to `take` as it closes; stops early when `take` returns false.
    ///
    /// Every worker announces that it has begun and keeps running batches (`batches[thread]` iterations
    /// each), publishing its count after each. Only when every worker has announced does the first window open:
    /// the coordinator reads the clock and every count. When `duration` has passed it reads them again. So
    /// every measured operation ran while all the threads were running, however long waking them took, and the
    /// window's length, not the sample's, is the time. A batch is a microsecond of one thread's work, so a
    /// count is at most a batch stale at either edge (as likely early as late), and a worker pays one relaxed
    /// store and one relaxed load per batch.
    ///
    /// The windows run back to back on one launch of the workers, who keep running between them and leave,
    /// unmeasured, after the last: no window starts with threads just woken (and cores just idle). With workers
    /// parked between samples, every 2 ms window of an uncontended lock write at one thread ran 25–30% slower
    /// than a 50 ms one, a platform warm-up of a few milliseconds per sample.
    ///
    /// A workload with a drain is launched, stopped and drained once per window instead: its threads enqueue
    /// work that completes later, so the workers are stopped first, the drain runs, and the window closes after
    /// it (the tail, when the workers leave, is counted and timed too).
    func timed(batches: [Int], duration: UInt64, windows: Int, take: (RawSample) -> Bool) {
        let batchOperations = batches.map { $0 * workload.operationsPerIteration }
        if let drain = workload.drain {
            for _ in 0..<windows {
                launch(batches: batches)
                let (opened, atOpen, before) = openWindow()
                MonotonicClock.sleep(until: opened + duration)
                release()
                drain()
                let closed = MonotonicClock.now()
                let atClose = workers.map(\.completedIterations)
                guard take(sample(opened, closed, atOpen, atClose, before, batchOperations)) else { return }
                pulse?.step()
            }
            return
        }
        launch(batches: batches)
        defer { release() }
        for _ in 0..<windows {
            let (opened, atOpen, before) = openWindow()
            MonotonicClock.sleep(until: opened + duration)
            let closed = MonotonicClock.now()
            let atClose = publishedCounts()
            guard take(sample(opened, closed, atOpen, atClose, before, batchOperations)) else { return }
            pulse?.step()
        }
    }

    /// What the process looked like when a window opened, to measure the window against.
    private struct WindowStart {
        var threads: Int?
        var usage: ResourceUsage
        var schedules: [ThreadSchedule]?
        var steal: StealReading?
    }

    /// Opens a window: the clock and every worker's published count, after the process's thread count, resource
    /// usage, each worker's schedule and CPU and every CPU's steal (read first, so that their cost stays outside).
    private func openWindow() -> (opened: UInt64, counts: [Int], before: WindowStart) {
        let before = WindowStart(threads: OSThreadCount.current(), usage: ResourceUsage.current(),
                                 schedules: schedules.read(), steal: steal.read())
        let opened = MonotonicClock.now()
        return (opened, publishedCounts(), before)
    }

    /// The sample of a window from its two readings, its threads publishing `batchOperations` at a time. Each
    /// worker's schedule, then its CPU and every CPU's steal, are read first after the window closed, so that they
    /// span the window and as little else as they can.
    private func sample(_ opened: UInt64, _ closed: UInt64, _ atOpen: [Int], _ atClose: [Int],
                        _ before: WindowStart, _ batchOperations: [Int]) -> RawSample {
        let schedulesAfter = schedules.read()
        let stealAfter = steal.read()
        return RawSample(
            elapsedNanoseconds: closed - opened,
            threadOperations: zip(atClose, atOpen).map { ($0 - $1) * workload.operationsPerIteration },
            usage: ResourceUsage.current().since(before.usage),
            latency: collectLatencies(),
            osThreads: (before.threads, OSThreadCount.current()),
            schedules: TeamScheduleReader.difference(before.schedules, schedulesAfter),
            steal: TeamStealReader.difference(before.steal, stealAfter),
            batchOperations: batchOperations
        )
    }

    /// How long, once every worker runs, until each has completed a batch more: one turn of the scheduler
    /// through the team. Next to nothing when every thread has a core; with more threads than cores, about
    /// the time slices of the threads that share a core.
    ///
    /// A window much shorter than this measures which threads the scheduler happened to run in it, not the
    /// pattern: per-thread counts (fairness) would depend on the sample's length. Gives up at `limit`.
    func rotation(batches: [Int], limit: UInt64) -> RotationProbe {
        launch(batches: batches)
        let opened = MonotonicClock.now()
        let atOpen = publishedCounts()
        var elapsed: UInt64 = 0
        while elapsed < limit, zip(publishedCounts(), atOpen).contains(where: { $0 <= $1 }) {
            MonotonicClock.sleep(until: MonotonicClock.now() + Self.rotationPollNanoseconds)
            elapsed = MonotonicClock.now() - opened
        }
        let stopping = MonotonicClock.now()
        release()
        return RotationProbe(rotation: min(elapsed, limit), stop: MonotonicClock.now() - stopping)
    }

    /// What one probe of `rotation` saw.
    struct RotationProbe {
        /// The rotation, at most the probe's limit.
        var rotation: UInt64
        /// How long the workers took, once told to stop, to finish the batch each was in and leave.
        var stop: UInt64
    }

    /// How often `rotation` looks at the counts: rarely enough that the coordinator's wake-ups barely
    /// disturb the workers it is timing.
    static let rotationPollNanoseconds: UInt64 = 100_000

    /// Starts every worker on batches of `batches[thread]` iterations, publishing its count after each, and
    /// returns once every worker has begun.
    private func launch(batches: [Int]) {
        precondition(batches.count == team.count, "one batch size per thread")
        let workers = self.workers, body = workload.body
        workload.prepare?(batches.max() ?? 1)
        stop.store(false, ordering: .relaxed)
        ready.store(0, ordering: .relaxed)
        for index in workers.indices { bench_counter_publish(counters + index, 0) }

        team.start { [self] index in
            let worker = workers[index], batch = batches[index], counter = self.counters + index
            self.ready.add(1, ordering: .relaxed)
            var completed = 0
            repeat {
                body(worker, batch)
                completed &+= batch
                bench_counter_publish(counter, Int64(completed))
            } while !self.stop.load(ordering: .relaxed)
            worker.completedIterations = completed
        }
        // With more threads than cores, or on a busy machine, a worker may not have run yet.
        while ready.load(ordering: .relaxed) < team.count {
            MonotonicClock.sleep(until: MonotonicClock.now() + Self.readyPollNanoseconds)
        }
        pulse?.step()
    }

    /// Lets the launched workers leave after their current batch, and waits until they have.
    private func release() {
        stop.store(true, ordering: .relaxed)
        team.join()
        pulse?.step()
    }

    /// Every worker's published count, in thread order.
    private func publishedCounts() -> [Int] {
        (0..<team.count).map { Int(bench_counter_read(counters + $0)) }
    }

    /// The workers' published counts added up: what a watchdog on another thread reads to see them advance
    /// (`CasePulse`). Thread-safe: each count is a relaxed atomic load.
    func publishedOperations() -> Int {
        (0..<team.count).reduce(0) { $0 &+ Int(bench_counter_read(counters + $1)) }
    }

    /// Merges and clears the workers' latency histograms; nil when none was recorded. Histograms nobody
    /// recorded into are skipped: each spans 1 ns to 60 s, and merging or clearing one walks all its buckets.
    @discardableResult
    func collectLatencies() -> LatencyPercentiles? {
        let recording = workers.filter { $0.latencies.totalCount > 0 }
        guard var merged = recording.first?.latencies else { return nil }
        for worker in recording.dropFirst() { merged.add(worker.latencies) }
        for worker in recording { worker.latencies.reset() }
        return LatencyPercentiles(p50: merged.valueAtPercentile(50), p90: merged.valueAtPercentile(90),
                                  p99: merged.valueAtPercentile(99))
    }

    func finish() {
        team.shutdown()
        workload.teardown?()
    }
}
