/// The catalog of `wait/handoff`: every way two threads hand control back and forth.
package enum HandoffVariant: String, VariantCatalog {
    case semaphore
    case group
    case condition

    /// The one benchmark these variants join.
    package enum Benchmark: String, CaseIterable, Hashable, Sendable {
        case handoff
    }

    package static let suite = "wait"
    package static let summaryHeading = "mechanism"

    package var summary: String {
        switch self {
        case .semaphore: "one semaphore per direction: `signal` the other's, `wait` on yours"
        case .group:
            "one group per direction, entered once between rounds: `leave` wakes the other side's `wait`, which "
                + "re-`enter`s before answering"
        case .condition: "pthread mutex + condition variable with a `turn` flag (baseline)"
        }
    }
}
