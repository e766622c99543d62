/// One case set up and kept open between measurements: its workload, its thread team and, for each sample
/// length it has been asked for, the plan calibration made. `CaseRunner` measures every case through one, and
/// `bench worker` keeps one open between requests, so that a sample measured either way is the same sample:
/// the same threads, the same calibration, the same synchronized window.
///
/// Not thread-safe: one coordinator drives it, one measurement at a time. `close()` shuts the thread team
/// down and tears the workload down; it must be called once, and nothing may follow it.
package final class OpenCase {
    package let benchmarkCase: BenchmarkCase
    let session: Session
    /// The plan for each sample length asked for so far (calibrated or adopted), so that a length is calibrated
    /// at most once.
    private var plans: [UInt64: CaseRunner.SamplePlan] = [:]
    /// Where the case says how far it has got, for a watchdog (`HangWatch`); nil when nobody watches.
    private let pulse: CasePulse?

    /// Starts the case's thread team on `workload`, thread *i* on CPU `teamCPUs[i % teamCPUs.count]` alone when
    /// given (`ThreadTeam`; `pinFailure` says when that failed). Calibrates nothing yet (`plan(sampleNanoseconds:)`).
    /// `pulse`, when given, follows every stage and run of the case (`CasePulse`).
    package init(_ benchmarkCase: BenchmarkCase, workload: Workload, teamCPUs: [Int]? = nil, pulse: CasePulse? = nil) {
        self.benchmarkCase = benchmarkCase
        self.pulse = pulse
        session = Session(workload: workload, threads: benchmarkCase.threads, cpus: teamCPUs, pulse: pulse)
    }

    /// Why the team's threads are not on the CPUs asked for, or nil.
    package var pinFailure: String? { session.team.pinFailure }

    /// Takes `plan` as the calibration of samples of `sampleNanoseconds`, in place of calibrating: a plan an
    /// earlier process calibrated for this case (of this build or another: `bench-commits --paired` gives both
    /// builds one plan). Throws `PlanMismatch` when the plan cannot measure this case (another pacing, another
    /// number of threads, a count calibration never makes). With `checked`, this build first tries the plan's
    /// batches (`CaseRunner.checked`): where they starve one of its threads it takes batches of one iteration.
    package func adopt(_ plan: CaseRunner.SamplePlan, sampleNanoseconds: UInt64, checked: Bool = false) throws {
        if let reason = plan.mismatch(session) { throw PlanMismatch(reason: reason) }
        guard checked else {
            plans[sampleNanoseconds] = plan
            return
        }
        pulse?.enter(.calibration)
        plans[sampleNanoseconds] = Self.calibrating(sampleNanoseconds).checked(plan, session)
    }

    /// `settings.warmupSamples` samples run and dropped, then `settings.samples` kept, each lasting at least
    /// `settings.sampleNanoseconds` (calibrated on first use of that length): one result, or one per role.
    ///
    /// - Parameter shouldContinue: asked between samples; when it returns false the measurement is abandoned
    ///   and `MeasurementInterrupted` is thrown (the case stays open).
    package func measure(_ settings: MeasurementSettings, shouldContinue: () -> Bool = { true }) throws -> [CaseResult] {
        let runner = CaseRunner(settings: settings)
        let plan = plan(sampleNanoseconds: settings.sampleNanoseconds)
        pulse?.enter(.sampling)
        session.collectLatencies()  // calibration's latencies, or whatever ran since the last sample, are not a sample's
        let samples = try runner.keptSamples(session, plan: plan, shouldContinue: shouldContinue)
        return runner.results(for: benchmarkCase, workload: session.workload, samples: samples)
    }

    /// About how long one sample of `sampleNanoseconds` lasts once calibrated (see `CaseRunner.SamplePlan`).
    func calibratedSampleNanoseconds(_ sampleNanoseconds: UInt64) -> UInt64 {
        plan(sampleNanoseconds: sampleNanoseconds).sampleNanoseconds(calibratedTo: sampleNanoseconds)
    }

    /// The plan samples of `sampleNanoseconds` run by: the one adopted for that length, or calibration's
    /// (calibrating first, once per length), so that no calibration falls between later samples.
    package func plan(sampleNanoseconds: UInt64) -> CaseRunner.SamplePlan {
        if let plan = plans[sampleNanoseconds] { return plan }
        pulse?.enter(.calibration)
        let plan = Self.calibrating(sampleNanoseconds).plan(session)
        plans[sampleNanoseconds] = plan
        return plan
    }

    /// The runner that calibrates (or checks) a plan for samples of `sampleNanoseconds`.
    private static func calibrating(_ sampleNanoseconds: UInt64) -> CaseRunner {
        CaseRunner(settings: MeasurementSettings(sampleNanoseconds: sampleNanoseconds, samples: 1, warmupSamples: 0))
    }

    /// Shuts the thread team down and tears the workload down.
    package func close() {
        pulse?.enter(.teardown)
        session.finish()
    }
}

/// A plan given to `OpenCase.adopt` that cannot measure the case; `reason` says why.
package struct PlanMismatch: Error {
    package let reason: String
}
