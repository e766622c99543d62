import BenchCore
import BenchSuites
import Testing
import VariantCatalog

/// The families' catalogs and the registry agree: a benchmark measures exactly the variants its catalog says join
/// it, and every variant is bound to one type.
@Suite struct CatalogTests {
    static let registry = BenchmarkRegistry.all()

    @Test(arguments: BenchmarkRegistry.catalogs.map(\.name))
    func everyBenchmarkMeasuresTheVariantsItsCatalogSaysJoinIt(_ name: String) throws {
        let table = try #require(BenchmarkRegistry.catalogs.first { $0.name == name })
        let joined = Set(table.rows.flatMap(\.benchmarks))
        #expect(!joined.isEmpty)
        for benchmarkName in joined {
            let benchmark = try #require(Self.registry.benchmarks.first {
                $0.suite == table.suite && $0.name == benchmarkName
            }, "\(table.suite)/\(benchmarkName) is in the catalog but not registered")
            let catalogIDs = table.rows.filter { $0.benchmarks.contains(benchmarkName) }.map(\.id)
            #expect(benchmark.variants == catalogIDs, "\(table.suite)/\(benchmarkName)")
        }
    }

    /// Every benchmark but the harness's floor measures catalog variants only.
    @Test func everyRegisteredBenchmarkHasACatalog() {
        for benchmark in Self.registry.benchmarks where benchmark.suite != "harness" {
            let tables = BenchmarkRegistry.catalogs.filter {
                $0.suite == benchmark.suite && $0.rows.contains { $0.benchmarks.contains(benchmark.name) }
            }
            #expect(tables.count == 1, "\(benchmark.suite)/\(benchmark.name) is joined by \(tables.count) catalogs")
        }
    }

    @Test(arguments: BenchmarkRegistry.catalogs.map(\.name))
    func idsAreUniqueAndNameOneTypeEach(_ name: String) throws {
        let table = try #require(BenchmarkRegistry.catalogs.first { $0.name == name })
        #expect(Set(table.rows.map(\.id)).count == table.rows.count)
        let types = table.rows.compactMap(\.typeName)
        #expect(Set(types).count == types.count, "two ids share a type")
        #expect(table.rows.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("\n") && !$0.summary.contains("|") })
    }
}
