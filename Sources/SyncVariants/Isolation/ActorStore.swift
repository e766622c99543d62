/// `actor`: the dictionary as an actor's state; reads and writes are actor methods, awaited by the caller.
///
/// Thread-safe by the language: the actor runs one method at a time. A write has been applied when the awaited
/// call returns.
///
/// Measured from tasks, not from the harness's threads: the caller is a task, and the actor's methods run on
/// Swift's cooperative pool (one thread per core). Each call pays the hop onto the actor's executor and, when the
/// actor is busy, a suspension of the caller; a synchronous caller (a thread outside any task) cannot call it at
/// all without starting a task and blocking on it, which costs far more than one call. The benchmark starts one
/// task per batch and amortizes that over the batch: see the isolation benchmarks.
@usableFromInline
package actor ActorStore: ActorIsolatedStore {
    private var entries: [String: IdentityModel]

    /// A store holding `models`.
    @usableFromInline
    package init(preloading models: [IdentityModel] = []) {
        entries = Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    /// The model stored under `id`, or nil.
    @usableFromInline
    package func read(_ id: String) -> IdentityModel? {
        entries[id]
    }

    /// Inserts `model` under `model.id`, replacing any model stored there.
    @usableFromInline
    package func write(_ model: IdentityModel) {
        entries[model.id] = model
    }
}
