import ArgumentParser
import BenchResults

extension Bench {
    /// `bench schema`: prints the CSV schemas, as Markdown (docs/csv-schema.md, `SchemaDocumentation`) or, with
    /// `--format json`, as JSON (the file `scripts/analyze` reads them from, `SchemaJSON`). Hidden: it exists to
    /// regenerate those two files (`swift run bench schema > docs/csv-schema.md`, `SchemaJSON.regenerateCommand`).
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Print the CSV schemas as Markdown (docs/csv-schema.md), or as JSON with --format json "
                + "(\(SchemaJSON.path)).",
            shouldDisplay: false
        )

        /// `bench`'s own options: `--format json` picks the JSON (ArgumentParser gives `--format` to the parent
        /// command wherever it stands, so this command cannot have an option of that name).
        @ParentCommand var bench: Bench

        func run() {
            print(bench.format == .json ? SchemaJSON.text() : SchemaDocumentation.markdown(), terminator: "")
        }
    }
}
