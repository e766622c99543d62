/// A benchmark declaration: a suite, a name, the variants it compares and the grid of parameters it sweeps.
///
/// The grid expands to one `BenchmarkCase` per variant × thread count × parameter combination (minus those
/// `includes` rejects). For each case the harness calls `setup`, which builds the state (outside the timed
/// region) and returns the `Workload` to time.
@usableFromInline package struct Benchmark: Sendable {
    /// Where a benchmark's thread counts come from.
    @usableFromInline package enum ThreadCounts: Sendable {
        /// The run's `--threads` list.
        case swept
        /// Only these counts (a handoff between two threads); a run keeps those its `--threads` list names.
        case fixed([Int])
    }

    package let suite: String
    package let name: String
    package let variants: [String]
    /// Each parameter's name and the values it takes.
    package let parameters: KeyValuePairs<String, [Int]>
    package let threadCounts: ThreadCounts
    /// Keeps only the combinations that make sense (a variant without a token table runs with `tokens=1` only).
    package let includes: @Sendable (BenchmarkCase) -> Bool
    package let setup: @Sendable (BenchmarkCase) -> Workload
    /// Where its variants come from (`BenchmarkCase.origin`); set by whoever registers a variant from outside.
    package var origin = BenchmarkCase.builtInOrigin

    @usableFromInline package init(
        suite: String,
        name: String,
        variants: [String],
        parameters: KeyValuePairs<String, [Int]> = [:],
        threadCounts: ThreadCounts = .swept,
        includes: @escaping @Sendable (BenchmarkCase) -> Bool = { _ in true },
        setup: @escaping @Sendable (BenchmarkCase) -> Workload
    ) {
        self.suite = suite
        self.name = name
        self.variants = variants
        self.parameters = parameters
        self.threadCounts = threadCounts
        self.includes = includes
        self.setup = setup
    }

    /// Every case of this benchmark for the given swept thread counts, in declaration order.
    package func cases(sweptThreads: [Int]) -> [BenchmarkCase] {
        let threadList: [Int]
        switch threadCounts {
        case .swept: threadList = sweptThreads
        case .fixed(let counts): threadList = counts
        }
        var grid: [[String: Int]] = [[:]]
        for (name, values) in parameters {
            grid = grid.flatMap { partial in values.map { partial.merging([name: $0]) { $1 } } }
        }
        return variants.flatMap { variant in
            threadList.flatMap { threads in
                grid.map {
                    BenchmarkCase(suite: suite, benchmark: name, variant: variant, threads: threads, parameters: $0,
                                  origin: origin)
                }
            }
        }.filter(includes)
    }
}
