import SyncVariants

/// The catalog of `wait/handoff`: every way two threads hand control back and forth.
public enum HandoffVariant: String, VariantCatalog {
    case semaphore
    case group
    case condition

    /// The one benchmark these variants join.
    public enum Benchmark: String, CaseIterable, Hashable, Sendable {
        case handoff
    }

    public static let suite = "wait"
    public static let summaryHeading = "mechanism"

    /// Hands `visitor` the variant's type and how to make one: the one place an id meets its type.
    @inlinable
    public func accept<Visitor: HandoffVisitor>(_ visitor: Visitor) -> Visitor.Output {
        switch self {
        case .semaphore: visitor.visit { SemaphoreHandoff() }
        case .group: visitor.visit { GroupHandoff() }
        case .condition: visitor.visit { ConditionHandoff() }
        }
    }

    public var summary: String {
        switch self {
        case .semaphore: "one semaphore per direction: `signal` the other's, `wait` on yours"
        case .group:
            "one group per direction, entered once between rounds: `leave` wakes the other side's `wait`, which "
                + "re-`enter`s before answering"
        case .condition: "pthread mutex + condition variable with a `turn` flag (baseline)"
        }
    }

    public var typeName: String? { accept(HandoffTypeName()) }

    public var benchmarks: [Benchmark] { [.handoff] }

    /// A new instance, as an existential: for code outside any timed loop (the stress checks).
    public func makeHandoff() -> any Handoff {
        accept(AnyHandoff())
    }
}

/// Receives a handoff variant's concrete type and a way to make one.
public protocol HandoffVisitor {
    associatedtype Output

    func visit<Pair: Handoff>(_ make: () -> Pair) -> Output
}

private struct HandoffTypeName: HandoffVisitor {
    func visit<Pair: Handoff>(_: () -> Pair) -> String? { String(describing: Pair.self) }
}

private struct AnyHandoff: HandoffVisitor {
    func visit<Pair: Handoff>(_ make: () -> Pair) -> any Handoff { make() }
}
