import BenchCore
import BenchPlatform
import Dispatch
import Foundation
import Synchronization

/// One stress check bound to one variant (or to a negative control): `iteration(threads)` runs the check once
/// on real threads and returns the outcomes it observed, with the trials it made. Thread-safe to call again and
/// again; each iteration builds its own state.
package struct StressCase: Sendable, CustomStringConvertible {
    /// `family/variant/check`, as in the CSV `check` column; controls start with `control/`.
    package let name: String
    /// A deliberately broken variant's kind, nil for a variant under check: the check must observe a forbidden
    /// outcome on a control, else it lost its teeth.
    package let control: ControlKind?
    /// The thread count a control runs at (controls are not swept: at one thread most of them cannot be caught).
    package let controlThreads: Int
    /// What the check counts as a trial, how many a variant must pass, and what a thread count means to it.
    package let power: CheckPower
    package let iteration: @Sendable (_ threads: Int) -> OutcomeCounts
    /// Where the checked variant comes from: `built-in`, or the module that brought it (the CSV `variant_origin`).
    package var origin = BenchmarkCase.builtInOrigin

    package init(_ name: String, _ power: CheckPower, control: ControlKind? = nil, controlThreads: Int = 4,
                 _ iteration: @escaping @Sendable (_ threads: Int) -> OutcomeCounts) {
        self.name = (control != nil ? "control/" : "") + name
        self.control = control
        self.controlThreads = controlThreads
        self.power = power
        self.iteration = iteration
    }

    package var isControl: Bool { control != nil }

    package var description: String { name }
}

/// How a negative control is broken, which says what catching it proves.
package enum ControlKind: String, Sendable, CaseIterable {
    /// Broken so that its check sees the defect in its first iteration at any speed of the machine: catching it
    /// proves that the check looks at the right thing, not that it has the power to catch a race.
    case deterministic
    /// Broken by a race of the kind people write, seen only when the racing actions meet: catching it within the
    /// check's minimum trials is what proves the check's power against races.
    case racy
}

/// What one check's power rests on: what it counts as a trial (one racing window), how many trials a variant
/// must pass at each thread count before the check counts it as proven, and what a thread count means to it.
package struct CheckPower: Sendable, Equatable {
    /// One trial, in the words `--list-checks` and the report use (`token raced by every thread`).
    package let trial: String
    /// Trials a variant's run must reach at each thread count to count as proven there.
    package let minimumTrials: Int
    /// What `--threads N` means to the check (`N writers, each on keys of its own`).
    package let threads: String
    /// The racy control that measures this minimum, or nil when no racy control exists for the check: its
    /// minimum is then one iteration's trials, proven against deterministic defects only.
    package let racyControl: String?

    package init(trial: String, minimumTrials: Int, threads: String, racyControl: String? = nil) {
        self.trial = trial
        self.minimumTrials = minimumTrials
        self.threads = threads
        self.racyControl = racyControl
    }
}

/// The stress checks: the checks a variant's registration builds for it (`lockStoreCases`, `onceCase`, …), the
/// checks of seed patterns that no family times, and the negative controls.
package enum StressCatalog {
    /// The checks of the seed patterns that no family times (a cancellable batch of work items, an asynchronous
    /// `Operation`): they run beside every variant's checks.
    package static let patterns: [StressCase] = waitingPatternCases

    /// The negative controls, each a broken variant through the same check a real variant passes.
    package static let controls: [StressCase] = onceControls + isolationControls + waitingControls

    /// The power of the control that deadlocks for certain: one iteration, which never returns.
    static let deadlockPower = CheckPower(trial: "iteration", minimumTrials: 1,
                                          threads: "2 threads take two serial queues in opposite orders")

    /// A control that deadlocks for certain (two threads take two serial queues in opposite orders), to prove
    /// that the watchdog abandons a hung check and the run goes on. Never in `controls`: it never returns.
    package static let deadlock = StressCase("deadlock/lock-order-inversion", deadlockPower, control: .deterministic,
                                             controlThreads: 2) { _ in
        let first = DispatchQueue(label: "dispatchbench.stress.deadlock.first")
        let second = DispatchQueue(label: "dispatchbench.stress.deadlock.second")
        let bothInside = DispatchGroup()
        bothInside.enter()
        bothInside.enter()
        let finished = DispatchGroup()
        for (outer, inner) in [(first, second), (second, first)] {
            finished.enter()
            Thread {
                outer.sync {
                    bothInside.leave()
                    bothInside.wait()  // each holds its outer queue now: the inner sync waits for ever
                    inner.sync {}
                }
                finished.leave()
            }.start()
        }
        finished.wait()
        return OutcomeCounts()
    }

    /// The power of the check that is slow for certain.
    static let slowPower = CheckPower(trial: "section", minimumTrials: 1,
                                      threads: "threads take a FIFO ticket lock in turn, each sleeping while it holds it")

    /// A check that is slow for certain and never stuck, of a correct lock: its threads take a FIFO ticket lock 8
    /// times each, and each holds it for `slowSectionSeconds` while it sleeps, so that an iteration runs for
    /// seconds while its threads complete a section every `slowSectionSeconds`, as a ticket lock at 16 threads on
    /// 2 CPUs does when each handoff waits for the one preempted thread whose ticket is next. Proves that the
    /// watchdog reads the threads' progress, not whole iterations: a slow check is reported as slow, never as a
    /// deadlock. Not a control (nothing in it is broken), and in no variant's checks.
    package static let slow = StressCase("watchdog/sleeping-ticket-lock/progress", slowPower) { threads in
        let nextTicket = Atomic<Int>(0)
        let serving = Atomic<Int>(0)
        let sections = 8
        let finished = onThreads(threads, timeout: 600) { _ in
            for _ in 0..<sections {
                let ticket = nextTicket.add(1, ordering: .relaxed).oldValue
                while serving.load(ordering: .acquiring) != ticket { Platform.yieldProcessor() }
                Thread.sleep(forTimeInterval: slowSectionSeconds)
                serving.add(1, ordering: .releasing)
                StressPulse.beat()
            }
        }
        var counts = OutcomeCounts()
        counts.record(finished ? .sectionAlone : .timedOut, times: finished ? threads * sections : 1)
        counts.trials = threads * sections
        return counts
    }

    /// How long the slow control's threads hold its lock each time.
    package static let slowSectionSeconds = 0.25
}
