/// What a benchmark case's setup returns: the operation to time, and how to time it.
///
/// Setup (building stores, registering tokens, creating queues) happens before the `Workload` exists, outside
/// the timed region. The harness then calls `body` on every worker thread with an iteration count; `body` runs
/// that many operations in a loop it owns, so the loop costs nothing beyond the operation and the harness adds
/// no call per operation. Results must be handed to `blackHole` so the optimizer cannot delete them.
@usableFromInline package struct Workload: Sendable {
    /// How the harness decides when a sample ends.
    @usableFromInline package enum Pacing: Sendable {
        /// Every thread runs batches in a synchronized measurement window (`Session.timed`): the window opens
        /// once every thread runs and closes after the sample time (or several scheduler rotations, when more
        /// threads than cores make those longer); only the operations inside it count. A batch is about a
        /// microsecond of one thread's work, so reading the stop flag after each costs nothing measurable.
        ///
        /// Fixed duration keeps all threads contending for the whole sample: with fixed work per thread, a thread
        /// that an unfair lock favours finishes early and the rest of the sample runs uncontended, which flatters
        /// the lock. Threads then complete different numbers of operations, which is recorded per thread so that
        /// unfairness shows.
        case timed
        /// Every thread runs the same number of iterations and the sample ends when the last one finishes.
        /// For operations in which threads wait for each other each iteration (a race round, a handoff), where a
        /// thread that stopped early would leave the others waiting for ever.
        case lockstep
    }

    /// Runs `iterations` operations on the calling worker thread.
    package var body: @Sendable (_ worker: WorkerContext, _ iterations: Int) -> Void
    package var pacing: Pacing
    /// How many reported operations one iteration performs: a fan-out iteration of 256 tasks reports 256, so
    /// that `ns_per_op` is nanoseconds per task.
    package var operationsPerIteration: Int
    /// Runs on the coordinator after every worker has stopped and before the clock stops: for work the
    /// iterations started but did not wait for (asynchronous writes), so that it cannot look free.
    package var drain: (@Sendable () -> Void)?
    /// Splits the threads into roles reported on separate rows (`role=read`, `role=write`), or nil for one row.
    package var role: (@Sendable (_ threadIndex: Int) -> String)?
    /// Which threads' operations are reported, or nil for all. A thread left out still runs, but only serves
    /// the others: in a ping-pong, the responder completes the same round trips as the initiator, and counting
    /// both would halve the cost of a round trip.
    package var reportsThread: (@Sendable (_ threadIndex: Int) -> Bool)?
    /// Runs on the coordinator before every timed run (calibration runs included), outside the timed region,
    /// with the iterations each thread will be asked for (per batch, for timed pacing): for state that each run
    /// must find fresh, such as tokens that no call has registered yet.
    package var prepare: (@Sendable (_ iterationsPerThread: Int) -> Void)?
    /// Runs once after the last sample, outside the timed region.
    package var teardown: (@Sendable () -> Void)?
    /// True when the operation's work runs on threads the harness does not own (GCD's pool, Swift's
    /// cooperative pool): `bench count` leaves such cases out, because it counts on the calling thread only.
    package var offloadsWork: Bool

    @usableFromInline package init(
        pacing: Pacing = .timed,
        operationsPerIteration: Int = 1,
        role: (@Sendable (_ threadIndex: Int) -> String)? = nil,
        reportsThread: (@Sendable (_ threadIndex: Int) -> Bool)? = nil,
        drain: (@Sendable () -> Void)? = nil,
        prepare: (@Sendable (_ iterationsPerThread: Int) -> Void)? = nil,
        teardown: (@Sendable () -> Void)? = nil,
        offloadsWork: Bool = false,
        body: @escaping @Sendable (_ worker: WorkerContext, _ iterations: Int) -> Void
    ) {
        precondition(operationsPerIteration >= 1, "an iteration performs at least one operation")
        self.body = body
        self.pacing = pacing
        self.operationsPerIteration = operationsPerIteration
        self.drain = drain
        self.role = role
        self.reportsThread = reportsThread
        self.prepare = prepare
        self.teardown = teardown
        self.offloadsWork = offloadsWork
    }
}
