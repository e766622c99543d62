@testable import BenchResults
import Foundation
import Testing

/// Issue 14 (9): where git cannot be read, a run warns in one line and records dirty=unknown, and
/// commit=unknown unless BENCH_COMMIT names it.
@Suite struct GitTests {
    static let tinyRun = ["--rounds", "1", "--filter", "^harness/empty/", "--threads", "1", "--samples", "1",
                          "--sample-time", "1", "--no-controls", "--output", "results.csv"]

    /// No git variable of the test's own environment leaks into the child, and git looks no higher than the
    /// temporary directory's parent.
    static func environment(in directory: String, _ changes: [String: String?] = [:]) -> [String: String?] {
        var environment: [String: String?] = [
            "BENCH_COMMIT": nil, "GIT_DIR": nil, "GIT_WORK_TREE": nil,
            "GIT_CEILING_DIRECTORIES": (directory as NSString).deletingLastPathComponent,
            "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
        ]
        environment.merge(changes) { $1 }
        return environment
    }

    /// The one warning line, and the rows the run wrote.
    func run(in directory: String, _ changes: [String: String?] = [:]) async throws -> (String, [[String: String]]) {
        let outcome = try await BenchProcess.debug.run(Self.tinyRun, in: directory,
                                                 environment: Self.environment(in: directory, changes))
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let warnings = outcome.errorLines.filter { $0.hasPrefix("warning: cannot read git") }
        #expect(warnings.count == 1, "stderr: \(outcome.standardError)")
        return (warnings.first.map(String.init) ?? "", try BenchProcess.rows(ofCSV: directory + "/results.csv").rows)
    }

    @Test func outsideACheckoutTheTreeStateIsUnknown() async throws {
        let directory = try BenchProcess.temporaryDirectory("no-git")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (warning, rows) = try await run(in: directory)
        #expect(warning.contains("not a git repository"), "\(warning)")
        #expect(warning.hasSuffix("commit=unknown, dirty=unknown"), "\(warning)")
        #expect(rows.count == 1)
        #expect(rows.allSatisfy { $0["commit"] == "unknown" && $0["dirty"] == "unknown" })
    }

    @Test func benchCommitNamesTheCommitButNotTheTreeState() async throws {
        let directory = try BenchProcess.temporaryDirectory("git-dir-nowhere")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (warning, rows) = try await run(in: directory, ["GIT_DIR": directory + "/nowhere", "BENCH_COMMIT": "feedface"])
        #expect(warning.contains("commit=feedface, dirty=unknown"), "\(warning)")
        #expect(rows.allSatisfy { $0["commit"] == "feedface" && $0["dirty"] == "unknown" })
    }

    /// A checkout owned by another user: git refuses it ("dubious ownership"). Needs root, to give it away.
    @Test(.enabled(if: getuid() == 0, "needs root to chown a repository to another user"))
    func aRepositoryGitRefusesIsUnknownToo() async throws {
        let directory = try BenchProcess.temporaryDirectory("dubious")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let initialized = RunEnvironment.capture("git", "init", "-q", directory)
        try #require(initialized.status == 0, "git init: \(initialized.reason)")
        try #require(chown(directory, 65_534, 65_534) == 0 && chown(directory + "/.git", 65_534, 65_534) == 0)
        let (warning, rows) = try await run(in: directory)
        #expect(warning.contains("dubious ownership"), "\(warning)")
        #expect(rows.allSatisfy { $0["commit"] == "unknown" && $0["dirty"] == "unknown" })
    }

    /// Inside this package's own checkout the tree state is read, and nothing is said about git.
    @Test func insideACheckoutNothingIsSaid() async throws {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let path = BenchProcess.temporaryPath("in-git")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let arguments = Array(Self.tinyRun.dropLast(2)) + ["--output", path]
        let outcome = try await BenchProcess.debug.run(arguments, in: checkout,
                                                 environment: ["BENCH_COMMIT": nil, "GIT_DIR": nil])
        try #require(RunEnvironment.capture("git", "-C", checkout, "rev-parse", "HEAD").status == 0,
                     "the package is a git checkout")
        #expect(outcome.status == 0)
        #expect(!outcome.standardError.contains("cannot read git"), "stderr: \(outcome.standardError)")
        let rows = try BenchProcess.rows(ofCSV: path).rows
        #expect(rows.allSatisfy { ["true", "false"].contains($0["dirty"]) && $0["commit"]?.count == 40 })
    }
}
