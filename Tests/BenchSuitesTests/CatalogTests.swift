import BenchCore
import BenchSuites
import Testing
import VariantCatalog
import VariantRegistration

/// The families' variant tables and the registry agree: a benchmark measures exactly the variants its table says
/// join it, in the table's order, and every id names one type.
@Suite struct CatalogTests {
    static let registry = Registrations.registry(adding: [])
    static let tables = Variant.builtInTables

    /// The variants of `suite/name`, in the order a run lists them.
    static func variants(of suite: String, _ name: String) -> [String] {
        registry.benchmarks.filter { $0.suite == suite && $0.name == name }.flatMap(\.variants)
    }

    @Test(arguments: tables.map(\.name))
    func everyBenchmarkMeasuresTheVariantsItsTableSaysJoinIt(_ name: String) throws {
        let table = try #require(Self.tables.first { $0.name == name })
        let joined = Set(table.rows.flatMap(\.benchmarks))
        #expect(!joined.isEmpty)
        for benchmarkName in joined {
            let catalogIDs = table.rows.filter { $0.benchmarks.contains(benchmarkName) }.map(\.id)
            #expect(Self.variants(of: table.suite, benchmarkName) == catalogIDs, "\(table.suite)/\(benchmarkName)")
        }
    }

    /// Every benchmark but the harness's floor measures the variants of one table.
    @Test func everyRegisteredBenchmarkHasATable() {
        for benchmark in Self.registry.benchmarks where benchmark.suite != "harness" {
            let tables = Self.tables.filter {
                $0.suite == benchmark.suite && $0.rows.contains { $0.benchmarks.contains(benchmark.name) }
            }
            #expect(tables.count == 1, "\(benchmark.suite)/\(benchmark.name) is joined by \(tables.count) tables")
        }
    }

    @Test(arguments: tables.map(\.name))
    func idsAreUniqueAndNameOneTypeEach(_ name: String) throws {
        let table = try #require(Self.tables.first { $0.name == name })
        #expect(Set(table.rows.map(\.id)).count == table.rows.count)
        let types = table.rows.compactMap(\.typeName)
        #expect(Set(types).count == types.count, "two ids share a type")
        #expect(table.rows.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("\n") && !$0.summary.contains("|") })
    }
}
