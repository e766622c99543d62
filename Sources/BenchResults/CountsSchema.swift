import BenchCore
import Foundation

/// The counts CSV that `bench count` writes, defined once: one row per case with its instructions and
/// allocations per operation. Same schema family as the timing file (`ResultsSchema`): the same version, the same
/// environment and case columns; told apart by its count columns (it has `instructions_per_op`, no `ns_per_op`).
/// Version 5 appends `run_complete` (`ResultsSchema.runCompleteColumn`, the same rule as the timing file's).
package enum CountsSchema {
    /// What one row is made from.
    package struct Row: Sendable {
        package var benchmarkCase: BenchmarkCase
        /// Iterations of the counted run, and the operations they performed.
        package var iterations: Int
        package var operations: Int
        /// Instructions callgrind counted in the counted run, collecting only around its loop.
        package var instructions: UInt64
        /// Allocations jemalloc counted in the counted run (small plus large, thread cache off).
        package var allocations: UInt64

        package init(benchmarkCase: BenchmarkCase, iterations: Int, operations: Int, instructions: UInt64,
                    allocations: UInt64) {
            self.benchmarkCase = benchmarkCase
            self.iterations = iterations
            self.operations = operations
            self.instructions = instructions
            self.allocations = allocations
        }

        package var instructionsPerOperation: Double { Double(instructions) / Double(operations) }
        package var allocationsPerOperation: Double { Double(allocations) / Double(operations) }
    }

    /// The family version (`ResultsSchema.version`) that introduced the counts file: its oldest columns are from it.
    static let firstVersion = 3

    /// What one row's fields are made from.
    package typealias Source = (row: Row, environment: RunEnvironment)

    /// The columns, in file order: the timing file's version, environment, `bench_version` and case columns, the
    /// count columns, `run_complete` and `variant_origin`, each as the counts file has it (added at `firstVersion` at the earliest).
    package static let columns: [SchemaColumn<Source>] = (
        ([ResultsSchema.versionColumn] + ResultsSchema.environmentColumns + [ResultsSchema.benchVersionColumn])
            .map { column in column.reading { (source: Source) in source.environment } }
        + ResultsSchema.caseColumns.map { column in
            column.reading { (source: Source) in (source.row.benchmarkCase, nil) }
        }
        + countColumns.map { column in column.reading { (source: Source) in source.row } }
        + [ResultsSchema.completionColumn.reading { (source: Source) in source.environment }]
        + [ResultsSchema.originColumn.reading { (source: Source) in (source.row.benchmarkCase, nil) }]
    ).map { column in column.redefined { $0.appearing(from: firstVersion) } }

    /// The count columns, after the environment, `bench_version` and the case.
    static let countColumns: [SchemaColumn<Row>] = [
        .init("iterations", .int, since: firstVersion) { String($0.iterations) },
        .init("operations", .int, since: firstVersion) { String($0.operations) },
        .init("instructions", .int, since: firstVersion) { String($0.instructions) },
        .init("instructions_per_op", .float, since: firstVersion) {
            String(format: "%.4f", $0.instructionsPerOperation)
        },
        .init("allocations", .int, since: firstVersion) { String($0.allocations) },
        .init("allocations_per_op", .float, since: firstVersion) {
            String(format: "%.4f", $0.allocationsPerOperation)
        },
    ]

    /// The counts file as a reader needs it.
    package static let file = FileSchema(kind: .counts, version: ResultsSchema.version,
                                        columns: columns.map(\.definition))

    /// The header record's fields.
    package static var header: [String] { columns.map(\.name) }

    /// One row's fields, in header order.
    package static func fields(_ row: Row, environment: RunEnvironment) -> [String] {
        columns.map { $0.value((row, environment)) }
    }

    /// The whole file: the header and every row, each ended by a line end.
    package static func text(_ rows: [Row], environment: RunEnvironment) -> String {
        ([header] + rows.map { fields($0, environment: environment) }).map(CSVFormat.encode).joined()
    }
}
