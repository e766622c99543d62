import Dispatch
import Foundation
import Synchronization

/// A task executor with threads of its own: jobs enqueued on it run on its `width` threads and never on Swift's
/// cooperative pool, so a task that prefers it (`Task.detached(executorPreference:)`) makes progress however
/// busy that pool is. A default actor called from such a task runs its methods here too (SE-0417), still one at
/// a time: the actor, not the executor, isolates its state.
///
/// Thread-safe. Its threads live as long as the process; share one executor (`shared`) rather than make many.
package final class DedicatedTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// Two threads, so that an actor's jobs can land on either, as they do on a two-core cooperative pool.
    package static let shared = DedicatedTaskExecutor(width: 2, name: "dispatchbench.stress.actor-executor")

    private let jobs = Mutex<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)

    package init(width: Int, name: String) {
        for index in 0..<width {
            let thread = Thread { [self] in runJobs() }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        available.signal()
    }

    private func runJobs() -> Never {
        while true {
            available.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
