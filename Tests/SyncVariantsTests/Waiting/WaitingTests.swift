import Dispatch
import Foundation
import StressChecks
import SyncVariants
import Synchronization
import Testing
import VariantCatalog

/// The waiting family's checks, one after another: they spawn threads and load GCD's small pool, and a check
/// running beside another would change the width the other's variants get.
@Suite(.serialized) struct WaitingTests {}

/// Every task count of the fan-out benchmark, and rounds per count (fewer for the big batches).
private let taskCounts: [(tasks: Int, rounds: Int)] = [(1, 200), (16, 100), (256, 20), (4096, 3)]

/// The limits a throttle is checked at for exactly-once, in order of preference: 2 where the variant takes any
/// limit (so that tasks overlap), else the one its design fixes.
private let exactlyOnceLimits = [2, 1, 4, 8]

/// The limits of `wait/throttle`.
private let throttleLimits = [1, 2, 4, 8]

extension WaitingTests {
    @Suite struct FanOutTests {
        @Test(arguments: FanOutVariant.allCases)
        func everyTaskRunsExactlyOnceBeforeTheWaitReturns(_ variant: FanOutVariant) async {
            await expectEveryTaskRunsExactlyOnce(variant.makeWaiter(), "\(variant)")
        }

        @Test(arguments: ThrottleVariant.allCases)
        func everyTaskRunsExactlyOnceBeforeTheThrottleReturns(_ variant: ThrottleVariant) async throws {
            let limit = try #require(exactlyOnceLimits.first(where: variant.supports), "\(variant) takes no limit we try")
            await expectEveryTaskRunsExactlyOnce(try #require(variant.makeThrottle(limit: limit)), "\(variant) limit=\(limit)")
        }

        private func expectEveryTaskRunsExactlyOnce(_ waiter: any TaskWaiter, _ name: String) async {
            for (tasks, rounds) in taskCounts {
                let violations = await onPlainThread { exactlyOnceViolations(waiter, tasks: tasks, rounds: rounds) }
                #expect(violations.isEmpty, "\(name) tasks=\(tasks): \(violations)")
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
        /// At every limit of `wait/throttle` the variant takes.
        @Test(arguments: ThrottleVariant.allCases)
        func throttlesNeverExceedTheirLimit(_ variant: ThrottleVariant) async throws {
            let limits = throttleLimits.filter(variant.supports)
            try #require(!limits.isEmpty, "\(variant) takes none of the limits \(throttleLimits)")
            for limit in limits {
                let throttle = try #require(variant.makeThrottle(limit: limit))
                let violations = await onPlainThread { throttleViolations(throttle, limit: limit) }
                #expect(violations.isEmpty, "\(variant) limit=\(limit): \(violations)")
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
        @Test(arguments: HandoffVariant.allCases)
        func noWakeUpIsLostAcrossAHundredThousandHandoffs(_ variant: HandoffVariant) async {
            let handoff = variant.makeHandoff()
            let report = await onPlainThread { handoffReport(handoff, roundTrips: 100_000) }
            #expect(!report.stalled, "\(variant) stalled after \(report.completedRoundTrips) round trips")
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
        /// Every fan-out variant whose wait can give up (a `TimedTaskWaiter`).
        static let timed = FanOutVariant.allCases.filter { $0.makeWaiter() is any TimedTaskWaiter }

        @Test(arguments: timed)
        func timedWaitsReportTimedOutAndSuccess(_ variant: FanOutVariant) async throws {
            let waiter = try #require(variant.makeWaiter() as? any TimedTaskWaiter)
            let violations = await onPlainThread { timeoutViolations(waiter) }
            #expect(violations.isEmpty, "\(variant): \(violations)")
        }

        @Test func theSeedsTimedWaitsAreAmongThoseChecked() {
            #expect(Set(Self.timed).isSuperset(of: [.semaphore, .groupWait]))
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
