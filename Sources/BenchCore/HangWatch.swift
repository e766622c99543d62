import Dispatch
import Foundation
import Synchronization

/// Runs one case's measurement on a coordinator thread of its own while the calling thread watches the case's
/// `CasePulse`, so that a case whose threads stop for good (a lost wake-up, a deadlock) is abandoned instead of
/// stopping the run with it, as `bench stress`'s watchdog abandons a stuck check.
///
/// A case is hung when its pulse reads the same for `timeout`: none of its threads published an operation and the
/// coordinator completed no step (`StallRule`). One that advances is never cut short, however slowly it goes. The
/// watcher looks four times per `timeout`, and each look reads procfs once, so that it costs the case nothing
/// measurable; a hung case is therefore called hung between `timeout` and about `timeout` × 1.25 after its last
/// progress.
///
/// A hung case's threads (and its coordinator) are left behind, blocked or spinning as they were: nothing can end
/// a thread from outside. The caller decides what to do about them (`bench` goes on in a fresh process).
package enum HangWatch {
    /// How a watched measurement ended.
    package enum Outcome<Value: Sendable>: Sendable {
        /// It returned `Value`.
        case finished(Value)
        /// Its pulse read the same for the timeout: abandoned.
        case hung(Hang)
        /// `stop` asked the watcher to stop waiting (Ctrl-C): abandoned, neither finished nor hung.
        case stopped
    }

    /// The coordinator's stack: what a process's main thread, which used to coordinate every case, usually has.
    static let coordinatorStackBytes = 8 << 20

    /// Runs `body` on a new thread and waits for it, looking at `pulse` every quarter of `timeout`: the value it
    /// returned, or `hung` once the pulse read the same for `timeout` nanoseconds, or `stopped` at the first look
    /// after `stop` returns true.
    package static func run<Value: Sendable>(watching pulse: CasePulse, timeout: UInt64,
                                             stop: () -> Bool = { false },
                                             _ body: @escaping @Sendable () -> Value) -> Outcome<Value> {
        precondition(timeout > 0, "a hang timeout is positive")
        let result = Mutex<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
        let coordinator = Thread {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        coordinator.name = "bench-coordinator"
        coordinator.stackSize = coordinatorStackBytes
        var rule = StallRule<CasePulse.Look>(timeout: timeout)
        let first = pulse.look()
        _ = rule.look(first.reading, at: first.time, mark: first)
        coordinator.start()
        let interval = Int(clamping: max(timeout / 4, 1))
        while done.wait(timeout: .now() + .nanoseconds(interval)) == .timedOut {
            if stop() { return .stopped }
            let look = pulse.look()
            if let stalled = rule.look(look.reading, at: look.time, mark: look) {
                return .hung(Hang(stage: pulse.stage, workload: pulse.workload, from: stalled.mark, to: look))
            }
        }
        return .finished(result.withLock { $0.take()! })
    }
}

/// The rule that calls a case hung, kept apart from clocks and threads so that it can be tested exactly: the
/// pulse read the same at every look from one look to another `timeout` or more later. Readings only grow while a
/// case advances (`CasePulse.Reading`), so equal readings mean that nothing advanced between them; a reading that
/// changed, by however little, starts the count again.
package struct StallRule<Mark> {
    /// How long the pulse must read the same, in nanoseconds.
    package let timeout: UInt64
    /// The first look of the current run of equal readings: when the pulse last moved, as far as the looks saw.
    private var since: (reading: CasePulse.Reading, time: UInt64, mark: Mark)?

    package init(timeout: UInt64) {
        self.timeout = timeout
    }

    /// Takes a look at `time` (a `MonotonicClock` reading, not before the last look's) that read `reading`;
    /// `mark` is kept with the look. Returns the time and mark of the look the stall began at when the pulse has
    /// read the same from then to now, and now is `timeout` or more later; nil while the case advances or the
    /// stall is shorter.
    package mutating func look(_ reading: CasePulse.Reading, at time: UInt64,
                               mark: Mark) -> (time: UInt64, mark: Mark)? {
        if let since, since.reading == reading {
            return time - since.time >= timeout ? (since.time, since.mark) : nil
        }
        since = (reading, time, mark)
        return nil
    }
}

/// A case the watchdog abandoned: where it was, and what the process and its threads did while it was watched
/// making no progress.
package struct Hang: Sendable {
    /// What the coordinator was doing when the case stopped advancing.
    package let stage: CasePulse.Stage
    /// How long the case was watched making no progress: at least the timeout.
    package let nanoseconds: UInt64
    /// The case's workload, when its setup returned and its team started; nil when it hung before.
    let workload: Workload?
    /// The watched span as a sample that completed no operation: its length, the process's CPU time and
    /// context switches in it, where the case's threads' time went (`Sample.schedule`), per thread, and what was
    /// stolen from their CPUs (`Sample.stolen`).
    let span: RawSample

    init(stage: CasePulse.Stage, workload: Workload?, from start: CasePulse.Look, to end: CasePulse.Look) {
        self.stage = stage
        self.workload = workload
        nanoseconds = end.time - start.time
        span = RawSample(elapsedNanoseconds: nanoseconds, threadOperations: [],
                         usage: end.usage.since(start.usage), latency: nil,
                         osThreads: (start.osThreads, end.osThreads),
                         schedules: TeamScheduleReader.difference(start.schedules, end.schedules),
                         steal: TeamStealReader.difference(start.steal, end.steal))
    }

    /// CPU time the whole process used while the case was watched making no progress, as a share of that span's
    /// wall time: about 0 when the case's threads were blocked (a lost wake-up, a deadlock), about the number of
    /// spinning threads when they kept running without completing anything (a livelock).
    package var cpuShare: Double {
        guard nanoseconds > 0 else { return 0 }
        return Double(span.usage.userNanoseconds + span.usage.systemNanoseconds) / Double(nanoseconds)
    }

    /// The rows a results file holds for the case: one per role (one for a case without roles), each marked
    /// `hung`, each the watched span with no operation completed (so `ns_per_op` is infinite, never a timing).
    package func results(for benchmarkCase: BenchmarkCase) -> [CaseResult] {
        var span = self.span
        span.threadOperations = Array(repeating: 0, count: benchmarkCase.threads)
        if span.schedules?.count != benchmarkCase.threads { span.schedules = nil }
        if span.steal?.processors.count != benchmarkCase.threads { span.steal = nil }
        let workload = self.workload ?? Workload { _, _ in }
        return CaseRunner(settings: .standard).results(for: benchmarkCase, workload: workload, samples: [span]).map {
            var result = $0
            result.hung = true
            return result
        }
    }
}
