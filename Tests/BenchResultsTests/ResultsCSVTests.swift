import BenchCore
@testable import BenchResults
import Foundation
import Testing

@Suite struct ResultsCSVTests {
    static let environment = RunEnvironment(
        runID: "run-1", startedAt: "2026-11-21T23:45:01Z", commit: "0123456789abcdef0123456789abcdef01234567",
        dirty: .modified, host: "host, with \"quotes\"", os: "Debian GNU/Linux 12 (bookworm)", kernel: "6.1.0",
        cpuModel: "AMD EPYC\nline two", logicalCPUs: 2, swiftVersion: "6.3.1", build: "release", allocator: "system",
        loadAverage1m: 0.5, benchVersion: "9.8.7")

    static let settings = RunSettings(
        measurement: MeasurementSettings(sampleNanoseconds: 2_000_000, samples: 5, warmupSamples: 1), quick: true,
        filter: "^once/(hit|first),", threads: "1,4,16")

    static let result = CaseResult(
        benchmarkCase: BenchmarkCase(suite: "isolation", benchmark: "roles", variant: "rwlock", threads: 4,
                                     parameters: ["read_pct": 90, "keys": 1000]),
        role: "read",
        samples: [
            Sample(operations: 3_000, elapsedNanoseconds: 10_000_000, threadOperations: [1_000, 1_000, 1_000],
                   usage: ResourceUsage(userNanoseconds: 9_000_000, systemNanoseconds: 1_000_000,
                                        voluntaryContextSwitches: 3, involuntaryContextSwitches: 4)),
            Sample(operations: 2_500, elapsedNanoseconds: 10_000_000, threadOperations: [500, 1_000, 1_000],
                   latency: LatencyPercentiles(p50: 100, p90: 200, p99: 900), osThreadsAtStart: 6, osThreadsAtEnd: 7),
        ])

    @Test func headerIsExactlyTheVersionedColumnList() {
        #expect(ResultsSchema.version == 10)
        #expect(ResultsSchema.header.joined(separator: ",") == """
            schema_version,run_id,started_at,commit,dirty,host,os,kernel,cpu_model,logical_cpus,swift_version,\
            build,allocator,suite,benchmark,variant,threads,params,sample,ops,elapsed_ns,ns_per_op,ops_per_sec,\
            cpu_user_ns,cpu_sys_ns,ctx_voluntary,ctx_involuntary,mallocs,thread_ops_min,thread_ops_max,p50_ns,\
            p90_ns,p99_ns,round,os_threads_start,os_threads_end,run_samples,run_warmup,run_sample_ns,run_quick,\
            run_filter,run_threads,run_rounds,run_seed,load_avg_1m,bench_version,run_spin_scale,run_complete,pair,\
            pair_order,variant_origin,run_min_rounds,sched_threads,sched_running_ns,sched_runqueue_ns,\
            sched_switches_in,hung,batch_ops,steal_ns,steal_cpus
            """)
        #expect(CountsSchema.header.suffix(2) == ["run_complete", "variant_origin"])
        #expect(StressSchema.version == 5 && StressSchema.header.suffix(8) == [
            "run_complete", "variant_origin", "trials", "minimum_trials", "control_kind", "trials_to_first_forbidden",
            "trial", "threads_meaning",
        ])
    }

    /// A hung case's row says so, with no operation: its metric is `inf` (starved, to a reader that ignores `hung`),
    /// never a number. Measured samples say `false`.
    @Test func aHungCasesRowSaysHungWithNoOperation() {
        let hung = CaseResult(
            benchmarkCase: BenchmarkCase(suite: "wait", benchmark: "handoff", variant: "lost-wakeup", threads: 2),
            samples: [Sample(operations: 0, elapsedNanoseconds: 60_000_000_000, threadOperations: [0],
                             usage: ResourceUsage(userNanoseconds: 1_000, systemNanoseconds: 2_000))],
            hung: true)
        func column(_ rows: [[String]], _ name: String) -> [String] {
            rows.map { $0[ResultsSchema.header.firstIndex(of: name)!] }
        }
        let rows = ResultsSchema.rows(environment: Self.environment, settings: Self.settings, result: hung)
        #expect(column(rows, "hung") == ["true"] && column(rows, "batch_ops") == [""])
        #expect(column(rows, "ops") == ["0"] && column(rows, "ns_per_op") == ["inf"])
        #expect(column(rows, "elapsed_ns") == ["60000000000"] && column(rows, "thread_ops_max") == ["0"])
        let measured = ResultsSchema.rows(environment: Self.environment, settings: Self.settings, result: Self.result)
        #expect(column(measured, "hung") == ["false", "false"])
    }

    /// A built-in case's rows say `built-in`; a brought-in one's name the module that brought it.
    @Test func rowsSayWhereTheVariantComesFrom() {
        var brought = Self.result
        brought.benchmarkCase = BenchmarkCase(suite: "isolation", benchmark: "mixed", variant: "nio-lock", threads: 1,
                                              origin: "MyBench")
        let origin = ResultsSchema.header.firstIndex(of: "variant_origin")!
        let builtIn = ResultsSchema.rows(environment: Self.environment, settings: Self.settings, result: Self.result)
        let theirs = ResultsSchema.rows(environment: Self.environment, settings: Self.settings, result: brought)
        #expect(builtIn.allSatisfy { $0[origin] == "built-in" })
        #expect(theirs.allSatisfy { $0[origin] == "MyBench" })
    }

    @Test func pairsAreEmptyInAnOrdinaryRunAndNamedInAPairedOne() throws {
        let ordinary = ResultsSchema.rows(environment: Self.environment, settings: Self.settings, result: Self.result)
        let paired = ResultsSchema.rows(environment: Self.environment, settings: Self.settings, result: Self.result,
                                        pairs: [.init(index: 0, order: .first), .init(index: 1, order: .second)])
        func column(_ rows: [[String]], _ name: String) -> [String] {
            rows.map { $0[ResultsSchema.header.firstIndex(of: name)!] }
        }
        #expect(column(ordinary, "pair") == ["", ""] && column(ordinary, "pair_order") == ["", ""])
        #expect(column(paired, "pair") == ["0", "1"] && column(paired, "pair_order") == ["first", "second"])
        #expect(column(ordinary + paired, "run_complete") == ["false", "false", "false", "false"])
    }

    @Test func completingARunRewritesRunCompleteAndNothingElse() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try ResultsWriter(path: path, environment: Self.environment, settings: Self.settings)
        try writer.append([Self.result, Self.result])
        let before = try CSVFormat.decode(String(contentsOfFile: path, encoding: .utf8))
        let column = try #require(before[0].firstIndex(of: "run_complete"))
        #expect(before.dropFirst().allSatisfy { $0[column] == "false" })

        #expect(try writer.completeRun())
        let after = try CSVFormat.decode(String(contentsOfFile: path, encoding: .utf8))
        #expect(after.dropFirst().allSatisfy { $0[column] == "true" })
        #expect(after.count == before.count)
        for (old, new) in zip(before, after).dropFirst() {
            var old = old
            old[column] = "true"
            #expect(old == new, "only run_complete changes")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix("." + URL(fileURLWithPath: path).lastPathComponent) }
        #expect(leftovers.isEmpty, "no temporary file is left: \(leftovers)")
    }

    @Test func aConditionThatFailsLeavesTheFileIncomplete() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try ResultsWriter(path: path, environment: Self.environment, settings: Self.settings)
        try writer.append(Self.result)
        let before = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try writer.completeRun { _, rows in rows.count > 2 } == false, "two rows: the condition fails")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
        #expect(before.contains(",false,,,built-in,1,,,,,false,,,\r\n"))
    }

    /// `run_min_rounds`: the rounds every case gets, unless the run was adaptive; then its minimum, with
    /// `run_rounds` the cap.
    @Test func theFewestRoundsACaseGetsIsRecorded() {
        func fields(_ settings: RunSettings) -> [String: String] {
            let row = ResultsSchema.rows(environment: Self.environment, settings: settings, result: Self.result)[0]
            return Dictionary(uniqueKeysWithValues: zip(ResultsSchema.header, row))
        }
        var settings = Self.settings
        settings.rounds = 10
        #expect(fields(settings)["run_rounds"] == "10" && fields(settings)["run_min_rounds"] == "10")
        settings.adaptiveMinimum = 5
        #expect(fields(settings)["run_rounds"] == "10" && fields(settings)["run_min_rounds"] == "5")
    }

    /// The `sched_` columns hold the sample's summed schedule; a sample without one (a platform without schedstat)
    /// leaves all four empty, not zero.
    @Test func theThreadsScheduleIsRecordedOrLeftEmpty() {
        func fields(_ schedule: ThreadSchedule?) -> [String] {
            var result = Self.result
            result.samples[0].schedule = schedule
            let row = ResultsSchema.rows(environment: Self.environment, settings: Self.settings, result: result)[0]
            let named = Dictionary(uniqueKeysWithValues: zip(ResultsSchema.header, row))
            return ["sched_threads", "sched_running_ns", "sched_runqueue_ns", "sched_switches_in"].map { named[$0]! }
        }
        let schedule = ThreadSchedule(threads: 3, runningNanoseconds: 21_000_000, runQueueNanoseconds: 4_000_000,
                                      switchesIn: 1_234)
        #expect(fields(schedule) == ["3", "21000000", "4000000", "1234"])
        #expect(fields(nil) == ["", "", "", ""])
    }

    /// `batch_ops` holds the sample's batch in operations, `steal_ns` and `steal_cpus` what was stolen from its
    /// threads' CPUs; a sample without them (lockstep pacing; a platform without steal) leaves them empty, not zero.
    @Test func theBatchAndTheStolenTimeAreRecordedOrLeftEmpty() {
        func fields(batch: Int?, stolen: StolenTime?) -> [String] {
            var result = Self.result
            result.samples[0].batchOperations = batch
            result.samples[0].stolen = stolen
            let row = ResultsSchema.rows(environment: Self.environment, settings: Self.settings, result: result)[0]
            let named = Dictionary(uniqueKeysWithValues: zip(ResultsSchema.header, row))
            return ["batch_ops", "steal_ns", "steal_cpus"].map { named[$0]! }
        }
        #expect(fields(batch: 48, stolen: StolenTime(nanoseconds: 20_000_000, cpus: 2)) == ["48", "20000000", "2"])
        #expect(fields(batch: 48, stolen: StolenTime(nanoseconds: 0, cpus: 1)) == ["48", "0", "1"])
        #expect(fields(batch: nil, stolen: nil) == ["", "", ""])
    }

    @Test func fieldsAreQuotedPerRFC4180() {
        #expect(CSVFormat.encodeField("plain") == "plain")
        #expect(CSVFormat.encodeField("a,b") == "\"a,b\"")
        #expect(CSVFormat.encodeField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVFormat.encodeField("two\nlines") == "\"two\nlines\"")
        #expect(CSVFormat.encode(["a", "", "b,c"]) == "a,,\"b,c\"\r\n")
    }

    @Test func rowsRoundTripThroughTheCSVText() throws {
        let rows = ResultsSchema.rows(environment: Self.environment, settings: Self.settings, result: Self.result)
        let text = CSVFormat.encode(ResultsSchema.header) + rows.map(CSVFormat.encode).joined()
        let decoded = try CSVFormat.decode(text)
        #expect(decoded == [ResultsSchema.header] + rows)

        let first = Dictionary(uniqueKeysWithValues: zip(decoded[0], decoded[1]))
        #expect(first["host"] == "host, with \"quotes\"")
        #expect(first["cpu_model"] == "AMD EPYC\nline two")
        #expect(first["params"] == "keys=1000;read_pct=90;role=read")
        #expect(first["dirty"] == "true")
        #expect(first["sample"] == "0")
        #expect(first["ops"] == "3000")
        #expect(first["ns_per_op"] == "3333.3333")
        #expect(first["ops_per_sec"] == "300000.0000")
        #expect(first["cpu_user_ns"] == "9000000")
        #expect(first["ctx_involuntary"] == "4")
        #expect(first["mallocs"] == "")
        #expect(first["p50_ns"] == "")
        #expect(first["round"] == "1")
        #expect(first["os_threads_start"] == "" && first["os_threads_end"] == "")
        #expect(first["run_samples"] == "5")
        #expect(first["run_warmup"] == "1")
        #expect(first["run_sample_ns"] == "2000000")
        #expect(first["run_quick"] == "true")
        #expect(first["run_filter"] == "^once/(hit|first),")
        #expect(first["run_threads"] == "1,4,16")
        #expect(first["run_rounds"] == "1")
        #expect(first["run_seed"] == "")
        #expect(first["load_avg_1m"] == "0.50")
        #expect(first["bench_version"] == "9.8.7")

        let second = Dictionary(uniqueKeysWithValues: zip(decoded[0], decoded[2]))
        #expect(second["thread_ops_min"] == "500")
        #expect(second["thread_ops_max"] == "1000")
        #expect(second["p99_ns"] == "900")
        #expect(second["os_threads_start"] == "6" && second["os_threads_end"] == "7")
    }

    @Test func dirtyIsTrueFalseOrUnknown() {
        func field(_ dirty: RunEnvironment.TreeState, load: Double? = nil) -> [String: String] {
            var environment = Self.environment
            environment.dirty = dirty
            environment.loadAverage1m = load
            let row = ResultsSchema.rows(environment: environment, settings: Self.settings, result: Self.result)[0]
            return Dictionary(uniqueKeysWithValues: zip(ResultsSchema.header, row))
        }
        #expect(field(.modified)["dirty"] == "true")
        #expect(field(.clean)["dirty"] == "false")
        #expect(field(.unknown)["dirty"] == "unknown")
        #expect(field(.clean)["load_avg_1m"] == "", "an unreadable load average is an empty field")
    }

    @Test func aSampleWithNoOperationsCostsInfinity() {
        #expect(ResultsSchema.decimal(Sample(operations: 0, elapsedNanoseconds: 5, threadOperations: [0])
            .nanosecondsPerOperation) == "inf")
        #expect(ResultsSchema.decimal(0.25) == "0.2500")
    }

    @Test func decoderAcceptsLineFeedsAndRejectsBrokenQuotes() throws {
        #expect(try CSVFormat.decode("a,b\n1,2\n") == [["a", "b"], ["1", "2"]])
        #expect(try CSVFormat.decode("a,\"\"\n") == [["a", ""]])
        #expect(throws: CSVError.self) { try CSVFormat.decode("a,\"open\n") }
        #expect(throws: CSVError.self) { try CSVFormat.decode("\"x\"y,1\n") }
    }

    @Test func writerCreatesTheFileAndAppendsWholeCases() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try ResultsWriter(path: path, environment: Self.environment, settings: Self.settings)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "", "the header comes with the first rows")
        try writer.append(Self.result)
        #expect(writer.casesWritten == 1 && writer.rowsWritten == 2)
        try writer.append([Self.result, Self.result])
        #expect(writer.casesWritten == 2 && writer.rowsWritten == 6)
        let decoded = try CSVFormat.decode(String(contentsOfFile: path, encoding: .utf8))
        #expect(decoded.count == 7)
        #expect(decoded[0] == ResultsSchema.header)
        #expect(decoded.dropFirst().allSatisfy { $0 != ResultsSchema.header }, "one header")
    }

    @Test func aWriterWithoutRowsRemovesItsFileAndOnlyThen() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let empty = try ResultsWriter(path: path, environment: Self.environment, settings: Self.settings)
        #expect(empty.removeIfEmpty())
        #expect(!FileManager.default.fileExists(atPath: path))

        let written = try ResultsWriter(path: path, environment: Self.environment, settings: Self.settings)
        try written.append(Self.result)
        #expect(!written.removeIfEmpty())
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func writerNeverOverwritesSilently() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "precious\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ResultsWriterError.self) {
            try ResultsWriter(path: path, environment: Self.environment, settings: Self.settings)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
        let writer = try ResultsWriter(path: path, environment: Self.environment, settings: Self.settings,
                                       overwrite: true)
        try writer.append(Self.result)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("schema_version,"))
    }

    @Test func uniqueNamesCountUpWhenANameIsTaken() throws {
        let directory = NSTemporaryDirectory() + "bench-results-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "taken\n".write(toFile: directory + "/run.csv", atomically: true, encoding: .utf8)
        let writers = try (0..<2).map { _ in
            try ResultsWriter.unique(in: directory, stem: "run", environment: Self.environment,
                                     settings: Self.settings)
        }
        #expect(writers.map(\.path) == [directory + "/run-2.csv", directory + "/run-3.csv"])
        #expect(try String(contentsOfFile: directory + "/run.csv", encoding: .utf8) == "taken\n")
    }

    @Test func aDirectoryIsNamedAsOne() {
        for overwrite in [false, true] {
            do {
                _ = try ResultsWriter(path: NSTemporaryDirectory(), environment: Self.environment,
                                      settings: Self.settings, overwrite: overwrite)
                Issue.record("a directory must be refused")
            } catch {
                #expect("\(error)".contains("is a directory"), "\(error)")
                #expect(!"\(error)".contains("--overwrite"), "\(error)")
            }
        }
    }

    @Test func writerNamesAnUnwritablePath() {
        do {
            _ = try ResultsWriter(path: "/nonexistent-dir/x.csv", environment: Self.environment,
                                  settings: Self.settings)
            Issue.record("an unwritable path must throw")
        } catch {
            #expect("\(error)".contains("/nonexistent-dir/x.csv"))
        }
    }

    @Test func environmentDescribesThisMachine() {
        let environment = RunEnvironment.current(benchVersion: "1.2.3")
        #expect(environment.logicalCPUs >= 1)
        #expect(["release", "debug"].contains(environment.build))
        #expect(environment.startedAt.hasSuffix("Z"))
        #expect(environment.commit == "unknown" || environment.commit.count >= 7)
        #expect(environment.allocator == "system")
        #expect(environment.benchVersion == "1.2.3")
        #expect(environment.loadAverage1m.map { $0 >= 0 } ?? false, "Linux has /proc/loadavg")
        #expect((environment.dirty == .unknown) == (environment.gitProblem != nil))
    }

    func temporaryPath() -> String {
        NSTemporaryDirectory() + "bench-results-\(UUID().uuidString).csv"
    }
}
