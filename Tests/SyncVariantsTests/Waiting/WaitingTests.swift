import Dispatch
import Foundation
import SyncVariants
import Synchronization
import Testing

/// The waiting family's checks, one after another: they spawn threads and load GCD's small pool, and a check
/// running beside another would change the width the other's variants get.
@Suite(.serialized) struct WaitingTests {}

/// Every task count of the fan-out benchmark, and rounds per count (fewer for the big batches).
private let taskCounts: [(tasks: Int, rounds: Int)] = [(1, 200), (16, 100), (256, 20), (4096, 3)]

/// The fan-out and throttle variants, by CSV id, that must run every task exactly once before returning.
private let waiters: [(id: String, waiter: any TaskWaiter)] = [
    ("fan-out/semaphore", SemaphoreFanOut()),
    ("fan-out/group-wait", GroupWaitFanOut()),
    ("fan-out/group-notify", GroupNotifyFanOut()),
    ("fan-out/concurrent-perform", ConcurrentPerformFanOut()),
    ("fan-out/operation-queue", OperationQueueFanOut()),
    ("fan-out/task-group", TaskGroupFanOut()),
    ("throttle/semaphore-limit:2", SemaphoreLimitThrottle(limit: 2)),
    ("throttle/operation-queue-limit:2", OperationQueueLimitThrottle(limit: 2)),
    ("throttle/serial-worker", SerialWorkerThrottle()),
]

extension WaitingTests {
    @Suite struct FanOutTests {
        @Test(arguments: waiters.indices)
        func everyTaskRunsExactlyOnceBeforeTheWaitReturns(_ index: Int) async {
            let (id, waiter) = waiters[index]
            for (tasks, rounds) in taskCounts {
                let violations = await onPlainThread { exactlyOnceViolations(waiter, tasks: tasks, rounds: rounds) }
                #expect(violations.isEmpty, "\(id) tasks=\(tasks): \(violations)")
            }
        }

        @Test func negativeControlAWaiterThatReturnsEarlyIsCaught() async {
            for (tasks, _) in taskCounts {
                let violations = await onPlainThread { exactlyOnceViolations(EarlyReturnFanOut(), tasks: tasks, rounds: 50) }
                #expect(!violations.isEmpty, "tasks=\(tasks): returning before the last task went unnoticed")
            }
        }
    }
}

extension WaitingTests {
    @Suite struct ThrottleTests {
        @Test(arguments: [1, 2, 4, 8])
        func throttlesNeverExceedTheirLimit(_ limit: Int) async {
            var throttles: [(String, any TaskWaiter)] = [
                ("semaphore-limit", SemaphoreLimitThrottle(limit: limit)),
                ("operation-queue-limit", OperationQueueLimitThrottle(limit: limit)),
            ]
            if limit == 1 { throttles.append(("serial-worker", SerialWorkerThrottle())) }
            for (id, throttle) in throttles {
                let violations = await onPlainThread { throttleViolations(throttle, limit: limit) }
                #expect(violations.isEmpty, "\(id) limit=\(limit): \(violations)")
            }
        }

        @Test func negativeControlAThrottleThatSignalsEarlyIsCaught() async {
            let violations = await onPlainThread {
                var violations: [String] = []
                for _ in 0..<50 where violations.isEmpty {
                    violations = throttleViolations(SignalEarlyThrottle(limit: 1), limit: 1)
                }
                return violations
            }
            #expect(!violations.isEmpty, "a throttle without a limit went unnoticed")
        }
    }
}

extension WaitingTests {
    @Suite struct HandoffTests {
        @Test(arguments: ["semaphore", "group", "condition"])
        func noWakeUpIsLostAcrossAHundredThousandHandoffs(_ id: String) async {
            let handoff: any Handoff = switch id {
            case "semaphore": SemaphoreHandoff()
            case "group": GroupHandoff()
            default: ConditionHandoff()
            }
            let report = await onPlainThread { handoffReport(handoff, roundTrips: 100_000) }
            #expect(!report.stalled, "\(id) stalled after \(report.completedRoundTrips) round trips")
            #expect(report.completedRoundTrips == 100_000)
        }

        @Test func negativeControlALostWakeUpIsCaught() async {
            let broken = LostWakeupHandoff()
            let report = await onPlainThread {
                handoffReport(broken, roundTrips: 100_000, stallSeconds: 1) { broken.rescue() }
            }
            #expect(report.stalled, "the unlocked check-then-wait finished \(report.completedRoundTrips) round trips")
        }
    }
}

extension WaitingTests {
    @Suite struct TimeoutTests {
        @Test func semaphoreAndGroupWaitsReportTimedOutAndSuccess() async {
            #expect(await onPlainThread { timeoutViolations(SemaphoreFanOut()) }.isEmpty)
            #expect(await onPlainThread { timeoutViolations(GroupWaitFanOut()) }.isEmpty)
        }

        @Test func negativeControlAWaiterThatIgnoresItsTimeoutIsCaught() async {
            #expect(await !onPlainThread { timeoutViolations(IgnoresTimeoutFanOut()) }.isEmpty)
        }
    }
}

extension WaitingTests {
    @Suite struct CancellationTests {
        @Test func cancelledWorkItemsNeverRunAndTheGroupBalances() async {
            let violations = await onPlainThread { cancellationViolations(CancellableWorkItemBatch()) }
            #expect(violations.isEmpty, "\(violations)")
        }

        @Test func negativeControlCancellingItemsThatAlreadyStartedIsCaught() async {
            #expect(await !onPlainThread { cancellationViolations(RacyCancelBatch()) }.isEmpty)
        }
    }
}

extension WaitingTests {
    @Suite struct OperationTests {
        /// An asynchronous operation whose work runs on a global queue after `delay` seconds.
        private static func asyncOperation(_ delay: Double, _ work: @escaping @Sendable () -> Void) -> Operation {
            AsyncBlockOperation { finish in
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                    work()
                    finish()
                }
            }
        }

        @Test func aCorrectAsyncOperationFinishesOnItsQueue() async {
            let operation = Self.asyncOperation(0.01) {}
            let (finished, queue) = await onPlainThread { finishesOnQueue(operation) }
            #expect(finished)
            withExtendedLifetime(queue) {}
        }

        @Test func aCancelledAsyncOperationFinishesWithoutRunning() async {
            let ran = TaskLedger(tasks: 1)
            let operation = Self.asyncOperation(0) { ran.record(0) }
            operation.cancel()
            let (finished, queue) = await onPlainThread { finishesOnQueue(operation) }
            #expect(finished)
            #expect(ran.runs(of: 0) == 0)
            withExtendedLifetime(queue) {}
        }

        /// The check that passes `AsyncOperation` fails on seed 004's version: its operation never finishes.
        @Test func negativeControlTheSeedsInvertedGuardNeverFinishes() async {
            let operation = SeedInvertedGuardOperation { finish in
                DispatchQueue.global().async { finish() }
            }
            let (finished, queue) = await onPlainThread { finishesOnQueue(operation, timeout: 0.5) }
            #expect(!finished, "the seed's inverted guard finished")
            #expect(operation.state == .isReady)
            Self.stuck.withLock { $0.append(queue) }
        }

        @Test func anOperationStartsOnlyAfterBothOfItsDependenciesFinished() async {
            let violations = await onPlainThread { dependencyViolations(make: Self.asyncOperation) }
            #expect(violations.isEmpty, "\(violations)")
        }

        @Test func negativeControlAnOperationThatFinishesBeforeItsWorkIsCaught() async {
            let violations = await onPlainThread {
                dependencyViolations { delay, work in
                    EarlyFinishOperation { _ in
                        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { work() }
                    }
                }
            }
            #expect(!violations.isEmpty)
        }

        /// Queues that hold an operation that never finishes, kept alive until the process ends.
        private static let stuck = Mutex<[OperationQueue]>([])
    }
}
