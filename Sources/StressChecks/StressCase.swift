import BenchCore
import Dispatch
import Foundation

/// One stress check bound to one variant (or to a negative control): `iteration(threads)` runs the check once
/// on real threads and returns the outcomes it observed. Thread-safe to call again and again; each iteration
/// builds its own state.
package struct StressCase: Sendable, CustomStringConvertible {
    /// `family/variant/check`, as in the CSV `check` column; controls start with `control/`.
    package let name: String
    /// A deliberately broken variant: the check must observe a forbidden outcome on it, else it lost its teeth.
    package let isControl: Bool
    /// The thread count a control runs at (controls are not swept: at one thread most of them cannot be caught).
    package let controlThreads: Int
    package let iteration: @Sendable (_ threads: Int) -> OutcomeCounts
    /// Where the checked variant comes from: `built-in`, or the module that brought it (the CSV `variant_origin`).
    package var origin = BenchmarkCase.builtInOrigin

    package init(_ name: String, control: Bool = false, controlThreads: Int = 4,
                 _ iteration: @escaping @Sendable (_ threads: Int) -> OutcomeCounts) {
        self.name = (control ? "control/" : "") + name
        self.isControl = control
        self.controlThreads = controlThreads
        self.iteration = iteration
    }

    package var description: String { name }
}

/// The stress checks: the checks a variant's registration builds for it (`lockStoreCases`, `onceCase`, …), the
/// checks of seed patterns that no family times, and the negative controls.
package enum StressCatalog {
    /// The checks of the seed patterns that no family times (a cancellable batch of work items, an asynchronous
    /// `Operation`): they run beside every variant's checks.
    package static let patterns: [StressCase] = waitingPatternCases

    /// The negative controls, each a broken variant through the same check a real variant passes.
    package static let controls: [StressCase] = onceControls + isolationControls + waitingControls

    /// A control that deadlocks for certain (two threads take two serial queues in opposite orders), to prove
    /// that the watchdog reports a hung check and ends the run. Never in `controls`: it never returns.
    package static let deadlock = StressCase("deadlock/lock-order-inversion", control: true, controlThreads: 2) { _ in
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
}
