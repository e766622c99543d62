import Synchronization

/// Thrown when a measurement stops because its caller asked it to (Ctrl-C): the case has no result.
public struct MeasurementInterrupted: Error {
    public init() {}
}

/// Measures one case: starts its thread team, calibrates, discards warm-up samples and keeps the rest.
///
/// The clock runs from the moment the coordinator releases the start barrier until every worker has passed
/// the end barrier and the workload's drain (if any) has returned. Thread creation, setup and calibration
/// stay outside it.
public struct CaseRunner: Sendable {
    public let settings: MeasurementSettings

    /// A timed-pacing batch lasts about this fraction of a sample, so the stop flag is seen promptly and
    /// checking it costs nothing measurable.
    static let batchesPerSample: UInt64 = 50
    /// Calibration never grows an iteration count by more than this factor in one step.
    static let maximumGrowth = 100
    /// Runs of a candidate count, the fastest of which must reach the target.
    static let confirmationRuns = 3
    /// Calibration stops growing here: an operation the optimizer reduced to nothing would otherwise never
    /// reach the sample time (and the count would overflow).
    static let maximumIterations = 1 << 36

    public init(settings: MeasurementSettings) {
        self.settings = settings
    }

    /// Measures `workload` as `benchmarkCase` on `benchmarkCase.threads` real threads.
    ///
    /// - Parameter shouldContinue: asked between samples; when it returns false the case is abandoned and
    ///   `MeasurementInterrupted` is thrown.
    /// - Returns: one result, or one per role when the workload assigns roles to threads.
    public func measure(
        _ benchmarkCase: BenchmarkCase,
        workload: Workload,
        shouldContinue: () -> Bool = { true }
    ) throws -> [CaseResult] {
        let session = Session(workload: workload, threads: benchmarkCase.threads)
        defer { session.finish() }

        let iterations = calibrate(session).iterations
        var samples: [RawSample] = []
        for index in 0..<(settings.warmupSamples + settings.samples) {
            guard shouldContinue() else { throw MeasurementInterrupted() }
            let sample = session.sample(iterations: iterations, duration: settings.sampleNanoseconds)
            if index >= settings.warmupSamples { samples.append(sample) }
        }
        return results(for: benchmarkCase, workload: workload, samples: samples)
    }

    /// The outcome of calibration: the iteration count, and how long the run that chose it took.
    struct Calibration {
        var iterations: Int
        var elapsedNanoseconds: UInt64
        var targetNanoseconds: UInt64
    }

    /// The iteration count for one lockstep sample (a run of it lasted at least the sample time), or for one
    /// batch of a timed sample (a run of it lasted at least a fiftieth of the sample time).
    func calibrate(_ session: Session) -> Calibration {
        let target = session.workload.pacing == .lockstep
            ? settings.sampleNanoseconds
            : max(settings.sampleNanoseconds / Self.batchesPerSample, 1)
        var iterations = 1
        while true {
            var elapsed = session.lockstep(iterations: iterations).elapsedNanoseconds
            // One slow wake-up can carry a short run past the target and lock every sample into a handful of
            // iterations; a count is accepted only when the fastest of several runs still reaches the target.
            for _ in 1..<Self.confirmationRuns where elapsed >= target {
                elapsed = min(elapsed, session.lockstep(iterations: iterations).elapsedNanoseconds)
            }
            if elapsed >= target || iterations >= Self.maximumIterations {
                return Calibration(iterations: iterations, elapsedNanoseconds: elapsed, targetNanoseconds: target)
            }
            // Aim 20% past the target so that the next try usually lands, and never grow wildly from a
            // single fast run.
            let estimate = Double(iterations) * Double(target) * 1.2 / Double(max(elapsed, 1))
            iterations = min(max(Int(min(estimate, 1e18).rounded(.up)), iterations * 2),
                             iterations * Self.maximumGrowth, Self.maximumIterations)
        }
    }

    private func results(for benchmarkCase: BenchmarkCase, workload: Workload, samples: [RawSample]) -> [CaseResult] {
        let reported = (0..<benchmarkCase.threads).filter { workload.reportsThread?($0) ?? true }
        guard let role = workload.role else {
            return [CaseResult(benchmarkCase: benchmarkCase, samples: samples.map { $0.sample(threads: reported) })]
        }
        var roles: [String: [Int]] = [:]
        for thread in reported { roles[role(thread), default: []].append(thread) }
        return roles.sorted { $0.key < $1.key }.map { name, threads in
            CaseResult(benchmarkCase: benchmarkCase, role: name, samples: samples.map { $0.sample(threads: threads) })
        }
    }
}

/// A sample before it is split by role.
struct RawSample {
    var elapsedNanoseconds: UInt64
    var threadOperations: [Int]
    var usage: ResourceUsage
    var latency: LatencyPercentiles?

    /// The sample as seen from the given threads.
    func sample(threads: [Int]) -> Sample {
        let counted = threads.map { threadOperations[$0] }
        return Sample(operations: counted.reduce(0, +), elapsedNanoseconds: elapsedNanoseconds,
                      threadOperations: counted, usage: usage, latency: latency)
    }
}

/// The live state of one case being measured: its workload, thread team and per-thread contexts.
final class Session: @unchecked Sendable {
    let workload: Workload
    let team: ThreadTeam
    let workers: [WorkerContext]
    private let stop = Atomic<Bool>(false)
    /// Threads that have begun the current timed sample.
    private let running = Atomic<Int>(0)
    /// How often the coordinator looks whether every thread has begun, once the sample time is over.
    static let startPollNanoseconds: UInt64 = 20_000

    init(workload: Workload, threads: Int) {
        self.workload = workload
        team = ThreadTeam(count: threads)
        workers = (0..<threads).map { WorkerContext(index: $0, threadCount: threads) }
    }

    /// One sample: lockstep for lockstep workloads, else batches of `iterations` until `duration` has passed.
    func sample(iterations: Int, duration: UInt64) -> RawSample {
        switch workload.pacing {
        case .lockstep: return lockstep(iterations: iterations)
        case .timed: return timed(batch: iterations, duration: duration)
        }
    }

    /// Every thread runs exactly `iterations`; ends when the last one is done.
    func lockstep(iterations: Int) -> RawSample {
        let workers = self.workers, body = workload.body
        workload.prepare?(iterations)
        return measured { _ in
            team.run { index in
                body(workers[index], iterations)
                workers[index].completedIterations = iterations
            }
        }
    }

    /// Every thread runs batches until the stop flag rises after `duration`; each counts its own iterations.
    func timed(batch: Int, duration: UInt64) -> RawSample {
        let workers = self.workers, body = workload.body
        workload.prepare?(batch)
        stop.store(false, ordering: .relaxed)
        running.store(0, ordering: .relaxed)
        return measured { started in
            team.start { [self] index in
                self.running.add(1, ordering: .relaxed)
                var completed = 0
                repeat {
                    body(workers[index], batch)
                    completed += batch
                } while !self.stop.load(ordering: .relaxed)
                workers[index].completedIterations = completed
            }
            MonotonicClock.sleep(until: started + duration)
            // With more threads than cores, or on a busy machine, a thread may not have been scheduled yet: the
            // sample ends only once every thread runs, so that none finishes its only batch alone afterwards.
            while running.load(ordering: .relaxed) < team.count {
                MonotonicClock.sleep(until: MonotonicClock.now() + Self.startPollNanoseconds)
            }
            stop.store(true, ordering: .relaxed)
            team.join()
        }
    }

    /// Times `run` (given the start time) plus the drain, with resource usage around it.
    private func measured(_ run: (_ started: UInt64) -> Void) -> RawSample {
        let usageBefore = ResourceUsage.current()
        let started = MonotonicClock.now()
        run(started)
        workload.drain?()
        let elapsed = MonotonicClock.now() - started
        let usage = ResourceUsage.current().since(usageBefore)
        return RawSample(
            elapsedNanoseconds: elapsed,
            threadOperations: workers.map { $0.completedIterations * workload.operationsPerIteration },
            usage: usage,
            latency: collectLatencies()
        )
    }

    /// Merges and clears the workers' latency histograms; nil when none was recorded. Histograms nobody
    /// recorded into are skipped: each spans 1 ns to 60 s, and merging or clearing one walks all its buckets.
    private func collectLatencies() -> LatencyPercentiles? {
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
