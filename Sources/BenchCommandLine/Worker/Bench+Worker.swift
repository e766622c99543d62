import ArgumentParser
import BenchCore
import BenchPlatform
import BenchResults
import Foundation

extension Bench {
    /// `bench worker`: a long-lived process that measures cases on request, for a paired comparison
    /// (`scripts/bench-commits --paired`) that alternates two builds sample by sample. Not for direct use.
    ///
    /// The protocol (docs/worker-protocol.md): one JSON object per line each way. The worker first sends
    /// `{"ok": "hello", "protocol": <WorkerState.protocolVersion>, "columns": [...]}`, the results CSV's header.
    /// Then, per request line, exactly one reply line, in order:
    /// - `{"request": "list"}` → `{"ok": "list", "cases": [{"suite", "benchmark", "variant", "threads",
    ///   "params"}, ...]}`: the cases bench's `--filter` and `--threads` (given before `worker`) select, each
    ///   field the text of its CSV column.
    /// - `{"request": "setup", "case": {...as listed...}, "sample_ns": N, "plan": {...}?, "team_cpus": [C, ...]?}`
    ///   → `{"ok": "setup", "plan": {...}}`: starts the case's thread team and calibrates it for samples of N ns,
    ///   so that no calibration falls between later samples. A `plan` that an earlier setup of the case replied
    ///   (from this build or another) is taken instead of calibrating; the reply gives the plan samples will
    ///   use. With `team_cpus` (protocol 2), the team's thread i runs on CPU `team_cpus[i % count]` alone. With
    ///   `check_plan: true` (protocol 4), the worker first tries the given plan's batches, and replies batches of
    ///   one iteration where they starve one of its threads (`CaseRunner.checked`).
    /// - `{"request": "sample", "samples": N, "sample_ns": N?, "warmup": W?, "round": K?, "pair": P?,
    ///   "pair_order": "first"|"second"?}` → `{"ok": "sample", "records": [{column: value}, ...]}`: W warm-up
    ///   samples (default 0), then N kept, each a row of the results CSV (one per role for cases whose threads
    ///   play roles), its values the text the CSV would hold. `sample` counts on from the case's earlier
    ///   samples; `round` (default 1), `pair` and `pair_order` label the rows.
    /// - `{"request": "encode", "columns": [...], "records": [{column: value}, ...], "header": true?}` →
    ///   `{"ok": "encode", "csv": "..."}` (protocol 3): the text `ResultsWriter` appends for these records as one
    ///   case (`ResultsWriter.caseText`), the header line first when `header` is true. Any columns, so that a
    ///   build's worker can write the records of a build whose worker cannot.
    /// - `{"request": "complete", "path": "..."}` → `{"ok": "complete", "marked": true|false}` (protocol 3):
    ///   `ResultsWriter.markRunComplete(path:)` on that results file.
    /// - `{"request": "teardown"}` → `{"ok": "teardown"}`; `{"request": "quit"}` → `{"ok": "quit"}`, then exit 0.
    /// A bad request, an unknown case or a request out of turn gets `{"error": "..."}` and the worker goes on.
    /// End of input ends the worker (tearing down an open case). It dies with its parent (SIGKILL when the
    /// process that started it ends), so an orchestrator killed outright leaves no worker behind.
    ///
    /// A sample is measured by `OpenCase`, the same code `bench` measures every case with: the same thread
    /// team, calibration and synchronized window.
    struct Worker: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "worker",
            abstract: "Measure cases on request over stdin/stdout (for scripts/bench-commits --paired).",
            shouldDisplay: false
        )

        /// `bench`'s options: `--filter`, `--threads` and `--spin-scale` choose the cases; `--quick`, `--rounds`,
        /// `--seed` and `--run-environment` are recorded in the rows as a run's are; `--allocator` as for a run.
        @ParentCommand var bench: Bench

        func run() throws {
            // Started by a script, not through bench's ParentBinding trampoline: binds itself.
            if let note = PlatformFeature.parentBinding.unavailableNote {
                warn(note)
            } else if let error = Platform.dieWithParent(signal: SIGKILL) {
                throw BenchError("cannot ask to die with the parent process: \(error)",
                                 exitCode: ExitStatus.internalError)
            }
            try bench.allocator?.ensureLoaded()
            let environment = try bench.runEnvironment.map {
                try RunEnvironment.shared(at: $0, benchVersion: BenchVersion.current)
            } ?? RunEnvironment.current(benchVersion: BenchVersion.current)
            var settings = try bench.runSettings()
            settings.rounds = bench.rounds ?? 1
            var worker = WorkerState(cases: try bench.selectedCases(), environment: environment, settings: settings)
            defer { worker.close() }
            send(["ok": "hello", "protocol": WorkerState.protocolVersion, "columns": ResultsSchema.header])
            while let line = readLine() {
                let (reply, quit) = worker.reply(to: line)
                send(reply)
                if quit { return }
            }
        }

        /// Writes one reply line and flushes it, so that the client is never left waiting on a buffer.
        private func send(_ object: [String: Any]) {
            let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data(#"{"error":"unencodable reply"}"#.utf8)
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
    }
}

/// What a worker holds between requests: the cases it may set up, the one set up (if any), and what every
/// row records. Not thread-safe: the worker's one loop drives it.
struct WorkerState {
    /// The protocol's version, sent in the hello line; a client refuses a version it does not know. 2 added
    /// setup's `team_cpus`; 3 added `encode` and `complete`, so that a paired run's files are written by
    /// `ResultsWriter`'s encoding alone; 4 added setup's `check_plan`.
    static let protocolVersion = 4
    /// The shortest and longest sample a request may ask for, in nanoseconds.
    static let sampleNanosecondsRange: ClosedRange<UInt64> = 100_000...60_000_000_000
    /// The most samples (kept or warm-up) one request may ask for.
    static let maximumSamples = 10_000

    let cases: [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)]
    let environment: RunEnvironment
    let settings: RunSettings
    private var open: (openCase: OpenCase, sampleNanoseconds: UInt64, samplesWritten: Int)?

    init(cases: [(benchmarkCase: BenchmarkCase, benchmark: Benchmark)], environment: RunEnvironment,
         settings: RunSettings) {
        self.cases = cases
        self.environment = environment
        self.settings = settings
    }

    /// The reply to one request line, and whether the worker is to end after sending it.
    mutating func reply(to line: String) -> (reply: [String: Any], quit: Bool) {
        do {
            let request = try WorkerRequest(line: line)
            switch request.request {
            case "list":
                return (["ok": "list", "cases": cases.map { Self.identity($0.benchmarkCase) }], false)
            case "setup":
                return (["ok": "setup", "plan": try Self.json(try setUp(request))], false)
            case "sample":
                return (["ok": "sample", "records": try sample(request)], false)
            case "encode":
                return (["ok": "encode", "csv": try Self.encode(request)], false)
            case "complete":
                guard let path = request.path else { throw WorkerError("complete needs \"path\"") }
                return (["ok": "complete", "marked": try ResultsWriter.markRunComplete(path: path)], false)
            case "teardown":
                guard open != nil else { throw WorkerError("teardown: no case is set up") }
                close()
                return (["ok": "teardown"], false)
            case "quit":
                return (["ok": "quit"], true)
            default:
                throw WorkerError("unknown request '\(request.request)' (list, setup, sample, encode, complete, "
                                  + "teardown or quit)")
            }
        } catch let error as WorkerError {
            return (["error": error.message], false)
        } catch {
            return (["error": "\(error)"], false)
        }
    }

    /// Tears down the open case, if any.
    mutating func close() {
        open?.openCase.close()
        open = nil
    }

    /// Sets the case up and returns the plan its samples will use.
    private mutating func setUp(_ request: WorkerRequest) throws -> CaseRunner.SamplePlan {
        guard open == nil else { throw WorkerError("setup: a case is already set up (tear it down first)") }
        guard let identity = request.case else { throw WorkerError("setup needs \"case\"") }
        guard let sampleNanoseconds = request.sample_ns else { throw WorkerError("setup needs \"sample_ns\"") }
        try Self.check(sampleNanoseconds: sampleNanoseconds)
        guard let (benchmarkCase, benchmark) = cases.first(where: { Self.identity($0.benchmarkCase) == identity.fields })
        else { throw WorkerError("unknown case: \(identity.description) (not among this worker's cases: see list)") }
        try Self.check(teamCPUs: request.team_cpus)
        let openCase = OpenCase(benchmarkCase, workload: benchmark.setup(benchmarkCase), teamCPUs: request.team_cpus)
        if let failure = openCase.pinFailure {
            openCase.close()
            throw WorkerError("setup: \"team_cpus\": \(failure)")
        }
        if let plan = request.plan {
            do {
                try openCase.adopt(plan, sampleNanoseconds: sampleNanoseconds, checked: request.check_plan ?? false)
            } catch let mismatch as PlanMismatch {
                openCase.close()
                throw WorkerError("setup: the plan does not fit \(identity.description): \(mismatch.reason)")
            }
        }
        open = (openCase, sampleNanoseconds, 0)
        return openCase.plan(sampleNanoseconds: sampleNanoseconds)
    }

    /// A plan as the JSON object a setup reply holds and a setup request may give back.
    private static func json(_ plan: CaseRunner.SamplePlan) throws -> Any {
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(plan))
    }

    private mutating func sample(_ request: WorkerRequest) throws -> [[String: String]] {
        guard let current = open else { throw WorkerError("sample: no case is set up") }
        let samples = request.samples ?? 1, warmup = request.warmup ?? 0, round = request.round ?? 1
        let sampleNanoseconds = request.sample_ns ?? current.sampleNanoseconds
        guard (1...Self.maximumSamples).contains(samples) else {
            throw WorkerError("\"samples\" must be 1 to \(Self.maximumSamples), not \(samples)")
        }
        guard (0...Self.maximumSamples).contains(warmup) else {
            throw WorkerError("\"warmup\" must be 0 to \(Self.maximumSamples), not \(warmup)")
        }
        guard round >= 1 else { throw WorkerError("\"round\" must be at least 1, not \(round)") }
        try Self.check(sampleNanoseconds: sampleNanoseconds)
        let pair = try Self.pair(index: request.pair, order: request.pair_order)
        let measurement = MeasurementSettings(sampleNanoseconds: sampleNanoseconds, samples: samples,
                                              warmupSamples: warmup)
        var settings = self.settings
        settings.measurement = measurement
        settings.round = round
        let results = try current.openCase.measure(measurement)
        let header = ResultsSchema.header
        let records = results.flatMap { result in
            ResultsSchema.rows(environment: environment, settings: settings, result: result,
                               firstSampleNumber: current.samplesWritten,
                               pairs: pair.map { Array(repeating: $0, count: result.samples.count) })
                .map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        }
        open?.samplesWritten += samples
        return records
    }

    /// An `encode` request's text: its records as one case of a results file, each in `columns`' order.
    private static func encode(_ request: WorkerRequest) throws -> String {
        guard let columns = request.columns, let records = request.records else {
            throw WorkerError("encode needs \"columns\" and \"records\"")
        }
        guard !columns.isEmpty, Set(columns).count == columns.count else {
            throw WorkerError("encode: \"columns\" must name at least one column, none twice")
        }
        let rows = try records.enumerated().map { index, record in
            guard Set(record.keys) == Set(columns) else {
                throw WorkerError("encode: record \(index) does not have exactly the columns given")
            }
            return columns.map { record[$0]! }
        }
        return ResultsWriter.caseText(rows: rows, header: request.header == true ? columns : nil)
    }

    /// A request's `pair` and `pair_order`: nil when neither is given; both or neither.
    private static func pair(index: Int?, order: String?) throws -> ResultsSchema.SamplePair? {
        switch (index, order) {
        case (nil, nil): return nil
        case (let index?, let order?):
            guard index >= 0 else { throw WorkerError("\"pair\" must be at least 0, not \(index)") }
            guard let order = ResultsSchema.SamplePair.Order(rawValue: order) else {
                throw WorkerError("\"pair_order\" must be first or second, not '\(order)'")
            }
            return ResultsSchema.SamplePair(index: index, order: order)
        default:
            throw WorkerError("\"pair\" and \"pair_order\" go together")
        }
    }

    /// Setup's `team_cpus`, when given: at least one CPU number, none negative.
    private static func check(teamCPUs: [Int]?) throws {
        guard let teamCPUs else { return }
        if let note = PlatformFeature.cpuPinning.unavailableNote { throw WorkerError("\"team_cpus\": \(note)") }
        guard !teamCPUs.isEmpty, teamCPUs.allSatisfy({ $0 >= 0 }) else {
            throw WorkerError("\"team_cpus\" must list at least one CPU, none negative, not \(teamCPUs)")
        }
    }

    private static func check(sampleNanoseconds: UInt64) throws {
        guard sampleNanosecondsRange.contains(sampleNanoseconds) else {
            throw WorkerError("\"sample_ns\" must be \(sampleNanosecondsRange.lowerBound) to "
                              + "\(sampleNanosecondsRange.upperBound), not \(sampleNanoseconds)")
        }
    }

    /// A case as `list` names it and `setup` asks for it: the CSV's case columns, the role left out.
    static func identity(_ benchmarkCase: BenchmarkCase) -> [String: String] {
        Dictionary(uniqueKeysWithValues: ResultsSchema.caseColumns.map { ($0.name, $0.value((benchmarkCase, nil))) })
    }
}

/// One request line, decoded; which fields a request needs is `WorkerState`'s business.
struct WorkerRequest: Decodable {
    var request: String
    var `case`: CaseIdentity?
    var sample_ns: UInt64?
    var samples: Int?
    var warmup: Int?
    var round: Int?
    var pair: Int?
    var pair_order: String?
    var plan: CaseRunner.SamplePlan?
    var team_cpus: [Int]?
    var check_plan: Bool?
    var columns: [String]?
    var records: [[String: String]]?
    var header: Bool?
    var path: String?

    /// The fields a request may have; any other is refused, so that a misspelt one is not silently ignored.
    static let fields: Set<String> = ["request", "case", "sample_ns", "samples", "warmup", "round", "pair",
                                      "pair_order", "plan", "team_cpus", "check_plan", "columns", "records", "header", "path"]

    init(line: String) throws {
        let data = Data(line.utf8)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw WorkerError("bad request: not a JSON object: \(line.prefix(200))")
        }
        if let unknown = object.keys.filter({ !Self.fields.contains($0) }).sorted().first {
            throw WorkerError("bad request: unknown field \"\(unknown)\"")
        }
        do {
            self = try JSONDecoder().decode(WorkerRequest.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw WorkerError("bad request: \"\(key.stringValue)\" is missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw WorkerError("bad request: \"\(path)\" has the wrong type")
        } catch let DecodingError.dataCorrupted(context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw WorkerError("bad request: \"\(path)\" is out of range")
        }
    }
}

/// A case as a request names it: the CSV's `suite`, `benchmark`, `variant`, `threads` and `params`, as the
/// CSV's text (`"threads": "4"`), exactly as `list` gave them.
struct CaseIdentity: Decodable {
    var suite: String
    var benchmark: String
    var variant: String
    var threads: String
    var params: String

    var fields: [String: String] {
        ["suite": suite, "benchmark": benchmark, "variant": variant, "threads": threads, "params": params]
    }

    var description: String {
        "\(suite)/\(benchmark)/\(variant) threads:\(threads)" + (params.isEmpty ? "" : " \(params)")
    }
}

/// A request the worker refuses; `message` is the reply's `error`.
struct WorkerError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
