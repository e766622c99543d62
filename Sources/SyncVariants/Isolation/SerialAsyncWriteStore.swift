import Dispatch

/// `serial-async-write`: a serial queue with `sync` reads and `async` writes. The writer does not wait for its
/// write; the queue applies writes in order.
///
/// Thread-safe; `entries` is touched only inside blocks of `queue`. `write` returns before the write is applied
/// (see `AsynchronousWriteStore`): a read issued afterwards still sees it, because it queues behind it, but pays
/// for every write queued ahead. Writers that enqueue faster than the queue applies grow the queue without bound
/// until they stop: there is no back-pressure.
@usableFromInline
package final class SerialAsyncWriteStore: QueueStore, AsynchronousWriteStore, @unchecked Sendable {
    private let queue = DispatchQueue(label: "dispatchbench.isolation.serial-async-write")
    private var entries: [String: IdentityModel]
    private let probe: (any QueueBlockProbe)?

    @usableFromInline
    package static let readsConcurrently = false

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
        guard let probe else { return queue.async { self.entries[model.id] = model } }
        queue.async { probe.observing(.write) { self.entries[model.id] = model } }
    }

    @usableFromInline
    package func drainWrites() {
        queue.sync {}
    }
}
