import BenchResults
import Foundation

/// The table `bench count` prints: a case per line with its instructions and allocations per operation.
enum CountsTable {
    static func render(_ rows: [CountsSchema.Row]) -> String {
        let width = max(40, rows.map(\.benchmarkCase.description.count).max() ?? 0)
        let header = "case".padding(toLength: width, withPad: " ", startingAt: 0) + "  instructions/op  allocations/op"
        let lines = rows.map { row in
            row.benchmarkCase.description.padding(toLength: width, withPad: " ", startingAt: 0)
                + String(format: "  %15.2f  %14.3f", row.instructionsPerOperation, row.allocationsPerOperation)
        }
        return ([header] + lines).joined(separator: "\n")
    }
}
