@testable import BenchCommandLine
@testable import BenchResults
import Foundation
import Testing

/// Whether valgrind and jemalloc's library are on this machine.
private let countToolsInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind")
    && (try? String(contentsOfFile: "/etc/ld.so.cache", encoding: .isoLatin1))?.contains("libjemalloc.so.2") == true

/// `bench count` against answers known in advance: cases that allocate exactly k objects per operation, a case
/// that runs exactly 16 more instructions per operation, hit paths that allocate nothing and keep their check in
/// the loop, and two runs that must count the same. Runs the release build under valgrind and jemalloc, which
/// `.ci/run` installs; skipped where either is missing.
@Suite(.serialized, .enabled(if: countToolsInstalled, "needs valgrind and libjemalloc2"))
struct CountTests {
    static let filter = "^harness/(allocate|nops|empty|lazy-static)|^once/hit/(lazy-static|atomic-flag|dispatch-once-inline)"

    /// One `bench count` of the known cases (`filter`), made once and read by every test that needs their counts
    /// (counts are exact, so a second count of the same binary adds nothing but its minutes under valgrind).
    static let reference = Task { try await count() }

    /// One `bench count` of the known cases, as rows keyed by `variant params`.
    static func count(filter: String = filter, _ options: [String] = []) async throws -> [String: [String: String]] {
        try await countRun(filter: filter, options).rows
    }

    /// One `bench count` under `environment` changes: its rows keyed by `variant params`, and its stderr.
    static func countRun(filter: String = filter, _ options: [String] = [], environment: [String: String?] = [:])
        async throws -> (rows: [String: [String: String]], standardError: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("count-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("counts.csv").path
        let bench = BenchProcess.release.exists ? BenchProcess.release : BenchProcess.debug
        let outcome = try await bench.run(options + ["count", "--filter", filter, "--iterations", "200",
                                                     "--output", output], environment: environment)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let rows = try CSVFormat.decode(String(contentsOfFile: output, encoding: .utf8))
        let header = try #require(rows.first)
        #expect(header == CountsSchema.header)
        var byCase: [String: [String: String]] = [:]
        for row in rows.dropFirst() {
            let fields = Dictionary(uniqueKeysWithValues: zip(header, row))
            #expect(fields["run_complete"] == "true", "the run completed")
            byCase["\(fields["benchmark"]!)/\(fields["variant"]!) \(fields["params"]!)"] = fields
        }
        return (byCase, outcome.standardError)
    }

    /// `--functions` names, for each counted case, the functions its loop ran: the variant's own `once` for
    /// `atomic-flag`, and not for `lazy-static`, which never calls it (the control). What the process ran before
    /// the first case is named too: the registration of the variants, and not a case's own work (the variant's
    /// initializer, which its case runs).
    @Test func functionsFileNamesWhatEachCaseRan() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("functions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let functions = directory.appendingPathComponent("functions.tsv").path
        let bench = BenchProcess.release.exists ? BenchProcess.release : BenchProcess.debug
        let outcome = try await bench.run(["count", "--filter", "^once/hit/(atomic-flag|lazy-static)$", "--quick",
                                           "--output", directory.appendingPathComponent("c.csv").path,
                                           "--functions", functions])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = try String(contentsOfFile: functions, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "case\tfunction")
        var byCase: [String: Set<String>] = [:]
        for line in lines.dropFirst() {
            let fields = line.split(separator: "\t")
            byCase[String(fields[0]), default: []].insert(String(fields[1]))
        }
        // The mangled name of a member of AtomicFlagOnce holds its length-prefixed type name.
        func runsAtomicFlag(_ name: String) -> Bool { byCase[name]?.contains { $0.contains("14AtomicFlagOnce") } == true }
        #expect(runsAtomicFlag("once/hit/atomic-flag threads:1 tokens:1"))
        #expect(!runsAtomicFlag("once/hit/lazy-static threads:1 tokens:1"))
        #expect(byCase["once/hit/lazy-static threads:1 tokens:1"]?.isEmpty == false)
        let startUp = byCase[CallgrindDumps.startUp] ?? []
        #expect(startUp.contains { $0.contains("19VariantRegistration") }, "the start-up registers the variants")
        let initializer = "14AtomicFlagOnceC5count"
        #expect(!startUp.contains { $0.contains(initializer) })
        #expect(byCase["once/hit/atomic-flag threads:1 tokens:1"]?.contains { $0.contains(initializer) } == true)
        #expect(!byCase.values.joined().contains { $0.contains("'") }, "no recursion marks")
    }

    @Test func callgrindNamesAreReadWhereverTheyAreCompressed() {
        let dump = "fn=(1) first\n0 5\ncfn=(2) second'2\ncalls=1 0\nfn=(2)\nfn=(1)\nfn=(3) third\n"
        #expect(CallgrindDumps.functions(dump) == ["first", "second", "third"])
    }

    /// Repeatable too: the counts of a second run, with the caller's preload cleared, are these
    /// (`theCallersPreloadAndMallocSettingsDoNotChangeTheCounts`), and so are those of os-lock, whose count once
    /// depended on where the process was loaded, in two runs
    /// (`CountDependenceTests.aCaseCountsTheSameAloneAndBesideOthers`).
    @Test func countsAreExact() async throws {
        let first = try await Self.reference.value
        for (objects, name) in [(0, "allocate/object objects=0"), (1, "allocate/object objects=1"),
                                (3, "allocate/object objects=3")] {
            let row = try #require(first[name])
            #expect(Double(row["allocations_per_op"]!) == Double(objects), "\(name)")
        }
        let empty = try #require(first.first { $0.key.hasPrefix("empty/loop") }?.value)
        // harness/lazy-static is the read of a `static let` alone, through the harness.
        for name in ["lazy-static/static-let ", "hit/lazy-static tokens=1", "hit/atomic-flag tokens=1",
                     "hit/dispatch-once-inline tokens=1"] {
            let row = try #require(first[name])
            #expect(Double(row["allocations_per_op"]!) == 0, "\(name)")
            // The hit's check stays in the loop, once per call: an optimizer that hoisted it out of the loop (the
            // variants' `once` is inlinable) would count the empty loop's instructions.
            let extra = Double(row["instructions_per_op"]!)! - Double(empty["instructions_per_op"]!)!
            #expect(extra >= 1, "\(name): \(extra) instructions per operation more than an empty loop")
        }
        let nops = try #require(first["nops/asm nops=16"]), none = try #require(first["nops/asm nops=0"])
        // 16 more per operation; the two loops' set-up may differ by a few instructions, never by an iteration's.
        let extra = Int(nops["instructions"]!)! - Int(none["instructions"]!)!, operations = Int(nops["operations"]!)!
        #expect(abs(extra - 16 * operations) < 16, "\(extra) extra instructions over \(operations) operations")
    }

    /// Issue 20 (2): a preloaded library that changes the allocator (glibc's malloc debugging) changes nothing
    /// counted: the passes run without the caller's LD_PRELOAD and MALLOC_*, and the run says so. Its cases count
    /// as they did in the reference run, another run of the same binary without them.
    @Test func theCallersPreloadAndMallocSettingsDoNotChangeTheCounts() async throws {
        let debugMalloc = "/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0"
        try #require(FileManager.default.fileExists(atPath: debugMalloc), "glibc's malloc debugging library")
        let (preloaded, standardError) = try await Self.countRun(
            filter: "^harness/(empty|allocate)", environment: ["LD_PRELOAD": debugMalloc, "MALLOC_PERTURB_": "165"])
        #expect(standardError.contains("counting without LD_PRELOAD, MALLOC_PERTURB_ from this environment"))
        let clean = try await Self.reference.value.filter { preloaded[$0.key] != nil }
        #expect(clean.count == 4 && preloaded.count == 4, "empty and allocate at 0, 1 and 3 objects: \(preloaded.keys)")
        for key in ["instructions", "allocations"] {
            #expect(preloaded.mapValues { $0[key] } == clean.mapValues { $0[key] }, "\(key) changed")
        }
    }

    @Test func onlyVariablesThatChangeCountsAreCleared() {
        let (environment, cleared) = CountPasses.countedEnvironment(
            ["LD_PRELOAD": "x.so", "MALLOC_ARENA_MAX": "1", "GLIBC_TUNABLES": "glibc.malloc.tcache_count=0",
             "JE_MALLOC_CONF": "junk:true", "PATH": "/usr/bin", "HOME": "/root", "LD_LIBRARY_PATH": "/opt/lib",
             "MALLOC": "kept: not a prefix match", "LD_AUDIT": ""])
        #expect(Set(cleared) == ["LD_PRELOAD", "MALLOC_ARENA_MAX", "GLIBC_TUNABLES", "JE_MALLOC_CONF"])
        #expect(environment == ["PATH": "/usr/bin", "HOME": "/root", "LD_LIBRARY_PATH": "/opt/lib",
                                "MALLOC": "kept: not a prefix match"], "an empty LD_AUDIT goes too, unnamed")
    }

    @Test func quickCountsAHundredIterations() async throws {
        let output = BenchProcess.temporaryPath("count-quick")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let bench = BenchProcess.release.exists ? BenchProcess.release : BenchProcess.debug
        let outcome = try await bench.run(["count", "--filter", "^harness/empty", "--quick", "--output", output])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let rows = try CSVFormat.decode(String(contentsOfFile: output, encoding: .utf8))
        let iterations = try #require(rows.first?.firstIndex(of: "iterations"))
        #expect(rows.dropFirst().map { $0[iterations] } == ["100"])
    }

    @Test func missingToolsAreNamedWithHowToInstallThem() async throws {
        let bench = BenchProcess.release.exists ? BenchProcess.release : BenchProcess.debug
        let outcome = try await bench.run(["count", "--filter", "^harness/empty"], environment: ["PATH": "/nonexistent"])
        #expect(outcome.status == 69)
        #expect(outcome.errorLines.contains { $0.contains("valgrind") && $0.contains("apt-get install valgrind") })
    }
}

/// What a count depends on: its case alone, not the other cases the run selected, and of the run's settings only
/// those that change the case's work. A suite of its own, serialized as `CountTests` is, so that the valgrind runs of
/// the two go two at a time beside the other suites rather than one after another at the end of `swift test`.
@Suite(.serialized, .enabled(if: countToolsInstalled, "needs valgrind and libjemalloc2"))
struct CountDependenceTests {
    /// A case's counts do not depend on which other cases the run selected: each is counted in processes of its
    /// own. The subject, once/hit/os-lock, counted in one process with the others before that, 1,247.45
    /// instructions per operation at 10 tokens alone and 1,255.45 with the wait suite selected too (its cases come
    /// after, so what differed is what the process did before the case: selecting another list of cases)
    /// (docs/findings/2026-11-28-counts-alone.md). Every parameter is compared. Two runs, so it also shows that a
    /// case whose count once depended on where the process was loaded counts the same in two processes.
    @Test func aCaseCountsTheSameAloneAndBesideOthers() async throws {
        let alone = try await CountTests.count(filter: "^once/hit/os-lock$")
        let beside = try await CountTests.count(filter: "^wait/|^once/hit/os-lock$")
        #expect(alone.count == 5, "once/hit/os-lock at 5 token counts: \(alone.keys.sorted())")
        for key in ["instructions", "allocations", "operations"] {
            #expect(alone.mapValues { $0[key]! } == beside.filter { alone[$0.key] != nil }.mapValues { $0[key]! },
                    "\(key) of once/hit/os-lock alone and beside others")
        }
    }

    /// `--spin-scale` changes harness/spin's work and nothing else: each step of scale adds exactly the same
    /// instructions per operation (the loop's steps), at least one per step.
    @Test func theSpinScaleChangesTheSpinLoopsWorkExactly() async throws {
        var operations = 0
        func instructions(scale: String) async throws -> Int {
            let row = try #require(try await CountTests.count(filter: "^harness/spin/", ["--spin-scale", scale])["spin/loop "])
            operations = Int(row["operations"]!)!
            return Int(row["instructions"]!)!
        }
        let one = try await instructions(scale: "1")
        let two = try await instructions(scale: "2")
        let three = try await instructions(scale: "3")
        #expect(two - one == three - two, "\(one), \(two), \(three) instructions")
        #expect(two - one >= 300 * operations,
                "300 more steps per operation at scale 2: \(two - one) more instructions over \(operations) operations")
    }
}
