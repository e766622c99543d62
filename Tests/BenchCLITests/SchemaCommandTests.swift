import BenchResults
import Testing

/// `bench schema` prints the Markdown page by default and the JSON with `--format json` (bench's own option, which
/// the subcommand reads); `--format json` goes with `bench schema` alone.
@Suite struct SchemaCommandTests {
    @Test func printsTheMarkdownByDefaultAndTheJSONWithFormatJSON() async throws {
        let markdown = try await BenchProcess.debug.run(["schema"])
        #expect(markdown.status == 0, "stderr: \(markdown.standardError)")
        let sameMarkdown = markdown.standardOutput == SchemaDocumentation.markdown()  // not inside #expect
        #expect(sameMarkdown)
        let json = try await BenchProcess.debug.run(["schema", "--format", "json"])
        #expect(json.status == 0, "stderr: \(json.standardError)")
        let sameJSON = json.standardOutput == SchemaJSON.text()
        #expect(sameJSON)
    }

    @Test(arguments: [["--format", "json"], ["--list", "--format", "json"]])
    func formatJSONGoesWithSchemaAlone(_ arguments: [String]) async throws {
        let outcome = try await BenchProcess.debug.run(arguments)
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("bench schema"), "stderr: \(outcome.standardError)")
    }
}
