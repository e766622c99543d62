import BenchCore
import BenchResults
import Foundation
import StressChecks
import Synchronization

/// One check at one thread count: what `bench stress` runs for a share of its duration.
struct StressSlot: Sendable {
    let check: StressCase
    let threads: Int
}

/// What one slot observed.
struct StressResult: Sendable {
    let slot: StressSlot
    var iterations = 0
    var seconds = 0.0
    var counts = OutcomeCounts()
    /// For a control: seconds from its start to its first forbidden outcome, nil while none was seen.
    var secondsToFirstForbidden: Double?
    /// The watchdog abandoned the slot.
    var stalled = false

    /// The slot's CSV rows: one per outcome, and one for a suspected deadlock.
    func rows() -> [StressSchema.Row] {
        var outcomes = counts.sorted
        if stalled { outcomes.insert((Outcome("no-progress-suspected-deadlock", .forbidden), 1), at: 0) }
        return outcomes.map {
            StressSchema.Row(check: slot.check.name, isControl: slot.check.isControl, origin: slot.check.origin,
                             threads: slot.threads, iterations: iterations, seconds: seconds, outcome: $0.outcome.id,
                             grade: $0.outcome.grade.rawValue, count: $0.count,
                             secondsToFirstForbidden: secondsToFirstForbidden)
        }
    }
}

/// Runs the slots one after another on the calling thread, each check's iterations on threads of their own,
/// writing each slot's rows as it completes. A watchdog thread ends the process when a slot stops making
/// progress; a signal stops the run after the current iteration.
final class StressRunner: Sendable {
    let slots: [StressSlot]
    let slotSeconds: Double
    let environment: RunEnvironment
    let writer: ResultsWriter
    let watchdogSeconds: Double
    /// The slot in progress, for the watchdog's report.
    private let inProgress = Mutex<StressResult?>(nil)
    private let signal = Atomic<Int32>(0)

    init(slots: [StressSlot], duration: Double, environment: RunEnvironment, writer: ResultsWriter,
         watchdogSeconds: Double) {
        self.slots = slots
        let variantSlots = slots.filter { !$0.check.isControl }.count
        slotSeconds = duration / Double(max(variantSlots, 1))
        self.environment = environment
        self.writer = writer
        self.watchdogSeconds = watchdogSeconds
    }

    /// The signal that stopped the run, nil when it ran to the end.
    var stoppingSignal: Int32? {
        let number = signal.load(ordering: .acquiring)
        return number == 0 ? nil : number
    }

    /// Runs every slot, or until a signal; returns what each completed (or interrupted) slot observed.
    func run() -> [StressResult] {
        let watchdog = StressWatchdog(limitSeconds: watchdogSeconds) { [self] check, seconds in
            warn("\(ProgramName.current) stress: suspected deadlock: \(check) made no progress for "
                 + "\(String(format: "%.1f", seconds)) s (--watchdog \(watchdogSeconds)); abandoning it")
            if var stalled = inProgress.withLock({ $0 }) {
                stalled.stalled = true
                try? write(stalled)
            }
            writer.endAtOnce { _, _ in exit(ExitStatus.suspectedDeadlock) }
        }
        let interruption = Interruption(onFirst: { [self] number in
            _ = signal.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing)
            warn("\(ProgramName.current) stress: \(Interruption.name(number)): stopping after the current "
                 + "iteration (\(Interruption.again(number)) to stop at once)")
        }, onSecond: { [writer] number in
            writer.endAtOnce { _, _ in exit(Interruption.exitStatus(number)) }
        })
        var results: [StressResult] = []
        let started = MonotonicClock.now()
        for (index, slot) in slots.enumerated() {
            if interruption.isRequested { break }
            progressLine(index: index, slot: slot, started: started)
            let result = run(slot, watchdog: watchdog, stop: { interruption.isRequested })
            results.append(result)
            do {
                try write(result)
            } catch {
                warn("\(ProgramName.current) stress: \(error)")
                exit(ExitStatus.writeFailed)
            }
            warn("    \(plural(result.iterations, "iteration")): " + result.counts.sorted
                .map { "\($0.outcome.id) \($0.count)" + ($0.outcome.grade == .acceptable ? "" : " (\($0.outcome.grade.rawValue))") }
                .joined(separator: ", "))
        }
        return results
    }

    /// Iterations of one slot until its share of the time is up (a control: until caught, or its budget).
    private func run(_ slot: StressSlot, watchdog: StressWatchdog, stop: () -> Bool) -> StressResult {
        let start = MonotonicClock.now()
        let seconds = slot.check.isControl ? Bench.Stress.controlBudget : slotSeconds
        let end = start + UInt64(seconds * 1e9)
        var result = StressResult(slot: slot)
        inProgress.withLock { $0 = result }
        watchdog.starting("\(slot.check.name) threads:\(slot.threads)")
        repeat {
            let observed = slot.check.iteration(slot.threads)
            let now = MonotonicClock.now()
            result.iterations += 1
            result.counts.add(observed)
            result.seconds = Double(now - start) / 1e9
            if slot.check.isControl && result.secondsToFirstForbidden == nil && observed.forbidden > 0 {
                result.secondsToFirstForbidden = result.seconds
            }
            inProgress.withLock { $0 = result }
            watchdog.progress()
            if slot.check.isControl && result.secondsToFirstForbidden != nil { break }
        } while MonotonicClock.now() < end && !stop()
        inProgress.withLock { $0 = nil }
        return result
    }

    private func write(_ result: StressResult) throws {
        let rows = result.rows().map { StressSchema.fields($0, environment: environment) }
        guard !rows.isEmpty else { return }
        try writer.append(rows: rows, header: StressSchema.header)
    }

    /// Announces a slot on stderr, with the time left for the variants' slots after it.
    private func progressLine(index: Int, slot: StressSlot, started: UInt64) {
        let variantSlotsLeft = slots[index...].filter { !$0.check.isControl }.count
        let left = Double(variantSlotsLeft) * slotSeconds
        warn("[\(index + 1)/\(slots.count)] \(slot.check.name) threads:\(slot.threads)"
             + (slot.check.isControl ? " (control, until caught)" : "")
             + "  ~\(Progress.duration(left)) left")
    }
}
