@testable import BenchCommandLine
import BenchCore
import BenchSuites
import Foundation
import Testing
import VariantRegistration

/// Issue 14 (15): `--threads` applies to every case, those written for fixed thread counts included.
@Suite struct ThreadListTests {
    /// The cases `bench --list` prints for `arguments`, without the count line.
    func listed(_ arguments: [String]) async throws -> [Substring] {
        let outcome = try await BenchProcess.debug.run(["--list"] + arguments)
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        return outcome.standardOutput.split(separator: "\n").dropLast()
    }

    @Test func oneThreadRunsNoCaseAtAnotherCount() async throws {
        let cases = try await listed(["--threads", "1"])
        #expect(!cases.isEmpty)
        #expect(cases.allSatisfy { $0.split(separator: " ").contains("threads:1") }, "\(cases)")
        #expect(!cases.contains { $0.hasPrefix("once/race/") }, "once/race runs at 2 and 8 threads only")
        #expect(!cases.contains { $0.hasPrefix("wait/handoff/") }, "a handoff needs 2 threads")
        #expect(cases.contains { $0.hasPrefix("once/first/") }, "once/first runs at 1 (and 4) threads")
    }

    @Test func aFixedCountRunsWhenTheListNamesIt() async throws {
        let cases = try await listed(["--threads", "8", "--filter", "^once/(race|first)/", "--no-controls"])
        #expect(!cases.isEmpty)
        #expect(cases.allSatisfy { $0.hasPrefix("once/race/") && $0.split(separator: " ").contains("threads:8") })
    }

    /// The default list names every fixed count, so a default run measures every case it always did.
    @Test func theDefaultListCoversEveryFixedCount() async throws {
        let defaults = try Bench.parse([]).threads.counts
        for benchmark in Registrations.registry(adding: []).benchmarks {
            if case .fixed(let counts) = benchmark.threadCounts {
                #expect(Set(counts).isSubset(of: defaults), "\(benchmark.suite)/\(benchmark.name): \(counts)")
            }
        }
        let cases = try await listed([])
        for expected in ["once/race/array-tracker threads:8", "once/race/array-tracker threads:2",
                         "once/first/array-tracker threads:4"] {
            #expect(cases.contains { $0.hasPrefix(expected) }, "\(expected)")
        }
    }

    /// The list is parsed once, as the arguments are read: the command holds counts, duplicates dropped and order
    /// kept, and records them as such; `bench stress` reads the same option with its own default.
    @Test func theArgumentsHoldTheParsedList() throws {
        let bench = try Bench.parse(["--threads", "4, 1,4,16"])
        #expect(bench.threads == ThreadList(4, 1, 16))
        #expect(bench.threads.description == "4,1,16")
        #expect(try bench.runSettings().threads == "4,1,16")
        #expect(try Bench.parse([]).threads == Bench.defaultThreads)
        #expect(Bench.defaultThreads.description == "1,2,4,8")
        let stress = try #require(try Bench.parseAsRoot(["stress", "--threads", "2,8"]) as? Bench.Stress)
        #expect(stress.threads == ThreadList(2, 8))
        let stressDefault = try #require(try Bench.parseAsRoot(["stress"]) as? Bench.Stress)
        // Issue 72: the stress default comes from the CPUs: 1, every CPU, and twice them (oversubscribed).
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        #expect(stressDefault.threads == ThreadList(forCPUs: cpus))
        #expect(ThreadList(forCPUs: 2).counts == [1, 2, 4])
        #expect(ThreadList(forCPUs: 1).counts == [1, 2])
        #expect(ThreadList(forCPUs: 8).counts == [1, 8, 16])
    }

    /// A list that is not one is refused while the arguments are read, before any command runs; the control, a
    /// good list, is not.
    @Test(arguments: ["0", "a,b", "1,,2", "513", "1,-4", "2.5"])
    func aBadListIsRefusedAsTheArgumentsAreRead(_ list: String) {
        #expect(throws: (any Error).self) { try Bench.parseAsRoot(["--threads", list]) }
        #expect(throws: (any Error).self) { try Bench.parseAsRoot(["stress", "--threads", list]) }
        #expect(throws: Never.self) { try Bench.parseAsRoot(["--threads", "1,512"]) }
    }

    @Test func helpSaysSo() async throws {
        let help = try await BenchProcess.debug.run(["--help"]).standardOutput
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("run only at those of their counts the list names; the default "
                              + "(\(Bench.defaultThreads)) names them all"))
    }
}
