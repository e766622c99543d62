/// One family's catalog: every variant the family's suite measures and its tests stress-check, each case bound in
/// one place to its CSV id (the raw value), the type that implements it, the benchmarks that measure it and the
/// line the variant table of docs/suites.md shows for it.
///
/// Each family's catalog also has an `accept(_:)` that hands the variant's concrete type to a visitor. It is the
/// only place an id meets its type, and it is `@inlinable`: compiled in the caller's module with the caller's
/// visitor, the generic code it calls (a timed loop, a stress check) is specialized for each concrete type and
/// never calls the variant through an existential.
public protocol VariantCatalog: CaseIterable, RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue == String, AllCases == [Self] {
    /// The benchmarks of the family's suite, named as in the CSV `benchmark` column.
    associatedtype Benchmark: RawRepresentable, CaseIterable, Hashable, Sendable
        where Benchmark.RawValue == String, Benchmark.AllCases == [Benchmark]

    /// The family's suite, as in the CSV `suite` column (`once`, `wait`).
    static var suite: String { get }
    /// The heading of the variant table's description column ("what it is", "how the limit is kept").
    static var summaryHeading: String { get }

    /// The name of the type that implements the variant, or nil for a variant only the suite has (a baseline that
    /// makes no call of its own).
    var typeName: String? { get }
    /// The benchmarks that measure the variant, in the suite's order.
    var benchmarks: [Benchmark] { get }
    /// What the variant is, in one line of Markdown: the variant table's description column.
    var summary: String { get }
}

extension VariantCatalog {
    /// The CSV id, so that a test's arguments and a failure message name the variant as the CSV does.
    public var description: String { rawValue }

    /// The variants that `benchmark` measures, in catalog order.
    public static func joining(_ benchmark: Benchmark) -> [Self] {
        allCases.filter { $0.benchmarks.contains(benchmark) }
    }

    /// The catalog as docs/suites.md shows it.
    public static var table: VariantTable {
        VariantTable(
            name: Benchmark.allCases.count == 1 ? "\(suite)/\(Benchmark.allCases[0].rawValue)" : suite,
            suite: suite,
            summaryHeading: summaryHeading,
            rows: allCases.map {
                VariantTable.Row(id: $0.rawValue, typeName: $0.typeName, benchmarks: $0.benchmarks.map(\.rawValue),
                                 summary: $0.summary)
            }
        )
    }
}

/// A family's catalog as plain data: what `bench --list --format md` renders and the tables of docs/suites.md must
/// match.
public struct VariantTable: Sendable, Equatable {
    /// One variant.
    public struct Row: Sendable, Equatable {
        public let id: String
        /// Nil for a variant only the suite has.
        public let typeName: String?
        /// The names of the benchmarks that measure it, in the suite's order.
        public let benchmarks: [String]
        public let summary: String
    }

    /// The suite (`once`), or `suite/benchmark` for a family whose catalog serves one benchmark (`wait/fan-out`).
    public let name: String
    public let suite: String
    public let summaryHeading: String
    public let rows: [Row]
}
