/// The tool's version: what `bench --version` prints and every row's `bench_version` records.
///
/// Raise it whenever what `bench` measures or records changes, so that rows written by different tools can be
/// told apart even when they carry the same commit (a dirty tree, `BENCH_COMMIT`).
enum BenchVersion {
    static let current = "0.3.0"
}
