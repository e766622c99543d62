import Dispatch
import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked: `concurrent-barrier-sync` with the barrier flag forgotten, so writes run
/// beside reads. The barrier-exclusivity check must catch it.
///
/// The map itself sits behind a mutex only so that the overlapping blocks do not corrupt memory and crash the
/// test process; the probe sees the blocks overlap all the same, which is what the check reports.
///
/// Caught in every run, at any speed: the first read block stays inside the queue until a write block has begun,
/// and the first write block until a read block has begun (`ControlRendezvous`), so whichever kind comes first is
/// still inside when the other begins, which a barrier would have made impossible. Both kinds run on the check's
/// own threads (a sync block runs on its caller's thread), so no pool's width decides whether the other comes.
package final class BarrierlessStore: IsolatedStore {
    private let queue = DispatchQueue(label: "dispatchbench.tests.barrierless", attributes: .concurrent)
    private let entries: Mutex<[String: IdentityModel]>
    private let probe: any QueueBlockProbe
    private let readsBegun = Atomic<Int>(0)
    private let writesBegun = Atomic<Int>(0)

    package init(preloading models: [IdentityModel], probe: any QueueBlockProbe) {
        entries = Mutex(Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
        self.probe = probe
    }

    package func read(_ id: String) -> IdentityModel? {
        queue.sync {
            probe.observing(.read) {
                if readsBegun.add(1, ordering: .sequentiallyConsistent).newValue == 1 {
                    ControlRendezvous.wait { writesBegun.load(ordering: .sequentiallyConsistent) > 0 }
                }
                return entries.withLock { $0[id] }
            }
        }
    }

    package func write(_ model: IdentityModel) {
        queue.sync {  // the bug: no `flags: .barrier`
            probe.observing(.write) {
                if writesBegun.add(1, ordering: .sequentiallyConsistent).newValue == 1 {
                    ControlRendezvous.wait { readsBegun.load(ordering: .sequentiallyConsistent) > 0 }
                }
                entries.withLock { $0[model.id] = model }
            }
        }
    }
}
