/// One family's catalog of built-in variants: each CSV id (the raw value), the benchmarks of the family's suite by
/// name, and the line the variant table of docs/suites.md shows for each.
///
/// A catalog names; it does not register. Each id is bound to its type once, by the `Variant` factory that
/// registers it (VariantRegistration's `BuiltInVariants.swift`), the way a package registers a variant of its own.
package protocol VariantCatalog: CaseIterable, RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue == String, AllCases == [Self] {
    /// The benchmarks of the family's suite, named as in the CSV `benchmark` column.
    associatedtype Benchmark: RawRepresentable, CaseIterable, Hashable, Sendable
        where Benchmark.RawValue == String, Benchmark.AllCases == [Benchmark]

    /// The family's suite, as in the CSV `suite` column (`once`, `wait`).
    static var suite: String { get }
    /// The heading of the variant table's description column ("what it is", "how the limit is kept").
    static var summaryHeading: String { get }

    /// What the variant is, in one line of Markdown: the variant table's description column.
    var summary: String { get }
}

extension VariantCatalog {
    /// The CSV id, so that a test's arguments and a failure message name the variant as the CSV does.
    package var description: String { rawValue }

    /// The name of the variant table: the suite (`once`), or `suite/benchmark` for a family whose catalog serves
    /// one benchmark (`wait/fan-out`).
    package static var tableName: String {
        Benchmark.allCases.count == 1 ? "\(suite)/\(Benchmark.allCases[0].rawValue)" : suite
    }

    /// The family's benchmarks as `suite/benchmark` (`once/hit`), in the catalog's order.
    package static var benchmarkPaths: [String] {
        Benchmark.allCases.map { "\(suite)/\($0.rawValue)" }
    }
}

/// A family's catalog as plain data: what `bench --list --format md` renders and the tables of docs/suites.md must
/// match.
package struct VariantTable: Sendable, Equatable {
    /// One variant.
    package struct Row: Sendable, Equatable {
        package let id: String
        /// Nil for a variant only the suite has.
        package let typeName: String?
        /// The names of the benchmarks that measure it, in the suite's order.
        package let benchmarks: [String]
        package let summary: String

        package init(id: String, typeName: String?, benchmarks: [String], summary: String) {
            self.id = id
            self.typeName = typeName
            self.benchmarks = benchmarks
            self.summary = summary
        }
    }

    /// The suite (`once`), or `suite/benchmark` for a family whose catalog serves one benchmark (`wait/fan-out`).
    package let name: String
    package let suite: String
    package let summaryHeading: String
    package let rows: [Row]

    package init(name: String, suite: String, summaryHeading: String, rows: [Row]) {
        self.name = name
        self.suite = suite
        self.summaryHeading = summaryHeading
        self.rows = rows
    }
}
