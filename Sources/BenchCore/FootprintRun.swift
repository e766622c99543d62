/// Runs one case's whole life once (its setup, a short run on every one of its threads, its drain and teardown)
/// between two hooks, for a tool that records which code the case runs: callgrind, in
/// `bench count --functions`, which collects on every thread. Nothing is timed or counted here, and any code the
/// case runs, on whichever thread, falls between the hooks.
package enum FootprintRun {
    /// The iterations each thread runs: the first call and a few after it take every path a case's steady state
    /// takes, and a run of 4096 GCD tasks an iteration stays seconds long under callgrind.
    package static let iterations = 4

    /// Runs `benchmarkCase` of `benchmark`: `begin`, the setup, `iterations` on each of the case's threads at once,
    /// the drain, the teardown, then `end`.
    package static func run(_ benchmark: Benchmark, _ benchmarkCase: BenchmarkCase, iterations: Int,
                            begin: () -> Void, end: () -> Void) {
        let threads = benchmarkCase.threads
        let team = ThreadTeam(count: threads, name: "bench-footprint")
        defer { team.shutdown() }
        let workers = (0..<threads).map { WorkerContext(index: $0, threadCount: threads) }
        begin()
        let workload = benchmark.setup(benchmarkCase)
        let body = workload.body
        workload.prepare?(iterations)
        team.run { index in body(workers[index], iterations) }
        workload.drain?()
        workload.teardown?()
        end()
    }
}
