import ArgumentParser
import BenchResults

extension Bench {
    /// `bench schema`: prints docs/csv-schema.md, the CSV schemas as Markdown (`SchemaDocumentation`). Hidden: it
    /// exists to regenerate that page (`swift run bench schema > docs/csv-schema.md`).
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Print the CSV schemas as Markdown (docs/csv-schema.md).",
            shouldDisplay: false
        )

        func run() {
            print(SchemaDocumentation.markdown(), terminator: "")
        }
    }
}
