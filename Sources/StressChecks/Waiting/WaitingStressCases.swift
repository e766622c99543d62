import SyncVariants

extension Outcome {
    package static let allTasksRanOnce = Outcome("every-task-ran-once-before-wait-returned", .acceptable)
    package static let waitReturnedEarly = Outcome("wait-returned-with-a-task-unfinished", .forbidden)
    package static let taskRanTwice = Outcome("a-task-ran-more-than-once", .forbidden)
    package static let limitHeld = Outcome("in-flight-within-limit", .acceptable)
    package static let limitExceeded = Outcome("in-flight-above-limit", .forbidden)
}

/// The waiting checks as graded outcomes.
package enum WaitingOutcomes {
    /// Sorts the violation lines of `exactlyOnceViolations`/`throttleViolations` ("task 3 ran 0x", "5 tasks in
    /// flight with limit 1", "did not return") into outcomes.
    static func classify(_ violation: String) -> Outcome {
        if violation.contains("in flight") { return .limitExceeded }
        if violation.contains("did not return") { return .timedOut }
        return violation.contains("ran 0x") ? .waitReturnedEarly : .taskRanTwice
    }

    /// `threads` waiters each run one batch of 16 tasks through `waiter` at once: one outcome per waiter.
    package static func fanOut(_ waiter: any TaskWaiter, threads: Int) -> OutcomeCounts {
        var counts = OutcomeCounts()
        let violations = exactlyOnceViolations(waiter, tasks: 16, waiters: threads, rounds: 1)
        for violation in violations { counts.record(classify(violation)) }
        counts.record(.allTasksRanOnce, times: threads - violations.count)
        counts.trials = threads
        return counts
    }

    /// Batches of `throttleTasks` tasks through a throttle of `limit`, the first holding its first tasks
    /// (`throttleViolations`), the rest racing for the slots; one outcome per batch, ending at the first violation.
    package static func throttle(_ waiter: any TaskWaiter, limit: Int, batches: Int = throttleBatches)
        -> OutcomeCounts {
        var counts = OutcomeCounts()
        for batch in 0..<batches {
            let violations = throttleViolations(waiter, limit: limit, holdingFirst: batch == 0)
            counts.trials += throttleTasks
            for violation in violations { counts.record(classify(violation)) }
            guard violations.isEmpty else { break }
            counts.record(.limitHeld)
        }
        return counts
    }

    /// Batches in one iteration of the throttle check: one held, then enough racing ones for the check's minimum.
    static let throttleBatches = 210

    /// The limit a throttle's stress check runs it at for `threads`: the thread count when the throttle takes it,
    /// else the first of 2, 1, 4 and 8 that it takes.
    package static func limit(threads: Int, supports: (Int) -> Bool) -> Int {
        ([threads, 2, 1, 4, 8].first(where: supports)) ?? 1
    }
}

extension StressCatalog {
    /// Round trips per handoff iteration: about 50 ms at the 5 µs a round trip costs on a quiet machine.
    static let handoffRoundTrips = 10_000

    /// The lost-wake-up check's power: measured against `UnlockedSignalHandoff` (docs/stress.md).
    package static let handoffPower = CheckPower(
        trial: "round trip", minimumTrials: 20_000,
        threads: "2 threads hand off; N - 2 more (when N > 2) spin beside them, so that the pair is preempted",
        racyControl: "control/wait/handoff/unlocked-signal/no-lost-wake-up")
    /// The throttle check's power: measured against `CheckThenIncrementThrottle` (docs/stress.md).
    package static let throttlePower = CheckPower(
        trial: "task through the throttle", minimumTrials: 10_000,
        threads: "the throttle's limit (N when the throttle takes it, else the first of 2, 1, 4, 8 it takes)",
        racyControl: "control/wait/throttle/check-then-increment/limit")
    static let fanOutPower = CheckPower(
        trial: "batch of 16 tasks waited for", minimumTrials: 1, threads: "N callers, each waiting for a batch at once")
    static let timeoutPower = CheckPower(
        trial: "timed wait", minimumTrials: 1, threads: "none: one caller whatever N")
    static let cancellationPower = CheckPower(
        trial: "batch of 64 work items, every third cancelled", minimumTrials: 1,
        threads: "N callers, each running batches at once")
    static let operationPower = CheckPower(
        trial: "operation", minimumTrials: 1, threads: "none: one operation queue whatever N")

    static let waitingPatternCases: [StressCase] = [
        StressCase("wait/cancellation/work-item-batch/cancelled-never-run", cancellationPower) { threads in
            cancellationOutcomes(CancellableWorkItemBatch(), callers: threads, rounds: 5)
        },
        StressCase("wait/operation/async-block/finishes-on-queue", operationPower) { _ in
            finishOutcomes(make: AsyncBlockOperation.delayed)
        },
        StressCase("wait/operation/async-block/cancelled-finishes-unrun", operationPower) { _ in
            cancelledFinishOutcomes(make: AsyncBlockOperation.delayed)
        },
        StressCase("wait/operation/async-block/starts-after-dependencies", operationPower) { _ in
            dependencyOutcomes(make: AsyncBlockOperation.delayed, rounds: 1)
        },
    ]

    /// The exactly-once check of a fan-out waiter, under `name/exactly-once`, each iteration on a fresh waiter
    /// from `make`: for the catalog's waiters and for one a package brings.
    package static func fanOutCase(name: String, make: @escaping @Sendable () -> any TaskWaiter) -> StressCase {
        StressCase("\(name)/exactly-once", fanOutPower) { threads in WaitingOutcomes.fanOut(make(), threads: threads) }
    }

    /// The timeout check, under `name/timeout`, when the waiters from `make` can give up (`TimedTaskWaiter`);
    /// nil when they cannot.
    package static func timeoutCase(name: String, make: @escaping @Sendable () -> any TaskWaiter) -> StressCase? {
        guard make() is any TimedTaskWaiter else { return nil }
        return StressCase("\(name)/timeout", timeoutPower) { _ in
            (make() as? any TimedTaskWaiter).map { timeoutOutcomes($0) } ?? OutcomeCounts()
        }
    }

    /// The limit check of a throttle that takes any limit, under `name/limit`, at a limit of the check's thread
    /// count, each iteration on a fresh throttle from `make(limit)`.
    package static func throttleCase(name: String, supports: @escaping @Sendable (_ limit: Int) -> Bool,
                                     make: @escaping @Sendable (_ limit: Int) -> any TaskWaiter) -> StressCase {
        StressCase("\(name)/limit", throttlePower) { threads in
            let limit = WaitingOutcomes.limit(threads: threads, supports: supports)
            return WaitingOutcomes.throttle(make(limit), limit: limit)
        }
    }

    /// The no-lost-wake-up check of a handoff, under `name/no-lost-wake-up`, on a fresh pair from `make`.
    package static func handoffCase(name: String, make: @escaping @Sendable () -> any Handoff) -> StressCase {
        StressCase("\(name)/no-lost-wake-up", handoffPower) { threads in
            handoffOutcomes(make(), roundTrips: handoffRoundTrips, spinners: threads - 2)
        }
    }

    static let waitingControls: [StressCase] = [
        StressCase("wait/fan-out/early-return/exactly-once", fanOutPower, control: .deterministic) { threads in
            WaitingOutcomes.fanOut(EarlyReturnFanOut(), threads: threads)
        },
        StressCase("wait/throttle/signal-early/limit", throttlePower, control: .deterministic, controlThreads: 1) {
            WaitingOutcomes.throttle(SignalEarlyThrottle(limit: $0), limit: $0)
        },
        StressCase("wait/throttle/check-then-increment/limit", throttlePower, control: .racy, controlThreads: 1) {
            WaitingOutcomes.throttle(CheckThenIncrementThrottle(limit: $0), limit: $0)
        },
        StressCase("wait/fan-out/ignores-timeout/timeout", timeoutPower, control: .deterministic,
                   controlThreads: 1) { _ in
            timeoutOutcomes(IgnoresTimeoutFanOut())
        },
        // The stall is reported after one to two seconds, within the control's budget and the watchdog's default.
        StressCase("wait/handoff/lost-wakeup/no-lost-wake-up", handoffPower, control: .deterministic,
                   controlThreads: 2) { _ in
            let broken = LostWakeupHandoff()
            return handoffOutcomes(broken, roundTrips: handoffRoundTrips, stallSeconds: 1) { broken.rescue() }
        },
        // A lost wake-up is reported after one to two seconds, as the deterministic one's is.
        StressCase("wait/handoff/unlocked-signal/no-lost-wake-up", handoffPower, control: .racy,
                   controlThreads: 2) { threads in
            let broken = UnlockedSignalHandoff()
            return handoffOutcomes(broken, roundTrips: handoffRoundTrips, stallSeconds: 1,
                                   spinners: threads - 2) { broken.rescue() }
        },
        StressCase("wait/cancellation/racy-cancel/cancelled-never-run", cancellationPower, control: .deterministic) {
            threads in
            cancellationOutcomes(RacyCancelBatch(), callers: threads, rounds: 5)
        },
        // Never finishes by design: the check's bounded wait reports `operation-never-finished` after 2 s.
        StressCase("wait/operation/seed-inverted-guard/finishes-on-queue", operationPower, control: .deterministic,
                   controlThreads: 1) { _ in
            finishOutcomes(make: SeedInvertedGuardOperation.delayed)
        },
        StressCase("wait/operation/seed-inverted-guard/cancelled-finishes-unrun", operationPower,
                   control: .deterministic, controlThreads: 1) { _ in
            cancelledFinishOutcomes(make: SeedInvertedGuardOperation.delayed)
        },
        StressCase("wait/operation/early-finish/starts-after-dependencies", operationPower, control: .deterministic,
                   controlThreads: 1) { _ in
            dependencyOutcomes(make: EarlyFinishOperation.delayed, rounds: 1)
        },
    ]
}
