/// Thrown when a measurement stops because its caller asked it to (Ctrl-C): the case has no result.
package struct MeasurementInterrupted: Error {
    package init() {}
}

/// Measures one case: starts its thread team, calibrates, discards warm-up samples and keeps the rest.
///
/// Thread creation, setup and calibration stay outside every timed region. Timed workloads are measured in a
/// synchronized window (`Session.timed`) whose batches are sized from one thread's cost; lockstep workloads run
/// a fixed count per thread, calibrated by the threads' own clocks so that a slow wake-up cannot shrink it.
package struct CaseRunner: Sendable {
    package let settings: MeasurementSettings

    /// One timed-pacing batch is about this much of one thread's work: short enough that a count read at a
    /// window's edge is at most this stale, long enough that the per-batch store and flag check vanish in it.
    /// The words of the results file's `batch_ops` quote it.
    package static let batchNanoseconds: UInt64 = 1_000
    /// Runs of a candidate count, the fastest of which must reach the target.
    static let confirmationRuns = 3
    /// A timed window lasts at least this many turns of the scheduler through the team (`Session.rotation`), so
    /// that with more threads than cores every thread has had its share of the window more than once, whatever
    /// `--sample-time` asks for. Two is enough for the read-only hit paths to be fair under oversubscription
    /// without lengthening every window much.
    static let rotationsPerWindow: UInt64 = 2
    /// A timed window lasts at least this many of the team's longest batch as it ran alone (`calibrateBatches`),
    /// whatever `--sample-time` asks for. A thread's count is stale by up to the batch it is in at each edge, so a
    /// window of a few batches reads in coarse steps, and one that a slower batch outlasts reads no operation at all:
    /// a one-thread fan-out of 4,096 tasks (2 to 3 ms an iteration alone) read "starved" in 8 ms windows
    /// (docs/findings/2026-11-30-windows-of-eight-batches.md). With eight, a thread running as fast as alone reads
    /// its count within an eighth; a batch of an ordinary case lasts about `batchNanoseconds`, so its window is as
    /// before.
    static let batchesPerWindow: UInt64 = 8
    /// A rotation longer than this (a thread starved by the pattern itself) stops stretching the window, and a
    /// case whose threads take this long to stop publishes after every iteration (`timedPlan`).
    static let maximumRotationNanoseconds: UInt64 = 50_000_000

    package init(settings: MeasurementSettings) {
        self.settings = settings
    }

    /// Measures `workload` as `benchmarkCase` on `benchmarkCase.threads` real threads.
    ///
    /// - Parameter shouldContinue: asked between samples; when it returns false the case is abandoned and
    ///   `MeasurementInterrupted` is thrown.
    /// - Returns: one result, or one per role when the workload assigns roles to threads.
    package func measure(
        _ benchmarkCase: BenchmarkCase,
        workload: Workload,
        shouldContinue: () -> Bool = { true }
    ) throws -> [CaseResult] {
        try measure(benchmarkCase, workload: workload, plan: nil, shouldContinue: shouldContinue).results
    }

    /// As `measure(_:workload:shouldContinue:)`, running the samples by `plan` when one is given (the plan an
    /// earlier process calibrated for this case at this sample time) instead of calibrating. `pulse`, when given,
    /// follows every stage and run of the case, for a watchdog on another thread (`HangWatch`).
    ///
    /// - Returns: the results, and the plan their samples ran by (`plan`, or the one calibrated).
    /// - Throws: `PlanMismatch` when `plan` cannot measure the case (`OpenCase.adopt`).
    package func measure(
        _ benchmarkCase: BenchmarkCase,
        workload: Workload,
        plan: SamplePlan?,
        pulse: CasePulse? = nil,
        shouldContinue: () -> Bool = { true }
    ) throws -> (results: [CaseResult], plan: SamplePlan) {
        let open = OpenCase(benchmarkCase, workload: workload, pulse: pulse)
        defer { open.close() }
        if let plan { try open.adopt(plan, sampleNanoseconds: settings.sampleNanoseconds) }
        let results = try open.measure(settings, shouldContinue: shouldContinue)
        return (results, open.plan(sampleNanoseconds: settings.sampleNanoseconds))
    }

    /// Measures the case once per entry of `sampleTimes`, in that order, on one thread team and one workload:
    /// the same threads, stacks and data throughout, and the same measured time in every entry (`settings`'
    /// samples of its sample time, or as many shorter samples as fill that time), so that what differs between
    /// the results is the sample length alone, not how much of a pattern's slower and faster phases they saw.
    /// Returns the first role's result (or the only one) for each entry.
    package func measure(_ benchmarkCase: BenchmarkCase, workload: Workload, sampleTimes: [UInt64]) throws -> [CaseResult] {
        try measure(benchmarkCase, workload: workload) { done in
            done.count < sampleTimes.count ? sampleTimes[done.count] : nil
        }
    }

    /// As `measure(_:workload:sampleTimes:)`, with each entry's sample time chosen when the entry is due:
    /// `nextSampleTime` gets the results so far and returns the next sample time, or nil to stop. Lets a caller
    /// measure until what it has seen is enough, all on the same thread team.
    package func measure(_ benchmarkCase: BenchmarkCase, workload: Workload,
                        nextSampleTime: ([CaseResult]) -> UInt64?) throws -> [CaseResult] {
        let open = OpenCase(benchmarkCase, workload: workload)
        defer { open.close() }
        let measuredTime = UInt64(settings.samples) * settings.sampleNanoseconds
        var results: [CaseResult] = []
        while let sampleTime = nextSampleTime(results) {
            var settings = self.settings
            settings.sampleNanoseconds = sampleTime
            settings.samples = Self.samples(filling: measuredTime, eachLasting: open.calibratedSampleNanoseconds(sampleTime))
            results.append(try open.measure(settings)[0])
        }
        return results
    }

    /// The warm-up samples, run and dropped, then the kept ones.
    func keptSamples(_ session: Session, plan: SamplePlan, shouldContinue: () -> Bool) throws -> [RawSample] {
        let total = settings.warmupSamples + settings.samples
        var samples: [RawSample] = []
        switch plan {
        case .lockstep(let iterations):
            for _ in 0..<total {
                guard shouldContinue() else { throw MeasurementInterrupted() }
                samples.append(session.lockstep(iterations: iterations))
            }
        case .timed(let batches, let window):
            guard shouldContinue() else { throw MeasurementInterrupted() }
            session.timed(batches: batches, duration: window, windows: total) { sample in
                samples.append(sample)
                return shouldContinue()
            }
            guard samples.count == total else { throw MeasurementInterrupted() }
        }
        return Array(samples.dropFirst(settings.warmupSamples))
    }

    /// How every sample of a case runs, as calibration decided. Codable, so that a process can hand the plan
    /// it calibrated to a later process (`bench worker`'s setup), which then skips calibrating.
    package enum SamplePlan: Equatable, Codable, Sendable {
        /// Each thread runs `iterations`, enough for the quickest thread to spend the sample time.
        case lockstep(iterations: Int)
        /// Each thread runs batches of `batches[thread]` iterations in windows of `window` nanoseconds.
        case timed(batches: [Int], window: UInt64)

        /// Why this plan cannot measure `session`'s case (another pacing, another number of threads, a
        /// count calibration never makes), or nil when it can.
        func mismatch(_ session: Session) -> String? {
            let counts = CalibrationStep.maximumIterations
            switch (self, session.workload.pacing) {
            case (.lockstep(let iterations), .lockstep):
                return (1...counts).contains(iterations) ? nil : "lockstep iterations must be 1 to \(counts), not \(iterations)"
            case (.timed(let batches, let window), .timed):
                if batches.count != session.team.count {
                    return "\(batches.count) batches for \(session.team.count) threads"
                }
                if let batch = batches.first(where: { !(1...counts).contains($0) }) {
                    return "a batch must be 1 to \(counts) iterations, not \(batch)"
                }
                return window >= 1 ? nil : "the window must be at least 1 ns"
            case (.lockstep, .timed): return "a lockstep plan for a case of timed pacing"
            case (.timed, .lockstep): return "a timed plan for a case of lockstep pacing"
            }
        }

        /// About how long one sample lasts: the window, or the sample time a lockstep count was calibrated to.
        func sampleNanoseconds(calibratedTo sampleTime: UInt64) -> UInt64 {
            switch self {
            case .lockstep: sampleTime
            case .timed(_, let window): window
            }
        }
    }

    /// How many samples of `length` fill `measuredTime` (at least one).
    static func samples(filling measuredTime: UInt64, eachLasting length: UInt64) -> Int {
        max(1, Int(measuredTime / max(length, 1)))
    }

    /// The outcome of calibrating one count: the count, and the (fastest) time a run of it took.
    struct Calibration: Equatable {
        var iterations: Int
        var elapsedNanoseconds: UInt64
        var targetNanoseconds: UInt64
    }

    func plan(_ session: Session) -> SamplePlan {
        switch session.workload.pacing {
        case .lockstep: return .lockstep(iterations: calibrateLockstep(session).iterations)
        case .timed: return timedPlan(session)
        }
    }

    /// Batches calibrated alone (`calibrateBatches`), and windows of the sample time, `rotationsPerWindow`
    /// rotations of the team (the median of three probes, each at most `maximumRotationNanoseconds`) or
    /// `batchesPerWindow` of the longest batch as it ran alone, whichever is longest. When a probe's workers, told
    /// to stop, take that long or longer to finish the batch each is in, the pattern starves a thread:
    /// `starvingPlan`.
    ///
    /// A batch calibrated alone is a microsecond of a thread's work only while the thread is not waiting its turn.
    /// In a convoy (a FIFO ticket lock whose 8 spinning threads share 2 CPUs) each iteration waits for the next
    /// ticket's thread to be given a CPU, so such a batch lasts seconds: a window's counts are that stale at its
    /// edges, and the workers leave a launch only once each has finished its batch. With those batches each sample
    /// of that case took 9 to 13 s for a window of about 100 ms (docs/findings/2026-11-29-a-batch-of-one-in-a-
    /// convoy.md). A thread of such a case waits far longer for each iteration than a publication costs it.
    func timedPlan(_ session: Session) -> SamplePlan {
        let calibrations = calibrateBatches(session)
        let batches = calibrations.map(\.iterations)
        var rotations: [UInt64] = []
        while rotations.count < 3 {
            let probe = session.rotation(batches: batches, limit: Self.maximumRotationNanoseconds)
            if probe.stop >= Self.maximumRotationNanoseconds { return starvingPlan(session) }
            rotations.append(probe.rotation)
        }
        let longestBatch = calibrations.map(\.elapsedNanoseconds).max() ?? 0
        return .timed(batches: batches, window: max(window(rotations), Self.batchesPerWindow * longestBatch))
    }

    /// The plan of a case that starves a thread: every thread's batch is one iteration, and the window is
    /// `window` of three probes of those batches, and at least `shortest`.
    func starvingPlan(_ session: Session, shortest: UInt64 = 0) -> SamplePlan {
        let single = Array(repeating: 1, count: session.team.count)
        let rotations = (0..<3).map { _ in
            session.rotation(batches: single, limit: Self.maximumRotationNanoseconds).rotation
        }
        return .timed(batches: single, window: max(shortest, window(rotations)))
    }

    /// `plan`, calibrated by another process (another build's, in a paired comparison), as this one finds it: a
    /// timed plan whose batches, in one probe, take this build's workers `maximumRotationNanoseconds` or longer to
    /// stop becomes `starvingPlan` (its window no shorter than the plan's). The build that calibrated a plan told
    /// whether its own threads starve; this tells whether another build's do with the same batches.
    func checked(_ plan: SamplePlan, _ session: Session) -> SamplePlan {
        guard case .timed(let batches, let window) = plan, batches.contains(where: { $0 > 1 }) else { return plan }
        let probe = session.rotation(batches: batches, limit: Self.maximumRotationNanoseconds)
        return probe.stop >= Self.maximumRotationNanoseconds ? starvingPlan(session, shortest: window) : plan
    }

    /// The sample time, or `rotationsPerWindow` times the median of `rotations` when that is longer.
    func window(_ rotations: [UInt64]) -> UInt64 {
        max(settings.sampleNanoseconds, Self.rotationsPerWindow * rotations.sorted()[rotations.count / 2])
    }

    /// The lockstep count whose run lasts at least the sample time for the quickest thread.
    func calibrateLockstep(_ session: Session) -> Calibration {
        Self.calibrate(target: settings.sampleNanoseconds) { iterations in
            _ = session.lockstep(iterations: iterations)
            return session.quickestThreadOfLastRun
        }
    }

    /// Each thread's batch: `batchNanoseconds` of work for one thread running alone, with the time the fastest
    /// run of it took. Threads that play a role take the batch calibrated on the first thread of that role, so a
    /// reader's batch is not a writer's.
    func calibrateBatches(_ session: Session) -> [Calibration] {
        let threads = 0..<session.team.count
        let representative: [Int] = threads.map { thread in
            guard let role = session.workload.role else { return 0 }
            return threads.first { role($0) == role(thread) } ?? thread
        }
        var batch: [Int: Calibration] = [:]
        for thread in Set(representative) {
            batch[thread] = Self.calibrate(target: Self.batchNanoseconds) { iterations in
                session.solo(thread: thread, iterations: iterations)
            }
        }
        return representative.map { batch[$0]! }
    }

    /// Grows a count by `CalibrationStep` until the fastest of `confirmationRuns` runs of it reaches `target`.
    static func calibrate(target: UInt64, run: (_ iterations: Int) -> UInt64) -> Calibration {
        var iterations = 1
        while true {
            var elapsed = run(iterations)
            // One slow run (an interrupt, a preemption) can carry a short run past the target; a count is
            // accepted only when the fastest of several runs still reaches it.
            for _ in 1..<confirmationRuns where elapsed >= target {
                elapsed = min(elapsed, run(iterations))
            }
            guard let next = CalibrationStep.next(after: iterations, elapsed: elapsed, target: target) else {
                return Calibration(iterations: iterations, elapsedNanoseconds: elapsed, targetNanoseconds: target)
            }
            iterations = next
        }
    }

    func results(for benchmarkCase: BenchmarkCase, workload: Workload, samples: [RawSample]) -> [CaseResult] {
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
