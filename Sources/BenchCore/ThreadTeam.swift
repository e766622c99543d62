import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fixed team of real OS threads that run one job at a time, all released together.
///
/// Benchmarks must not use `DispatchQueue.concurrentPerform` or the global queues to fan out: both cap the
/// number of threads at the core count, so a "threads:8" case would silently run on 2 threads on a 2-core
/// machine. The team creates exactly `count` `Thread`s up front (outside any timed region) and keeps them for
/// all the samples of a case. Every thread waits at a start barrier until the coordinator arrives, so no thread
/// starts its work before the others exist and are ready.
///
/// Not thread-safe: one coordinator thread calls `start`, `join` and `shutdown`, in that order per job.
public final class ThreadTeam: @unchecked Sendable {
    /// The number of worker threads.
    public let count: Int

    private let startBarrier: UnsafeMutablePointer<pthread_barrier_t>
    private let endBarrier: UnsafeMutablePointer<pthread_barrier_t>
    // Written by the coordinator before the start barrier, read by workers after it: the barrier orders them.
    private var job: (@Sendable (Int) -> Void)?
    private var isShuttingDown = false
    private let exited = DispatchGroup()

    /// Starts `count` worker threads, which wait for the first job. `count` must be at least 1.
    public init(count: Int, name: String = "bench-worker") {
        precondition(count >= 1, "a thread team needs at least one thread")
        self.count = count
        startBarrier = .allocate(capacity: 1)
        endBarrier = .allocate(capacity: 1)
        // Workers plus the coordinator meet at each barrier.
        pthread_barrier_init(startBarrier, nil, UInt32(count + 1))
        pthread_barrier_init(endBarrier, nil, UInt32(count + 1))
        for index in 0..<count {
            exited.enter()
            let thread = Thread { [self] in self.workerLoop(index: index) }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    deinit {
        pthread_barrier_destroy(startBarrier)
        pthread_barrier_destroy(endBarrier)
        startBarrier.deallocate()
        endBarrier.deallocate()
    }

    /// Releases every worker into `job(threadIndex)` at once. Returns as soon as they are released.
    public func start(_ job: @escaping @Sendable (Int) -> Void) {
        self.job = job
        pthread_barrier_wait(startBarrier)
    }

    /// Waits until every worker has returned from the current job.
    public func join() {
        pthread_barrier_wait(endBarrier)
    }

    /// Runs `job` on every worker and waits for all of them.
    public func run(_ job: @escaping @Sendable (Int) -> Void) {
        start(job)
        join()
    }

    /// Ends the worker threads and waits until they have exited. The team cannot be used afterwards.
    public func shutdown() {
        isShuttingDown = true
        job = nil
        pthread_barrier_wait(startBarrier)
        exited.wait()
    }

    private func workerLoop(index: Int) {
        defer { exited.leave() }
        while true {
            pthread_barrier_wait(startBarrier)
            if isShuttingDown { return }
            job?(index)
            pthread_barrier_wait(endBarrier)
        }
    }
}
