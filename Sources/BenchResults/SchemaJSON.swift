import Foundation

/// The CSV schemas as JSON, `scripts/analyze_lib/files/results-schema.json`: what `scripts/analyze` reads every
/// column list, version and column type from, so that the Python side holds no copy of its own.
///
/// For each file kind (`timing`, `counts`, `stress`): the column that holds its version, every version with its
/// columns in file order, and every column with its scope (`ColumnScope`), its type from each version on
/// (`ColumnType`; the first is the version that added it) and its words (`SchemaDocumentation`). All of it comes
/// from `FileSchema.all`. One version or column per line, so that a new column is a one-line diff per version.
///
/// `regenerateCommand` regenerates the file; `SchemaJSONTests` demands the committed file be `text()` to the
/// character.
package enum SchemaJSON {
    /// Where the file lives, from the repository's root.
    package static let path = "scripts/analyze_lib/files/results-schema.json"
    /// The command that regenerates the file, from the repository's root.
    package static let regenerateCommand = "swift run bench schema --format json > \(path)"

    /// What the document says of itself, first.
    static let about = "The CSV files bench writes, generated from Sources/BenchResults by `\(regenerateCommand)`; "
        + "edit the Swift schemas, not this file. Per file kind: the column holding the file's version, each "
        + "version's columns in file order, and each column's scope (run: the same on every row; case: identifies "
        + "the case; row: the row's own; completion: run_complete), its type from each version on (the first "
        + "version is the one that added it) and its meaning."

    /// The document: two-space indents, one version or column per line, a line end at the end.
    package static func text() -> String {
        let files = FileSchema.all.map { file in
            "    \(quoted(file.kind.rawValue)): {\n"
                + "      \"version_column\": \(quoted(file.versionColumn)),\n"
                + "      \"versions\": [\n" + list(file.versions.map { version(file, $0) }, indent: 8) + "\n      ],\n"
                + "      \"columns\": [\n" + list(file.columns.map { column($0, file.kind) }, indent: 8) + "\n      ]\n"
                + "    }"
        }
        return "{\n  \"about\": \(quoted(about)),\n  \"files\": {\n" + files.joined(separator: ",\n") + "\n  }\n}\n"
    }

    /// One version of `file`: its number and its columns' names, in file order.
    static func version(_ file: FileSchema, _ version: Int) -> String {
        "{\"version\": \(version), \"columns\": [" + file.columns(in: version).map { quoted($0.name) }
            .joined(separator: ", ") + "]}"
    }

    /// One column: its name, scope, types by the version each applies from, and words when it has some.
    static func column(_ column: ColumnDefinition, _ kind: FileSchema.Kind) -> String {
        let types = column.types.map { "\"\($0.since)\": \(quoted($0.type.rawValue))" }.joined(separator: ", ")
        let meaning = SchemaDocumentation.meaning(of: column.name, in: kind).map { ", \"meaning\": \(quoted($0))" }
        return "{\"name\": \(quoted(column.name)), \"scope\": \(quoted(column.scope.rawValue)), "
            + "\"types\": {\(types)}\(meaning ?? "")}"
    }

    /// `items`, one a line, indented and separated by commas.
    static func list(_ items: [String], indent: Int) -> String {
        items.map { String(repeating: " ", count: indent) + $0 }.joined(separator: ",\n")
    }

    /// `text` as a JSON string, quotes included.
    static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding a string cannot fail.
        return String(decoding: try! encoder.encode(text), as: UTF8.self)
    }
}
