import BenchCore
@testable import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// `bench worker`: requests in, replies out, one JSON object per line (docs/worker-protocol.md).
@Suite struct WorkerTests {
    static let options = ["--filter", "^harness/empty/", "--threads", "1,2", "--rounds", "4", "--seed", "9"]
    static let emptyAtTwo = ["suite": "harness", "benchmark": "empty", "variant": "loop", "threads": "2", "params": ""]

    /// A running worker and the two ends of its conversation.
    final class Conversation {
        let process: Process
        let input: Pipe
        let output: Pipe
        let error: Pipe
        private var buffered = Data()

        init(_ arguments: [String]) throws {
            input = Pipe()
            (process, output, error) = try BenchProcess.debug.start(arguments + ["worker"], input: input)
        }

        /// The next reply line, as a JSON object (nil at end of output).
        func next() throws -> [String: Any]? {
            while !buffered.contains(UInt8(ascii: "\n")) {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return nil }
                buffered += data
            }
            let end = buffered.firstIndex(of: UInt8(ascii: "\n"))!
            let line = buffered[buffered.startIndex..<end]
            buffered = Data(buffered[(end + 1)...])
            return try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any], "a JSON object")
        }

        /// Sends `request` and returns the reply.
        func ask(_ request: [String: Any]) throws -> [String: Any] {
            try send(JSONSerialization.data(withJSONObject: request))
            return try #require(try next(), "a reply to \(request)")
        }

        func send(_ line: Data) throws {
            try input.fileHandleForWriting.write(contentsOf: line + Data("\n".utf8))
        }

        /// Closes the worker's input and waits for it to end: its exit status.
        func finish() -> Int32 {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    @Test func setUpSampleTearDownQuit() throws {
        let worker = try Conversation(Self.options)
        let hello = try #require(try worker.next())
        #expect(hello["ok"] as? String == "hello")
        #expect(hello["protocol"] as? Int == 4)
        #expect(hello["columns"] as? [String] == ResultsSchema.header, "the CSV's header, from its one definition")

        let list = try worker.ask(["request": "list"])
        let cases = try #require(list["cases"] as? [[String: String]])
        #expect(cases.map { $0["threads"] } == ["1", "2"])
        #expect(cases.contains(Self.emptyAtTwo))

        #expect(try worker.ask(["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000])["ok"] as? String
                == "setup")
        let first = try worker.ask(["request": "sample", "samples": 2, "warmup": 1, "round": 3, "sample_ns": 1_000_000,
                                    "pair": 5, "pair_order": "second"])
        let records = try #require(first["records"] as? [[String: String]], "records: \(first)")
        #expect(records.count == 2)
        for (index, record) in records.enumerated() {
            #expect(Set(record.keys) == Set(ResultsSchema.header))
            for (column, value) in Self.emptyAtTwo { #expect(record[column] == value) }
            #expect(record["schema_version"] == String(ResultsSchema.version))
            #expect(record["sample"] == String(index))
            #expect(record["round"] == "3")
            #expect(record["pair"] == "5" && record["pair_order"] == "second")
            #expect(record["run_complete"] == "false", "the client marks the file complete, not the worker")
            #expect(record["run_rounds"] == "4" && record["run_seed"] == "9")
            #expect(record["run_samples"] == "2" && record["run_warmup"] == "1" && record["run_sample_ns"] == "1000000")
            #expect(record["build"] == "debug")
            // A sample as bench writes it: a window of at least the sample time, and its cost per operation
            // (inf when a loaded host starved the window of operations).
            let ops = try #require(Int(record["ops"] ?? ""), "\(record)")
            let elapsed = try #require(Int(record["elapsed_ns"] ?? ""), "\(record)")
            #expect(elapsed >= 1_000_000)
            #expect(record["ns_per_op"] == (ops == 0 ? "inf" : String(format: "%.4f", Double(elapsed) / Double(ops))))
        }
        // Samples count on through the case; the run's settings come from the request.
        let second = try worker.ask(["request": "sample", "samples": 1])
        let more = try #require(second["records"] as? [[String: String]])
        #expect(more.map { $0["sample"] } == ["2"])
        #expect(more.map { $0["round"] } == ["1"])
        #expect(more.map { $0["pair"] } == [""] && more.map { $0["pair_order"] } == [""], "no pair: not paired")

        #expect(try worker.ask(["request": "teardown"])["ok"] as? String == "teardown")
        #expect(try worker.ask(["request": "quit"])["ok"] as? String == "quit")
        #expect(worker.finish() == 0)
    }

    /// A setup replies the plan it calibrated; a setup given a plan takes it instead of calibrating (the odd
    /// window and batches come back unchanged, where calibration would make its own); a plan that cannot
    /// measure the case is refused, and the worker goes on.
    @Test func aSetupRepliesItsPlanAndTakesOneGiven() throws {
        let worker = try Conversation(Self.options)
        _ = try worker.next()
        let calibrated = try worker.ask(["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000])
        let plan = try #require(calibrated["plan"] as? [String: Any], "\(calibrated)")
        let timed = try #require(plan["timed"] as? [String: Any], "harness/empty runs timed: \(plan)")
        #expect((timed["batches"] as? [Int])?.count == 2)
        #expect(try worker.ask(["request": "teardown"])["ok"] as? String == "teardown")

        let given: [String: Any] = ["timed": ["batches": [7, 7], "window": 1_234_567]]
        let adopted = try worker.ask(["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000, "plan": given])
        #expect(NSDictionary(dictionary: adopted["plan"] as? [String: Any] ?? [:]) == NSDictionary(dictionary: given))
        let records = try #require(try worker.ask(["request": "sample", "samples": 1])["records"] as? [[String: String]])
        #expect(records.count == 1 && Int(records[0]["elapsed_ns"] ?? "").map { $0 >= 1_234_567 } == true,
                "a sample lasts the given window: \(records)")
        #expect(try worker.ask(["request": "teardown"])["ok"] as? String == "teardown")

        // Checked, a plan whose batches starve no thread of this build comes back as it was given (a plan that
        // does: CaseRunnerTests.anAdoptedPlanIsCheckedAgainstThisBuildsThreads).
        let checked = try worker.ask(["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000, "plan": given,
                                      "check_plan": true])
        #expect(NSDictionary(dictionary: checked["plan"] as? [String: Any] ?? [:]) == NSDictionary(dictionary: given))
        #expect(try worker.ask(["request": "teardown"])["ok"] as? String == "teardown")

        let misfits: [([String: Any], String)] = [
            (["timed": ["batches": [7, 7, 7], "window": 1_000_000]], "3 batches for 2 threads"),
            (["timed": ["batches": [7, 0], "window": 1_000_000]], "a batch must be 1 to"),
            (["lockstep": ["iterations": 5]], "a lockstep plan for a case of timed pacing"),
        ]
        for (misfit, message) in misfits {
            let reply = try worker.ask(["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000, "plan": misfit])
            let error = try #require(reply["error"] as? String, "an error for \(misfit): \(reply)")
            #expect(error.contains("the plan does not fit harness/empty/loop threads:2: \(message)"), "\(error)")
        }
        let garbled = try worker.ask(["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000,
                                      "plan": ["timed": ["batches": "many"]]])
        #expect((garbled["error"] as? String)?.contains("bad request") == true, "\(garbled)")
        #expect(try worker.ask(["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000])["ok"] as? String
                == "setup", "a refused plan leaves no case set up")
        #expect(worker.finish() == 0)
    }

    /// A setup with `team_cpus` measures as any other; a CPU the worker may not use is refused (above).
    @Test func aSetupMayPinItsTeam() throws {
        let worker = try Conversation(Self.options)
        _ = try worker.next()
        let setup = try worker.ask(["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000,
                                    "team_cpus": [allowedCPUs().first ?? 0]])
        #expect(setup["ok"] as? String == "setup", "\(setup)")
        let records = try #require(try worker.ask(["request": "sample", "samples": 1])["records"] as? [[String: String]])
        #expect(records.count == 1 && Double(records[0]["ns_per_op"] ?? "").map { $0 > 0 } == true, "\(records)")
        #expect(worker.finish() == 0)
    }

    @Test func badRequestsGetAnErrorLineAndTheWorkerGoesOn() throws {
        let worker = try Conversation(Self.options)
        _ = try worker.next()
        var unknown = Self.emptyAtTwo
        unknown["threads"] = "3"
        let refusals: [([String: Any], String)] = [
            (["request": "setup", "case": unknown, "sample_ns": 1_000_000], "unknown case: harness/empty/loop threads:3"),
            (["request": "sample", "samples": 1], "sample: no case is set up"),
            (["request": "teardown"], "teardown: no case is set up"),
            (["request": "launch"], "unknown request 'launch'"),
            (["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000, "sample_time": 2],
             "unknown field \"sample_time\""),
            (["request": "setup", "case": Self.emptyAtTwo], "setup needs \"sample_ns\""),
            (["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 10], "\"sample_ns\" must be"),
            (["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000, "team_cpus": [Int]()],
             "\"team_cpus\" must list at least one CPU"),
            (["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000,
              "team_cpus": [allowedCPUs().first ?? 0, 1 << 20]],
             "setup: \"team_cpus\": thread 1 cannot run on CPU 1048576 alone"),
        ]
        for (request, message) in refusals {
            let reply = try worker.ask(request)
            let error = try #require(reply["error"] as? String, "an error for \(request): \(reply)")
            #expect(error.contains(message), "\(error)")
        }
        try worker.send(Data("not json".utf8))
        #expect((try worker.next()?["error"] as? String)?.contains("not a JSON object") == true)
        // A request out of turn changes nothing: the case still sets up, and a second setup is refused.
        #expect(try worker.ask(["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000])["ok"] as? String
                == "setup")
        #expect((try worker.ask(["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000])["error"]
                 as? String)?.contains("already set up") == true)
        #expect(try worker.ask(["request": "sample", "samples": 1, "pair": 0])["error"] as? String
                == "\"pair\" and \"pair_order\" go together")
        #expect(try worker.ask(["request": "sample", "samples": 1, "pair": 0, "pair_order": "third"])["error"] as? String
                == "\"pair_order\" must be first or second, not 'third'")
        // End of input ends the worker, an open case and all.
        #expect(worker.finish() == 0)
        #expect(try worker.next() == nil)
    }

    /// `encode` gives exactly the text a `ResultsWriter` appends for the same rows (a field that must be quoted
    /// among them), the header only when asked; `complete` marks a file as `markRunComplete` does.
    @Test func encodeWritesAsTheResultsWriterAndCompleteMarksTheFile() throws {
        let worker = try Conversation(Self.options)
        let columns = try #require(try worker.next()?["columns"] as? [String])
        #expect(try worker.ask(["request": "setup", "case": Self.emptyAtTwo, "sample_ns": 1_000_000])["ok"] as? String
                == "setup")
        var records = try #require(try worker.ask(["request": "sample", "samples": 3])["records"] as? [[String: String]])
        #expect(try worker.ask(["request": "teardown"])["ok"] as? String == "teardown")
        records[0]["host"] = "a \"host\", with\nlines"

        let written = BenchProcess.temporaryPath("writer")
        let encoded = BenchProcess.temporaryPath("encoded")
        defer { for path in [written, encoded] { try? FileManager.default.removeItem(atPath: path) } }
        let writer = try ResultsWriter(path: written, environment: Self.environment, settings: Self.settings)
        var text = ""
        for (index, part) in [records.prefix(2), records.suffix(1)].enumerated() {
            try writer.append(rows: part.map { record in columns.map { record[$0]! } }, header: columns)
            let reply = try worker.ask(["request": "encode", "columns": columns, "records": Array(part),
                                        "header": index == 0])
            text += try #require(reply["csv"] as? String, "\(reply)")
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: encoded))
        #expect(FileManager.default.contents(atPath: encoded) == FileManager.default.contents(atPath: written),
                "the worker's text is the writer's, byte for byte")
        #expect(text.contains("\"a \"\"host\"\", with\nlines\""), "a field with a quote, a comma and a line quoted")

        #expect(try worker.ask(["request": "complete", "path": encoded])["marked"] as? Bool == true)
        try ResultsWriter.markRunComplete(path: written)
        let marked = try CSVFormat.decode(String(decoding: FileManager.default.contents(atPath: encoded)!, as: UTF8.self))
        #expect(marked.count == 4 && marked.dropFirst().allSatisfy {
            $0[columns.firstIndex(of: ResultsSchema.runCompleteColumn)!] == ResultsSchema.runCompleted
        })
        #expect(FileManager.default.contents(atPath: encoded) == FileManager.default.contents(atPath: written))

        let headerOnly = try worker.ask(["request": "encode", "columns": columns, "records": [[String: String]](),
                                         "header": true])
        try #require(headerOnly["csv"] as? String).write(toFile: encoded, atomically: true, encoding: .utf8)
        #expect(try worker.ask(["request": "complete", "path": encoded])["marked"] as? Bool == false,
                "a file of no rows stays as it is")

        let refusals: [([String: Any], String)] = [
            (["request": "encode", "columns": ["a", "b"], "records": [["a": "1"]]],
             "encode: record 0 does not have exactly the columns given"),
            (["request": "encode", "columns": ["a", "a"], "records": [[String: String]]()], "none twice"),
            (["request": "encode", "records": [[String: String]]()], "encode needs \"columns\" and \"records\""),
            (["request": "complete"], "complete needs \"path\""),
            (["request": "complete", "path": encoded + ".missing"], "cannot mark \(encoded).missing complete"),
        ]
        for (request, message) in refusals {
            let error = try #require(try worker.ask(request)["error"] as? String, "an error for \(request)")
            #expect(error.contains(message), "\(error)")
        }
        #expect(worker.finish() == 0)
    }

    static let environment = RunEnvironment(
        runID: "run-1", startedAt: "2026-11-21T23:45:01Z", commit: "0123456789abcdef0123456789abcdef01234567",
        dirty: .clean, host: "host", os: "Linux", kernel: "6.1.0", cpuModel: "cpu", logicalCPUs: 2,
        swiftVersion: "6.3", build: "debug", allocator: "system", loadAverage1m: nil, benchVersion: "0")
    static let settings = RunSettings(
        measurement: MeasurementSettings(sampleNanoseconds: 1_000_000, samples: 1, warmupSamples: 0), threads: "1")

    /// The worker dies with the process that started it; an ordinary child (`sleep`, the negative control)
    /// outlives it, so the check can fail.
    @Test func theWorkerDiesWithItsParent() throws {
        let bench = BenchProcess.debug.executable.path
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        // An asynchronous command's input is /dev/null unless redirected: the worker keeps the shell's.
        shell.arguments = ["-c", "exec 3<&0; \"$0\" --filter ^harness/empty/ worker <&3 & echo $!; "
                           + "sleep 60 & echo $!; wait", bench]
        let input = Pipe(), output = Pipe()
        shell.standardInput = input
        shell.standardOutput = output
        try shell.run()
        var text = ""
        while !text.contains("\"hello\"") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let pids = text.split(separator: "\n").compactMap { Int32($0) }
        try #require(pids.count == 2, "the two children's pids: \(text)")
        let (worker, sleeper) = (pids[0], pids[1])
        defer {
            kill(sleeper, SIGKILL)
            kill(worker, SIGKILL)  // when the check failed
            shell.waitUntilExit()  // only after the sleeper is gone: Foundation waits for the shell's output to close
        }
        kill(shell.processIdentifier, SIGKILL)
        let deadline = Date().addingTimeInterval(30)
        while Self.isRunning(worker) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!Self.isRunning(worker), "the worker outlived its parent")
        #expect(Self.isRunning(sleeper), "an ordinary child outlives its parent")
    }

    /// Whether `pid` is a live process (not gone, not a zombie waiting to be reaped).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }
}
