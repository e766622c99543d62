import Foundation

/// The names the command line speaks of to the person running it: the executable they typed (`bench` here,
/// `MyBench` in a package that brings its own patterns), and the command that reads its results from where
/// they stand.
enum ProgramName {
    /// The executable's file name as it was started: usage lines and help examples name it.
    static let current: String = {
        let started = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""
        return started.isEmpty ? "bench" : started
    }()

    /// DispatchBench's `scripts/analyze` as a path to type in the working directory: relative to it when the
    /// checkout it was built from lies below it (`scripts/analyze` here, `.build/checkouts/DispatchBench/...` in
    /// a user's package), absolute otherwise, and described in words when that checkout is gone.
    static var analyzeCommand: String {
        // This file lies at Sources/BenchCommandLine/ in the checkout the binary was built from.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let analyze = checkout.appendingPathComponent("scripts/analyze").standardizedFileURL.path
        guard FileManager.default.isExecutableFile(atPath: analyze) else {
            return "<DispatchBench's checkout>/scripts/analyze"
        }
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let prefix = here.hasSuffix("/") ? here : here + "/"
        return analyze.hasPrefix(prefix) ? String(analyze.dropFirst(prefix.count)) : analyze
    }
}
