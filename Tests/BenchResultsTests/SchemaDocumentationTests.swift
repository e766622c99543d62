@testable import BenchResults
import Foundation
import Testing

/// docs/csv-schema.md is `SchemaDocumentation.markdown()` to the character, and that page documents every column
/// of the three schemas, in file order, so the page cannot drift from the code that writes the files.
@Suite struct SchemaDocumentationTests {
    static let pagePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/csv-schema.md").path

    @Test func theCommittedPageIsTheGeneratedOne() throws {
        let page = try String(contentsOfFile: Self.pagePath, encoding: .utf8)
        let same = page == SchemaDocumentation.markdown()  // not inside #expect, which would print both pages
        #expect(same, "docs/csv-schema.md differs from the schemas: regenerate it with `swift run bench schema > docs/csv-schema.md`")
    }

    @Test func everyColumnOfEveryFileHasWords() {
        #expect(SchemaDocumentation.undocumentedColumns() == [],
                "give each column its words in Sources/BenchResults/SchemaDocumentation.swift")
        #expect(!SchemaDocumentation.markdown().contains(SchemaDocumentation.undocumentedMarker))
    }

    @Test func everyEntryNamesAColumnThatExists() {
        #expect(Set(SchemaDocumentation.timing.keys).subtracting(ResultsSchema.header) == [])
        #expect(Set(SchemaDocumentation.counts.keys).subtracting(CountsSchema.header) == [])
        #expect(Set(SchemaDocumentation.stress.keys).subtracting(StressSchema.header) == [])
    }

    /// Each file's table lists its header's columns, in header order, once each.
    @Test func eachTableListsItsHeaderInOrder() {
        let tables = SchemaDocumentation.markdown().components(separatedBy: "| column | holds | since version |")
            .dropFirst()
            .map { table in
                table.split(separator: "\n").compactMap { line -> String? in
                    guard line.hasPrefix("| `") else { return nil }
                    return String(line.dropFirst(3).prefix { $0 != "`" })
                }
            }
        #expect(tables == [ResultsSchema.header, CountsSchema.header, StressSchema.header])
    }

    /// The negative control: a column without words renders as undocumented, visibly.
    @Test func aColumnWithoutWordsIsMarked() {
        let columns = [ResultsSchema.file.columns[0],
                       ColumnDefinition("no_such_column", types: [(2, .int)], scope: .row)]
        let lines = SchemaDocumentation.table(columns) { SchemaDocumentation.timing[$0] }
        #expect(lines.last == "| `no_such_column` | \(SchemaDocumentation.undocumentedMarker) | |")
        #expect(lines[2].hasPrefix("| `schema_version` | the file's schema version"))
        #expect(lines[2].hasSuffix(" | 1 |"), "the version that added it, from the schema")
    }

    /// The version column of each table is the schema's: the page cannot state another.
    @Test func eachTableGivesTheVersionThatAddedTheColumn() {
        let table = SchemaDocumentation.table(CountsSchema.file)
        #expect(table.contains { $0.hasPrefix("| `run_id` |") && $0.hasSuffix(" | 3 |") }, "counts files began at 3")
        #expect(table.contains { $0.hasPrefix("| `run_complete` |") && $0.hasSuffix(" | 5 |") })
        let stress = SchemaDocumentation.table(StressSchema.file)
        #expect(stress.contains { $0.hasPrefix("| `bench_version` |") && $0.hasSuffix(" | 1 |") }, "its own numbering")
    }
}
