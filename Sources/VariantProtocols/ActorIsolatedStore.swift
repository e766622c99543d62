/// The isolation suite's dictionary (`[String: IdentityModel]`) kept by an actor: what `Variant.actorStore(_:_:)`
/// measures, as the built-in `actor` is measured. Its methods are awaited from tasks, not called from threads.
///
/// Conforming actors promise what `IsolatedStore` promises: no read observes a half-applied write, no write is
/// lost, and a read after `write` returned sees it.
public protocol ActorIsolatedStore: Actor {
    /// A store holding `models`.
    init(preloading models: [IdentityModel])
    /// The model stored under `id`, or nil.
    func read(_ id: String) -> IdentityModel?
    /// Inserts `model` under `model.id`, replacing any model stored there.
    func write(_ model: IdentityModel)
}
