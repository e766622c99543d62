import Dispatch
import Synchronization
import SyncVariants

/// Holds the first write block a queue-based store runs at its start, until `open()` is called or `hold`
/// passes, and counts the write blocks that have finished: so a test can see whether `write` returned before
/// its write was applied, without depending on timing (a synchronous write cannot return while it is held; an
/// asynchronous one returns at once).
package final class WriteGateProbe: QueueBlockProbe {
    /// How long the held block waits for `open()`; what a synchronous write costs in `writeWindow`.
    package static let hold: DispatchTimeInterval = .milliseconds(250)
    private let gate = DispatchSemaphore(value: 0)
    private let hasHeld = Atomic<Bool>(false)
    package let appliedWrites = Atomic<Int>(0)

    package func blockBegan(_ kind: QueueBlockKind) {
        guard kind == .write, !hasHeld.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = gate.wait(timeout: .now() + Self.hold)
    }

    package func blockEnded(_ kind: QueueBlockKind) {
        if kind == .write { appliedWrites.add(1, ordering: .releasing) }
    }

    /// Lets a held write go on.
    package func open() {
        gate.signal()
    }
}

extension IsolationChecks {
    /// Writes one model through a queue-based store built with a `WriteGateProbe` (its write block held), then
    /// reads it back before releasing the hold. Returns whether the write had been applied when `write`
    /// returned, and what the read found: a read through the store's queue waits behind a held asynchronous
    /// write rather than missing it.
    package static func writeWindow(_ make: (_ probe: WriteGateProbe) -> any IsolatedStore)
        -> (appliedWhenWriteReturned: Bool, readBack: IdentityModel?, written: IdentityModel) {
        let probe = WriteGateProbe()
        let store = make(probe)
        let model = IdentityModel(id: sharedKeys[0].id, value: -42)
        store.write(model)
        let applied = probe.appliedWrites.load(ordering: .acquiring) > 0
        let readBack = store.read(model.id)
        probe.open()
        return (applied, readBack, model)
    }
}
