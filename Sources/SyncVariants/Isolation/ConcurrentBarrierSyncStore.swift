import Dispatch

/// `concurrent-barrier-sync`: reads are `sync` blocks on a concurrent queue (several may run at once); writes
/// are `sync(flags: .barrier)` blocks, so the writer waits until its write has run alone on the queue.
///
/// Thread-safe; `entries` is read only inside blocks of `queue` and written only inside its barrier blocks.
/// A write has been applied when `write` returns.
@usableFromInline
package final class ConcurrentBarrierSyncStore: QueueStore, @unchecked Sendable {
    private let queue = DispatchQueue(label: "dispatchbench.isolation.concurrent-barrier-sync", attributes: .concurrent)
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
        guard let probe else { return queue.sync(flags: .barrier) { entries[model.id] = model } }
        queue.sync(flags: .barrier) { probe.observing(.write) { entries[model.id] = model } }
    }
}
