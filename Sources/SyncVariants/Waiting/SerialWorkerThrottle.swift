import Dispatch

/// One asynchronous piece of work at a time (`throttle/serial-worker`, `limit=1`): seed 003's
/// `AsyncSerialWorker`. Work is queued on a serial queue; each block hands the work a `done` callback and waits on
/// a semaphore until the work calls it, so the next piece starts only when the previous one has really finished,
/// even though the work itself completes elsewhere.
///
/// Its point is work that is asynchronous (a request with a completion handler), so `run` treats every task
/// that way: the work hops to a concurrent executor queue and calls `done` from there, as in the seed's
/// playground. Each task therefore costs two submissions and a semaphore handoff, and the serial queue's thread is
/// blocked while a task runs. Thread-safe; every caller's work joins the one serial line.
@usableFromInline
package final class SerialWorkerThrottle: TaskWaiter {
    /// Always 1: the serial queue runs one piece of work at a time.
    @usableFromInline
    package let limit = 1
    private let serialQueue = DispatchQueue(label: "dispatchbench.wait.serial-worker")
    private let executor = DispatchQueue(label: "dispatchbench.wait.serial-worker.executor", attributes: .concurrent)

    @usableFromInline
    package init() {}

    /// Queues `work`, which must call the `done` it is given exactly once, from any thread, when it has finished.
    @usableFromInline
    package func enqueueWork(_ work: @escaping @Sendable (_ done: @escaping @Sendable () -> Void) -> Void) {
        serialQueue.async {
            let finished = DispatchSemaphore(value: 0)
            work { finished.signal() }
            finished.wait()
        }
    }

    /// Blocks until all work queued before this call has called its `done`.
    @usableFromInline
    package func waitUntilIdle() {
        // Each serial block returns only after its work's `done`, so an empty block behind them runs after all.
        serialQueue.sync {}
    }

    @usableFromInline
    package func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let executor = self.executor
        for index in 0..<tasks {
            enqueueWork { done in
                executor.async {
                    task(index)
                    done()
                }
            }
        }
        waitUntilIdle()
    }
}
