import BenchPlatform
import Foundation

/// A fixed team of real OS threads that run one job at a time, all released together.
///
/// Benchmarks must not use `DispatchQueue.concurrentPerform` or the global queues to fan out: both cap the
/// number of threads at the core count, so a "threads:8" case would silently run on 2 threads on a 2-core
/// machine. The team creates exactly `count` `Thread`s up front (outside any timed region) and keeps them for
/// all the samples of a case. Every thread waits at a start barrier until the coordinator arrives, so no thread
/// starts its work before the others exist and are ready.
///
/// With `cpus`, thread *i* runs on CPU `cpus[i % cpus.count]` alone from before its first job: where a team's
/// threads run is then the same in every process, not the scheduler's choice at the team's start
/// (docs/paired-design.md#placement). Threads the team's threads start (the dispatch pool's, when a
/// job is the first to need one) inherit their CPU.
///
/// `bench-commits` chooses the list (scripts/bench_commits/paired_plan.py `team_cpus`) and confines a one-thread
/// case's whole worker process from outside (scripts/bench_commits/worker.py `confine`); this team applies the list.
///
/// Not thread-safe: one coordinator thread calls `start`, `join` and `shutdown`, in that order per job.
package final class ThreadTeam: @unchecked Sendable {
    /// The number of worker threads.
    package let count: Int
    /// Why a thread could not be confined to its CPU of `cpus` (the first that could not), or nil.
    package private(set) var pinFailure: String?
    /// Each thread's kernel id and CPU-time clock, in thread order (nil where the platform has none), so that the
    /// coordinator can read where a thread's time went (`ThreadScheduleReader`).
    package private(set) var identities: [ThreadIdentity?]

    private let startBarrier: ThreadBarrier
    private let endBarrier: ThreadBarrier
    /// Why each thread could not be confined to its CPU (nil: done, or no CPUs given); written by thread i
    /// before `init` returns, read by `init`.
    private let pinErrors: UnsafeMutableBufferPointer<SystemError?>
    /// Each thread's identity, written by thread i before `init` returns, read by `init`.
    private let threadIdentities: UnsafeMutableBufferPointer<ThreadIdentity?>
    // Written by the coordinator before the start barrier, read by workers after it: the barrier orders them.
    private var job: (@Sendable (Int) -> Void)?
    private var isShuttingDown = false
    private let exited = DispatchGroup()

    /// Starts `count` worker threads, which wait for the first job. `count` must be at least 1, and `cpus`, when
    /// given, not empty. Returns once each thread is on its CPU of `cpus` (or `pinFailure` says why one is not).
    package init(count: Int, name: String = "bench-worker", cpus: [Int]? = nil) {
        precondition(count >= 1, "a thread team needs at least one thread")
        precondition(cpus.map { !$0.isEmpty } ?? true, "a thread team's CPUs, when given, are at least one")
        self.count = count
        // Workers plus the coordinator meet at each barrier.
        startBarrier = ThreadBarrier(parties: count + 1)
        endBarrier = ThreadBarrier(parties: count + 1)
        pinErrors = .allocate(capacity: count)
        pinErrors.initialize(repeating: nil)
        threadIdentities = .allocate(capacity: count)
        threadIdentities.initialize(repeating: nil)
        identities = []
        // Each thread tries its CPU first and says so; init returns when all have.
        let begun = DispatchGroup()
        for index in 0..<count {
            exited.enter()
            begun.enter()
            let cpu = cpus.map { $0[index % $0.count] }
            let thread = Thread { [self] in
                if let cpu { pinErrors[index] = Platform.pinCurrentThread(toCPU: cpu) }
                threadIdentities[index] = Platform.currentThreadIdentity()
                begun.leave()
                workerLoop(index: index)
            }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
        begun.wait()
        identities = Array(threadIdentities)
        if let cpus, let index = pinErrors.firstIndex(where: { $0 != nil }), let error = pinErrors[index] {
            pinFailure = "thread \(index) cannot run on CPU \(cpus[index % cpus.count]) alone: \(error)"
        }
    }

    deinit {
        pinErrors.deallocate()
        threadIdentities.deallocate()
    }

    /// Releases every worker into `job(threadIndex)` at once. Returns as soon as they are released.
    package func start(_ job: @escaping @Sendable (Int) -> Void) {
        self.job = job
        startBarrier.wait()
    }

    /// Waits until every worker has returned from the current job.
    package func join() {
        endBarrier.wait()
    }

    /// Runs `job` on every worker and waits for all of them.
    package func run(_ job: @escaping @Sendable (Int) -> Void) {
        start(job)
        join()
    }

    /// Ends the worker threads and waits until they have exited. The team cannot be used afterwards.
    package func shutdown() {
        isShuttingDown = true
        job = nil
        startBarrier.wait()
        exited.wait()
    }

    private func workerLoop(index: Int) {
        defer { exited.leave() }
        while true {
            startBarrier.wait()
            if isShuttingDown { return }
            job?(index)
            endBarrier.wait()
        }
    }
}
