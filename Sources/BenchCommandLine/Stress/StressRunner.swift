import BenchCore
import BenchResults
import Foundation
import StressChecks
import Synchronization

/// One check at one thread count: what `bench stress` runs for a share of its duration.
struct StressSlot: Sendable {
    let check: StressCase
    let threads: Int

    /// `check threads:N`, as the progress, the report and the verdict name a slot.
    var label: String { "\(check.name) threads:\(threads)" }
}

/// What one slot observed.
struct StressResult: Sendable {
    let slot: StressSlot
    var iterations = 0
    var seconds = 0.0
    var counts = OutcomeCounts()
    /// For a control: seconds from its start to its first forbidden outcome, nil while none was seen.
    var secondsToFirstForbidden: Double?
    /// For a control: trials made up to and including the iteration that first showed a forbidden outcome.
    var trialsToFirstForbidden: Int?
    /// The watchdog abandoned the slot: its threads made no progress for `--watchdog` seconds.
    var abandoned = false
    /// The iterations that ran longer than `--watchdog` seconds while their threads still advanced, and the
    /// slowest rate they advanced at (operations per second).
    var slowIterations = 0
    var slowestRate: Double?

    /// Trials made, over every iteration (`OutcomeCounts.trials`, one for an iteration that counts none).
    var trials: Int { counts.trials }

    /// The slot reached the trials its check needs before it proves a variant (`CheckPower.minimumTrials`).
    var reachedMinimum: Bool { !abandoned && trials >= slot.check.power.minimumTrials }

    /// The slot's CSV rows: one per outcome, one for an abandoned check, one for its slow iterations.
    func rows() -> [StressSchema.Row] {
        var outcomes = counts.sorted
        if abandoned { outcomes.insert((.abandoned, 1), at: 0) }
        if slowIterations > 0 { outcomes.append((.slowIteration, slowIterations)) }
        return outcomes.map {
            StressSchema.Row(check: slot.check.name, isControl: slot.check.isControl, origin: slot.check.origin,
                             threads: slot.threads, iterations: iterations, seconds: seconds, outcome: $0.outcome.id,
                             grade: $0.outcome.grade.rawValue, count: $0.count,
                             secondsToFirstForbidden: secondsToFirstForbidden, trials: trials,
                             minimumTrials: slot.check.power.minimumTrials,
                             controlKind: slot.check.control?.rawValue ?? "",
                             trialsToFirstForbidden: trialsToFirstForbidden, trial: slot.check.power.trial,
                             threadsMeaning: slot.check.power.threads)
        }
    }
}

extension Outcome {
    /// The watchdog abandoned the check: none of its threads advanced for `--watchdog` seconds.
    static let abandoned = Outcome("no-progress-suspected-deadlock", .forbidden)
    /// An iteration ran longer than `--watchdog` seconds while its threads still advanced: slow, not stuck.
    static let slowIteration = Outcome("iteration-slower-than-watchdog", .interesting)
}

/// Runs the slots one after another, each iteration on a thread of its own that the runner watches, writing
/// each slot's rows as it completes.
///
/// The watchdog is the runner's own wait: it reads `StressPulse`, which every check's threads beat once per
/// operation, and abandons an iteration only when no thread advanced for `watchdogSeconds`; the run then goes on
/// with the next slot (the stuck threads are left behind, never waited for). An iteration whose threads advance
/// is never cut short, however long it runs: it is reported as slow. A variant's slot runs until its share of the
/// duration is used and its check's minimum trials are reached, or until it shows a forbidden outcome, but starts
/// no iteration more than `overrunLimits` watchdog times past its share (a check so slow that it would take
/// minutes to reach its minimum ends below it, not proven, rather than holding the run); a control's until it is
/// caught, or its budget.
/// A signal stops the run after the current iteration.
final class StressRunner: Sendable {
    let slots: [StressSlot]
    let slotSeconds: Double
    let controlSeconds: Double
    let environment: RunEnvironment
    let writer: ResultsWriter
    let watchdogSeconds: Double
    private let signal = Atomic<Int32>(0)
    /// How many watchdog times past its share a variant's slot may go on toward its minimum trials.
    static let overrunLimits = 3.0

    init(slots: [StressSlot], duration: Double, controlSeconds: Double, environment: RunEnvironment,
         writer: ResultsWriter, watchdogSeconds: Double) {
        self.slots = slots
        let variantSlots = slots.filter { !$0.check.isControl }.count
        slotSeconds = duration / Double(max(variantSlots, 1))
        self.controlSeconds = controlSeconds
        self.environment = environment
        self.writer = writer
        self.watchdogSeconds = watchdogSeconds
    }

    /// The signal that stopped the run, nil when it ran to the end.
    var stoppingSignal: Int32? {
        let number = signal.load(ordering: .acquiring)
        return number == 0 ? nil : number
    }

    /// Runs every slot, or until a signal; returns what each completed (or interrupted, or abandoned) slot
    /// observed. Exits the process (74) when a slot's rows cannot be written.
    func run() -> [StressResult] {
        let interruption = Interruption(onFirst: { [self] number in
            _ = signal.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing)
            warn("\(ProgramName.current) stress: \(Interruption.name(number)): stopping after the current "
                 + "iteration (\(Interruption.again(number)) to stop at once)")
        }, onSecond: { [writer] number in
            writer.endAtOnce { _, _ in exit(Interruption.exitStatus(number)) }
        })
        var results: [StressResult] = []
        for (index, slot) in slots.enumerated() {
            if interruption.isRequested { break }
            progressLine(index: index, slot: slot)
            let result = run(slot, stop: { interruption.isRequested })
            results.append(result)
            do {
                try write(result)
            } catch {
                warn("\(ProgramName.current) stress: \(error)")
                exit(ExitStatus.writeFailed)
            }
            warn("    " + StressReport.progressSummary(result))
        }
        return results
    }

    /// Iterations of one slot (see the type's rules).
    private func run(_ slot: StressSlot, stop: () -> Bool) -> StressResult {
        let start = MonotonicClock.now()
        let end = start + UInt64((slot.check.isControl ? controlSeconds : slotSeconds) * 1e9)
        let lastStart = end + UInt64(Self.overrunLimits * watchdogSeconds * 1e9)
        var result = StressResult(slot: slot)
        repeat {
            let iteration = watched(slot)
            result.seconds = Double(MonotonicClock.now() - start) / 1e9
            guard var observed = iteration.counts else {
                warn("\(ProgramName.current) stress: suspected deadlock: \(slot.label) made no progress for "
                     + "\(String(format: "%.1f", watchdogSeconds)) s (--watchdog); abandoning it, its threads left "
                     + "behind, and going on with the next check")
                result.abandoned = true
                break
            }
            observed.trials = max(observed.trials, 1)
            result.iterations += 1
            result.counts.add(observed)
            if let rate = iteration.slowRate {
                result.slowIterations += 1
                result.slowestRate = min(result.slowestRate ?? rate, rate)
            }
            if observed.forbidden > 0 {
                // A control is caught; a variant has failed, and more trials would prove nothing more (a handoff
                // that lost a wake-up leaves two threads behind in every iteration that shows it).
                if slot.check.isControl {
                    result.secondsToFirstForbidden = result.seconds
                    result.trialsToFirstForbidden = result.trials
                }
                break
            }
            let now = MonotonicClock.now()
            if now >= end && (slot.check.isControl || result.trials >= slot.check.power.minimumTrials) { break }
            if now >= lastStart { break }  // below its minimum: not proven
        } while !stop()
        return result
    }

    /// One iteration of `slot` on a thread of its own, watched: its outcomes, nil when no thread advanced
    /// (`StressPulse`) and the iteration did not end for `watchdogSeconds`; with the rate its threads advanced at
    /// when it ran longer than `watchdogSeconds`.
    private func watched(_ slot: StressSlot) -> (counts: OutcomeCounts?, slowRate: Double?) {
        let observed = Mutex<OutcomeCounts?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let counts = slot.check.iteration(slot.threads)
            observed.withLock { $0 = counts }
            done.signal()
        }
        thread.stackSize = 1 << 20
        let started = MonotonicClock.now()
        let firstBeat = StressPulse.count
        var lastBeat = firstBeat
        var lastAdvance = started
        thread.start()
        let limit = UInt64(watchdogSeconds * 1e9)
        let poll = min(0.25, watchdogSeconds / 4)
        while done.wait(timeout: .now() + poll) == .timedOut {
            let now = MonotonicClock.now()
            let beat = StressPulse.count
            if beat != lastBeat {
                lastBeat = beat
                lastAdvance = now
            } else if now - lastAdvance > limit {
                return (nil, nil)
            }
        }
        let elapsed = Double(MonotonicClock.now() - started) / 1e9
        let rate = elapsed > watchdogSeconds ? Double(StressPulse.count - firstBeat) / elapsed : nil
        return (observed.withLock { $0 }, rate)
    }

    private func write(_ result: StressResult) throws {
        let rows = result.rows().map { StressSchema.fields($0, environment: environment) }
        guard !rows.isEmpty else { return }
        try writer.append(rows: rows, header: StressSchema.header)
    }

    /// Announces a slot on stderr, with the time left for the variants' slots after it.
    private func progressLine(index: Int, slot: StressSlot) {
        let variantSlotsLeft = slots[index...].filter { !$0.check.isControl }.count
        let left = Double(variantSlotsLeft) * slotSeconds
        warn("[\(index + 1)/\(slots.count)] \(slot.label)"
             + (slot.check.isControl ? " (\(slot.check.control!.rawValue) control, until caught)" : "")
             + "  ~\(Progress.duration(left)) left")
    }
}
