/// One kind of CSV file `bench` writes, as a reader needs it: its columns in file order, each with the version
/// that added it, so that every version's columns follow (columns are only ever appended).
package struct FileSchema: Sendable {
    /// The three kinds; the raw values are the names `scripts/analyze` gives them.
    package enum Kind: String, Sendable, CaseIterable {
        case timing, counts, stress
    }

    package let kind: Kind
    /// The version the writer writes now.
    package let version: Int
    /// The columns of `version`, in file order; the first holds the file's version.
    package let columns: [ColumnDefinition]

    /// The column that holds the file's version (its first).
    package var versionColumn: String { columns[0].name }

    /// Every version of the file, from the first (its oldest column's) to `version`.
    package var versions: ClosedRange<Int> { columns.map(\.since).min()!...version }

    /// The columns of `version`, in file order.
    package func columns(in version: Int) -> [ColumnDefinition] {
        columns.filter { $0.since <= version }
    }

    /// The three files, in the order the documentation gives them.
    package static let all: [FileSchema] = [ResultsSchema.file, CountsSchema.file, StressSchema.file]
}
