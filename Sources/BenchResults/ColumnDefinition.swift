/// How a reader parses a column's field. The raw values are the type names `scripts/analyze` parses by
/// (`scripts/analyze_lib/files/loader.py`), read from `results-schema.json`.
package enum ColumnType: String, Sendable, Equatable, CaseIterable {
    /// Any text, taken as it is.
    case string = "str"
    /// A 64-bit integer.
    case int
    /// A finite decimal number.
    case float
    /// A finite decimal number or `inf` (the cost of an operation in a sample that completed none).
    case floatOrInf = "float_or_inf"
    /// An integer, or empty when not recorded.
    case optionalInt = "opt_int"
    /// A decimal number, or empty when not recorded.
    case optionalFloat = "opt_float"
    /// `true` or `false`.
    case bool
    /// `true`, `false` or `unknown`.
    case boolOrUnknown = "bool_or_unknown"
    /// An ISO 8601 time.
    case timestamp
    /// A case's parameters, `key=value` joined by `;`.
    case params
    /// Empty, `first` or `second` (`ResultsSchema.SamplePair.Order`).
    case pairOrder = "pair_order"
}

/// Over what a column's value stays the same.
package enum ColumnScope: String, Sendable, Equatable, CaseIterable {
    /// What the run was and how it was asked to measure: the same value on every row of a file.
    case run
    /// What identifies a case (and a row's role, inside `params`): the same on every row of one case.
    case benchmarkCase = "case"
    /// What describes the case's variant without identifying the case (where it comes from): the same on every
    /// row of one case.
    case variant
    /// The row's own value.
    case row
    /// Whether the run completed (`run_complete`): `false` on each row as it is written; the whole file is
    /// rewritten with `true` once the run completes, so a file with any `false` is incomplete.
    case completion
}

/// A column as a reader needs to know it: its header name, its type in each version of its file, and its scope.
/// The version that added the column is the first of `types`; a column is in every later version of its file.
package struct ColumnDefinition: Sendable, Equatable {
    /// A column's type from one version of its file on.
    package struct VersionedType: Sendable, Equatable {
        package let since: Int
        package let type: ColumnType
    }

    package let name: String
    /// The column's types, oldest first, each from its version on; never empty.
    package let types: [VersionedType]
    package let scope: ColumnScope

    /// A column whose type changed: `types` as (version it applies from, type), oldest first.
    init(_ name: String, types: [(since: Int, type: ColumnType)], scope: ColumnScope) {
        precondition(!types.isEmpty && zip(types, types.dropFirst()).allSatisfy { $0.since < $1.since },
                     "a column's types, oldest first, one per version")
        self.name = name
        self.types = types.map { VersionedType(since: $0.since, type: $0.type) }
        self.scope = scope
    }

    /// The version of its file that added the column.
    package var since: Int { types[0].since }

    /// The column's type in `version` of its file (nil before the column existed).
    package func type(in version: Int) -> ColumnType? {
        types.last { $0.since <= version }?.type
    }

    /// The column as a file of the same version numbering that first appeared at `version` has it: added at
    /// `version` at the earliest, with the type it had then, and the same later changes.
    func appearing(from version: Int) -> ColumnDefinition {
        let before = type(in: version).map { [(since: version, type: $0)] } ?? []
        let later = types.filter { $0.since > version }.map { (since: $0.since, type: $0.type) }
        return ColumnDefinition(name, types: before + later, scope: scope)
    }

    /// The column in a file versioned on its own that added it at `version`, with the type it has now.
    func introduced(at version: Int) -> ColumnDefinition {
        ColumnDefinition(name, types: [(since: version, type: types[types.count - 1].type)], scope: scope)
    }
}

/// A column of a file `bench` writes: what a reader needs to know of it (`definition`) and how a row, made from
/// `Source`, fills it.
package struct SchemaColumn<Source>: Sendable {
    package let definition: ColumnDefinition
    /// The field of the row made from a source.
    package let value: @Sendable (Source) -> String

    package var name: String { definition.name }

    init(_ definition: ColumnDefinition, value: @escaping @Sendable (Source) -> String) {
        self.definition = definition
        self.value = value
    }

    /// A column of one type, added at `since`.
    init(_ name: String, _ type: ColumnType, since: Int, _ scope: ColumnScope = .row,
         value: @escaping @Sendable (Source) -> String) {
        self.init(ColumnDefinition(name, types: [(since: since, type: type)], scope: scope), value: value)
    }

    /// The same column, filled from a larger source that `part` takes this column's source from.
    func reading<Whole>(_ part: @escaping @Sendable (Whole) -> Source) -> SchemaColumn<Whole> {
        let value = self.value
        return SchemaColumn<Whole>(definition) { value(part($0)) }
    }

    /// The same column and value with another definition (`ColumnDefinition.appearing(from:)`, `introduced(at:)`).
    func redefined(_ change: (ColumnDefinition) -> ColumnDefinition) -> SchemaColumn {
        SchemaColumn(change(definition), value: value)
    }
}
