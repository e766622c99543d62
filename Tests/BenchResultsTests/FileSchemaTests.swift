@testable import BenchResults
import Testing

/// What each file's `FileSchema` states (the columns of each version, their types and scopes) is what its writer
/// writes, and each version's columns are the previous version's with columns appended.
@Suite struct FileSchemaTests {
    @Test func eachFileSchemaIsItsWritersHeader() {
        #expect(ResultsSchema.file.columns.map(\.name) == ResultsSchema.header)
        #expect(CountsSchema.file.columns.map(\.name) == CountsSchema.header)
        #expect(StressSchema.file.columns.map(\.name) == StressSchema.header)
        #expect(FileSchema.all.map(\.versionColumn) == ["schema_version", "schema_version", "stress_schema_version"])
    }

    @Test func eachFileHasTheVersionsItWasWrittenWith() {
        #expect(ResultsSchema.file.versions == 1...10)
        #expect(CountsSchema.file.versions == 3...10)
        #expect(StressSchema.file.versions == 1...5)
        #expect(ResultsSchema.file.columns(in: 1).count == 28 && ResultsSchema.file.columns(in: 4).count == 47)
    }

    /// Columns are only appended: in file order, no column was added before the one in front of it, so each
    /// version's columns are the first columns of the next. No column and no type change is newer than its file.
    @Test(arguments: FileSchema.all)
    func columnsAreOnlyAppended(_ file: FileSchema) {
        let since = file.columns.map(\.since)
        #expect(since == since.sorted(), "\(file.kind): a column added in the middle")
        for version in file.versions.dropLast() {
            let names = file.columns(in: version).map(\.name)
            #expect(Array(file.columns(in: version + 1).map(\.name).prefix(names.count)) == names)
        }
        #expect(file.columns.allSatisfy { $0.types.allSatisfy { file.versions.contains($0.since) } })
    }

    @Test(arguments: FileSchema.all)
    func runCompleteIsTheOneCompletionColumnAndTheVersionIsARunColumn(_ file: FileSchema) {
        #expect(file.columns.filter { $0.scope == .completion }.map(\.name) == [ResultsSchema.runCompleteColumn])
        #expect(file.columns[0].scope == .run && file.columns[0].type(in: file.version) == .int)
    }

    /// `dirty` became `unknown`-able at version 3: a timing file says so, a counts file (from 3) and a stress file
    /// (numbered on its own, written since) only know the newer type.
    @Test func dirtysTypeChangedAtVersion3() {
        func dirty(_ file: FileSchema) -> ColumnDefinition { file.columns.first { $0.name == "dirty" }! }
        #expect(dirty(ResultsSchema.file).type(in: 2) == .bool)
        #expect(dirty(ResultsSchema.file).type(in: 3) == .boolOrUnknown)
        #expect(dirty(CountsSchema.file).types == [.init(since: 3, type: .boolOrUnknown)])
        #expect(dirty(StressSchema.file).types == [.init(since: 1, type: .boolOrUnknown)])
    }

    @Test func aColumnAppearsFromAVersionOrIsIntroducedAnew() {
        let column = ColumnDefinition("c", types: [(1, .bool), (3, .boolOrUnknown), (5, .string)], scope: .row)
        #expect(column.type(in: 0) == nil && column.type(in: 4) == .boolOrUnknown)
        #expect(column.appearing(from: 4).types
                == [.init(since: 4, type: .boolOrUnknown), .init(since: 5, type: .string)])
        #expect(column.appearing(from: 0).types == column.types)
        #expect(column.introduced(at: 2).types == [.init(since: 2, type: .string)])
    }
}
