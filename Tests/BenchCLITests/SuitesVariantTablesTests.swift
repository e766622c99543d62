import Foundation
import Testing

/// The variant tables of docs/suites.md are `bench --list --format md`'s, to the character: each family's block,
/// between its two marker comments, stands in the page exactly as the tool prints it from the catalogs.
@Suite struct SuitesVariantTablesTests {
    static let pagePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/suites.md").path
    /// How every block opens; the family's name follows.
    static let markerPrefix = "<!-- variants "

    /// The blocks `bench --list --format md` prints, each from its opening marker to its closing one.
    static func printedBlocks() async throws -> [String] {
        let outcome = try await BenchProcess.debug.run(["--list", "--format", "md"])
        try #require(outcome.status == 0, "stderr: \(outcome.standardError)")
        return outcome.standardOutput.components(separatedBy: "\n\n")
            .map { $0.trimmingCharacters(in: .newlines) }
            .filter { !$0.isEmpty }
    }

    @Test func everyPrintedTableStandsInThePageAsPrinted() async throws {
        let page = try String(contentsOfFile: Self.pagePath, encoding: .utf8)
        let blocks = try await Self.printedBlocks()
        #expect(!blocks.isEmpty)
        for block in blocks {
            #expect(block.hasPrefix(Self.markerPrefix))
            let opening = String(block.prefix { $0 != "\n" })
            let standsInPage = page.contains(block)  // not inside #expect, which would print the whole page
            #expect(standsInPage, """
                docs/suites.md's table after \(opening) differs from `swift run bench --list --format md`; \
                replace it with:
                \(block)
                """)
        }
    }

    @Test func thePageHasNoTableTheToolDoesNotPrint() async throws {
        let page = try String(contentsOfFile: Self.pagePath, encoding: .utf8)
        let printed = await Set(try Self.printedBlocks().map { String($0.prefix { $0 != "\n" }) })
        let inPage = page.split(separator: "\n").map(String.init).filter { $0.hasPrefix(Self.markerPrefix) }
        #expect(Set(inPage) == printed)
        #expect(inPage.count == printed.count, "a table appears twice in docs/suites.md")
    }

    @Test func formatGoesWithList() async throws {
        let outcome = try await BenchProcess.debug.run(["--format", "md"])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("--format goes with --list"), "stderr: \(outcome.standardError)")
    }
}
