import Dispatch
import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked: `concurrent-barrier-async` with the barrier flag forgotten, so writes
/// run beside reads and beside each other. The barrier-exclusivity check must catch it.
///
/// The map itself sits behind a mutex only so that the overlapping blocks do not corrupt memory and crash the
/// test process; the probe sees the blocks overlap all the same, which is what the check reports.
package final class BarrierlessStore: AsynchronousWriteStore {
    private let queue = DispatchQueue(label: "dispatchbench.tests.barrierless", attributes: .concurrent)
    private let entries: Mutex<[String: IdentityModel]>
    private let probe: any QueueBlockProbe

    package init(preloading models: [IdentityModel], probe: any QueueBlockProbe) {
        entries = Mutex(Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
        self.probe = probe
    }

    package func read(_ id: String) -> IdentityModel? {
        queue.sync { probe.observing(.read) { entries.withLock { $0[id] } } }
    }

    package func write(_ model: IdentityModel) {
        queue.async { self.probe.observing(.write) { self.entries.withLock { $0[model.id] = model } } }
    }

    package func drainWrites() {
        queue.sync(flags: .barrier) {}
    }
}
