import BenchCore
import Foundation

/// The counts CSV that `bench count` writes, defined once: one row per case with its instructions and
/// allocations per operation. Same schema family as the timing file (`ResultsSchema`): the same version, the same
/// environment and case columns; told apart by its count columns (it has `instructions_per_op`, no `ns_per_op`).
/// Version 5 appends `run_complete` (`ResultsSchema.runCompleteColumn`, the same rule as the timing file's).
public enum CountsSchema {
    /// What one row is made from.
    public struct Row: Sendable {
        public var benchmarkCase: BenchmarkCase
        /// Iterations of the counted run, and the operations they performed.
        public var iterations: Int
        public var operations: Int
        /// Instructions callgrind counted in the counted run, collecting only around its loop.
        public var instructions: UInt64
        /// Allocations jemalloc counted in the counted run (small plus large, thread cache off).
        public var allocations: UInt64

        public init(benchmarkCase: BenchmarkCase, iterations: Int, operations: Int, instructions: UInt64,
                    allocations: UInt64) {
            self.benchmarkCase = benchmarkCase
            self.iterations = iterations
            self.operations = operations
            self.instructions = instructions
            self.allocations = allocations
        }

        public var instructionsPerOperation: Double { Double(instructions) / Double(operations) }
        public var allocationsPerOperation: Double { Double(allocations) / Double(operations) }
    }

    /// The count columns, after the environment, `bench_version` and the case.
    static let countColumns: [(name: String, value: @Sendable (Row) -> String)] = [
        ("iterations", { String($0.iterations) }),
        ("operations", { String($0.operations) }),
        ("instructions", { String($0.instructions) }),
        ("instructions_per_op", { String(format: "%.4f", $0.instructionsPerOperation) }),
        ("allocations", { String($0.allocations) }),
        ("allocations_per_op", { String(format: "%.4f", $0.allocationsPerOperation) }),
    ]

    /// The header record's fields.
    public static var header: [String] {
        ["schema_version"] + ResultsSchema.environmentColumns.map(\.name) + ["bench_version"]
            + ResultsSchema.caseColumns.map(\.name) + countColumns.map(\.name) + [ResultsSchema.runCompleteColumn]
    }

    /// One row's fields, in header order.
    public static func fields(_ row: Row, environment: RunEnvironment) -> [String] {
        [String(ResultsSchema.version)] + ResultsSchema.environmentColumns.map { $0.value(environment) }
            + [environment.benchVersion] + ResultsSchema.caseColumns.map { $0.value(row.benchmarkCase, nil) }
            + countColumns.map { $0.value(row) } + [ResultsSchema.runIncomplete]
    }

    /// The whole file: the header and every row, each ended by a line end.
    public static func text(_ rows: [Row], environment: RunEnvironment) -> String {
        ([header] + rows.map { fields($0, environment: environment) }).map(CSVFormat.encode).joined()
    }
}
