import BenchCore
import Dispatch
import Foundation
import StressChecks
import SyncVariants
import Testing
import VariantCatalog
import VariantRegistration

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

        /// Caught in its first round at every task count: the control holds its last task back by construction.
        @Test func negativeControlAWaiterThatReturnsEarlyIsCaught() async {
            for (tasks, _) in taskCounts {
                let violations = await onPlainThread { exactlyOnceViolations(EarlyReturnFanOut(), tasks: tasks, rounds: 1) }
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

        /// Caught in one batch at each limit: the check holds the first tasks in flight until another gets in.
        @Test(arguments: throttleLimits)
        func negativeControlAThrottleThatSignalsEarlyIsCaught(limit: Int) async {
            let violations = await onPlainThread { throttleViolations(SignalEarlyThrottle(limit: limit), limit: limit) }
            #expect(!violations.isEmpty, "a throttle without a limit went unnoticed at limit \(limit)")
        }
    }
}

extension WaitingTests {
    @Suite struct HandoffTests {
        @Test(arguments: HandoffVariant.allCases)
        func noWakeUpIsLostAcrossAHundredThousandHandoffs(_ variant: HandoffVariant) async {
            let handoff = variant.makeHandoff()
            let counts = await onPlainThread { handoffOutcomes(handoff, roundTrips: 100_000) }
            #expect(counts.forbidden == 0, "\(variant): \(counts.sorted)")
            #expect(counts.counts == [.roundTripCompleted: 100_000])
        }

        @Test func negativeControlALostWakeUpIsCaught() async {
            let broken = LostWakeupHandoff()
            let counts = await onPlainThread {
                handoffOutcomes(broken, roundTrips: 100_000, stallSeconds: 1) { broken.rescue() }
            }
            #expect(counts.counts[.signalLost] == 1, "the unlocked check-then-wait went unnoticed: \(counts.sorted)")
        }
    }
}

extension WaitingTests {
    @Suite struct TimeoutTests {
        @Test(arguments: FanOutVariant.timed)
        func timedWaitsReportTimedOutAndSuccess(_ variant: FanOutVariant) async throws {
            let waiter = try #require(variant.makeTimedWaiter())
            let counts = await onPlainThread { timeoutOutcomes(waiter) }
            #expect(counts.counts == [.timedOutWhileHeld: 1, .finishedInTime: 1], "\(variant): \(counts.sorted)")
        }

        @Test func theSeedsTimedWaitsAreAmongThoseChecked() {
            #expect(Set(FanOutVariant.timed).isSuperset(of: [.semaphore, .groupWait]))
        }

        @Test func negativeControlAWaiterThatIgnoresItsTimeoutIsCaught() async {
            let counts = await onPlainThread { timeoutOutcomes(IgnoresTimeoutFanOut()) }
            #expect(counts.counts[.successWhileHeld] == 1, "\(counts.sorted)")
        }
    }
}

extension WaitingTests {
    @Suite struct CancellationTests {
        @Test(arguments: [1, 3])
        func cancelledWorkItemsNeverRunAndTheGroupBalances(callers: Int) async {
            let counts = await onPlainThread {
                cancellationOutcomes(CancellableWorkItemBatch(), callers: callers, rounds: 50)
            }
            #expect(counts.counts == [.cancelledSkipped: callers * 50], "\(counts.sorted)")
        }

        @Test func negativeControlCancellingItemsThatAlreadyStartedIsCaught() async {
            let counts = await onPlainThread { cancellationOutcomes(RacyCancelBatch(), rounds: 1) }
            #expect((counts.counts[.cancelledRan] ?? 0) > 0, "\(counts.sorted)")
        }
    }
}

extension WaitingTests {
    @Suite struct OperationTests {
        @Test func aCorrectAsyncOperationFinishesOnItsQueue() async {
            let counts = await onPlainThread { finishOutcomes(make: AsyncBlockOperation.delayed) }
            #expect(counts.counts == [.operationFinished: 1])
        }

        @Test func aCancelledAsyncOperationFinishesWithoutRunning() async {
            let counts = await onPlainThread { cancelledFinishOutcomes(make: AsyncBlockOperation.delayed) }
            #expect(counts.counts == [.cancelledFinishedUnrun: 1])
        }

        /// The checks that pass `AsyncOperation` fail on seed 004's version: cancelled or not, its operation never
        /// finishes, which the checks' bounded wait reports instead of hanging.
        @Test func negativeControlTheSeedsInvertedGuardNeverFinishes() async {
            let counts = await onPlainThread {
                (finishOutcomes(make: SeedInvertedGuardOperation.delayed, timeoutSeconds: 0.5),
                 cancelledFinishOutcomes(make: SeedInvertedGuardOperation.delayed, timeoutSeconds: 0.5))
            }
            #expect(counts.0.counts == [.operationNeverFinished: 1], "the seed's inverted guard finished")
            #expect(counts.1.counts == [.operationNeverFinished: 1], "the seed's cancelled operation finished")
        }

        @Test func theSeedsInvertedGuardLeavesItsOperationReady() {
            let operation = SeedInvertedGuardOperation { finish in finish() }
            operation.start()
            #expect(operation.state == .isReady)
        }

        @Test func anOperationStartsOnlyAfterBothOfItsDependenciesFinished() async {
            let counts = await onPlainThread { dependencyOutcomes(make: AsyncBlockOperation.delayed, rounds: 5) }
            #expect(counts.counts == [.dependentStartedAfterBoth: 5], "\(counts.sorted)")
        }

        @Test func negativeControlAnOperationThatFinishesBeforeItsWorkIsCaught() async {
            let counts = await onPlainThread { dependencyOutcomes(make: EarlyFinishOperation.delayed, rounds: 1) }
            #expect(counts.counts == [.dependentStartedEarly: 1], "\(counts.sorted)")
        }
    }
}
