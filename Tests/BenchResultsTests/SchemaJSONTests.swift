@testable import BenchResults
import Foundation
import Testing

/// scripts/analyze_lib/files/results-schema.json, which `scripts/analyze` reads every column from, is
/// `SchemaJSON.text()` to the character, and that text is JSON that says what the schemas say. So a column added
/// in Swift fails here until the file is regenerated, and the Python side then reads it.
@Suite struct SchemaJSONTests {
    static let filePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(SchemaJSON.path).path

    @Test func theCommittedFileIsTheGeneratedOne() throws {
        let committed = try String(contentsOfFile: Self.filePath, encoding: .utf8)
        let same = committed == SchemaJSON.text()  // not inside #expect, which would print both documents
        #expect(same,
                "\(SchemaJSON.path) differs from the schemas: regenerate it with `\(SchemaJSON.regenerateCommand)`")
    }

    /// The document, parsed: for each file kind, its version column, each version's columns and each column's
    /// scope, types and words are the schema's.
    @Test(arguments: FileSchema.all)
    func theDocumentSaysWhatTheSchemaSays(_ file: FileSchema) throws {
        let document = try JSONSerialization.jsonObject(with: Data(SchemaJSON.text().utf8)) as? [String: Any]
        let files = try #require(document?["files"] as? [String: [String: Any]])
        #expect(Set(files.keys) == Set(FileSchema.Kind.allCases.map(\.rawValue)))
        let entry = try #require(files[file.kind.rawValue])
        #expect(entry["version_column"] as? String == file.versionColumn)
        let versions = try #require(entry["versions"] as? [[String: Any]])
        #expect(versions.map { $0["version"] as? Int } == file.versions.map { Optional($0) })
        for version in versions {
            let number = try #require(version["version"] as? Int)
            #expect(version["columns"] as? [String] == file.columns(in: number).map(\.name))
        }
        let columns = try #require(entry["columns"] as? [[String: Any]])
        #expect(columns.map { $0["name"] as? String } == file.columns.map { Optional($0.name) })
        for (parsed, column) in zip(columns, file.columns) {
            #expect(parsed["scope"] as? String == column.scope.rawValue)
            let types = Dictionary(uniqueKeysWithValues: column.types.map { (String($0.since), $0.type.rawValue) })
            #expect(parsed["types"] as? [String: String] == types)
            #expect(parsed["meaning"] as? String == SchemaDocumentation.meaning(of: column.name, in: file.kind))
        }
    }

    /// The newest version of each file is its writer's header.
    @Test func theNewestVersionsAreTheHeaders() {
        #expect(ResultsSchema.file.columns(in: ResultsSchema.version).map(\.name) == ResultsSchema.header)
        #expect(CountsSchema.file.columns(in: ResultsSchema.version).map(\.name) == CountsSchema.header)
        #expect(StressSchema.file.columns(in: StressSchema.version).map(\.name) == StressSchema.header)
    }

    /// Words with quotes, backslashes, line ends and non-ASCII characters come back as they were.
    @Test func quotedTextRoundTrips() throws {
        let text = "a \"quoted\" back\\slash,\nline two, tab\t, `code`, × 10⁹ / …"
        let parsed = try JSONSerialization.jsonObject(with: Data(SchemaJSON.quoted(text).utf8),
                                                      options: [.fragmentsAllowed])
        #expect(parsed as? String == text)
    }
}
