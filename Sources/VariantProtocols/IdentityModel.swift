/// The small model value the isolation stores hold: the seed's identity-map entry, an id and a payload.
///
/// `check` is written together with `value` (`check == ~value`), so a reader that finds the two disagreeing has
/// seen a half-applied write. Every store in this family replaces a whole model at once, so none can tear one.
public struct IdentityModel: Sendable, Equatable {
    /// The key the model is stored under.
    public var id: String
    /// The payload.
    public var value: Int
    /// `~value` for every model built by `init(id:value:)`: the torn-read witness.
    public var check: Int

    /// A consistent model.
    public init(id: String, value: Int) {
        self.id = id
        self.value = value
        self.check = ~value
    }

    /// Whether `value` and `check` were written together.
    public var isConsistent: Bool { check == ~value }

    /// `count` consistent models with ids `"id0"`, `"id1"`, …: short enough to be small strings (no heap
    /// storage, no reference counting), so that hashing the key and not retaining it is what a lookup costs.
    public static func preload(count: Int) -> [IdentityModel] {
        (0..<count).map { IdentityModel(id: "id\($0)", value: $0) }
    }
}
