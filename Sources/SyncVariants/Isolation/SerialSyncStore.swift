import Dispatch

/// `serial-sync`: the classic isolation queue. Reads and writes are `sync` blocks on one serial queue, so they
/// run one at a time, in submission order.
///
/// Thread-safe; `entries` is touched only inside blocks of `queue`. A write has been applied when `write`
/// returns, so the writer's next read (and anyone's read ordered after it) sees it.
@usableFromInline
package final class SerialSyncStore: QueueStore, @unchecked Sendable {
    private let queue = DispatchQueue(label: "dispatchbench.isolation.serial-sync")
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
        guard let probe else { return queue.sync { entries[model.id] = model } }
        queue.sync { probe.observing(.write) { entries[model.id] = model } }
    }
}
