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

    /// Every `suite/benchmark` that a family's catalog names (`VariantCatalog.Benchmark`) and the registry does not
    /// register, and every one the registry registers (the harness's floor aside) that no catalog names.
    static func unnamedOrUnregistered(_ benchmarks: [Benchmark]) -> (unregistered: [String], unnamed: [String]) {
        let catalogs = Variant.families.flatMap { $0.benchmarkPaths }
        let registered = benchmarks.filter { $0.suite != "harness" }.map { "\($0.suite)/\($0.name)" }
        return (catalogs.filter { !registered.contains($0) }, Set(registered).filter { !catalogs.contains($0) }.sorted())
    }

    /// The catalogs' benchmark names are the registry's: a benchmark is named once, in its family's catalog, and
    /// the suites register it under that name.
    @Test func theCatalogsNameTheBenchmarksTheRegistryHas() {
        let (unregistered, unnamed) = Self.unnamedOrUnregistered(Self.registry.benchmarks)
        #expect(unregistered.isEmpty, "named in a catalog, never registered: \(unregistered)")
        #expect(unnamed.isEmpty, "registered, named in no catalog: \(unnamed)")
    }

    /// Negative control: a benchmark registered under a name no catalog has, and a registry without a catalog's
    /// benchmark, are both reported.
    @Test func aNameOutsideTheCatalogsIsReported() {
        let planted = Benchmark(suite: "once", name: "miss", variants: ["x"]) { _ in Workload { _, _ in } }
        let withoutRace = Self.registry.benchmarks.filter { !($0.suite == "once" && $0.name == "race") }
        let (unregistered, unnamed) = Self.unnamedOrUnregistered(withoutRace + [planted])
        #expect(unregistered == ["once/race"])
        #expect(unnamed == ["once/miss"])
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
