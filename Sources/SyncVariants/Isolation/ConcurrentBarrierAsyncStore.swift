import Dispatch

/// `concurrent-barrier-async`: the seeds' pattern (PhotoManager, IdentityMap). Reads are `sync` blocks on a
/// concurrent queue, so several may run at once; writes are `async(flags: .barrier)` blocks, which wait for the
/// reads before them, run alone, and hold back every block submitted after them.
///
/// Thread-safe; `entries` is read only inside blocks of `queue` and written only inside its barrier blocks.
/// `write` returns before the write is applied (see `AsynchronousWriteStore`): a read issued afterwards still
/// sees it, because it queues behind the barrier, but pays for every barrier queued ahead. Writers that enqueue
/// faster than the queue applies grow the queue without bound until they stop.
@usableFromInline
package final class ConcurrentBarrierAsyncStore: QueueStore, AsynchronousWriteStore, @unchecked Sendable {
    private let queue = DispatchQueue(label: "dispatchbench.isolation.concurrent-barrier-async", attributes: .concurrent)
    private var entries: [String: IdentityModel]
    private let probe: (any QueueBlockProbe)?

    @usableFromInline
    package static let readsConcurrently = true

    /// A store holding `models`. `probe` is for tests only; see `QueueBlockProbe`.
    @usableFromInline
    package init(preloading models: [IdentityModel] = [], probe: (any QueueBlockProbe)? = nil) {
        entries = Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        self.probe = probe
    }

    @usableFromInline
    package func read(_ id: String) -> IdentityModel? {
        guard let probe else { return queue.sync { entries[id] } }
        return queue.sync { probe.observing(.read) { entries[id] } }
    }

    @usableFromInline
    package func write(_ model: IdentityModel) {
        guard let probe else { return queue.async(flags: .barrier) { self.entries[model.id] = model } }
        queue.async(flags: .barrier) { probe.observing(.write) { self.entries[model.id] = model } }
    }

    @usableFromInline
    package func drainWrites() {
        queue.sync(flags: .barrier) {}
    }
}
