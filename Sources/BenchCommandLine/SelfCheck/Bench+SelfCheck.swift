import ArgumentParser
import BenchCore
import BenchResults
import BenchSuites
import CSyncSupport
import Foundation
import VariantRegistration

extension Bench {
    /// Checks the harness against what it should reproduce: a hand-written loop, and its own floor.
    struct SelfCheck: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "self-check",
            abstract: "Compare the harness with hand-written timing loops on this machine (nothing is written).",
            discussion: """
            Each check is graded PASS or FAIL against its tolerance:

            mutex-pair: an uncontended pthread_mutex_lock/unlock pair through the harness and in a hand-written \
            loop of 10 million pairs (±\(Int(mutexPairTolerance * 100))%). The harness runs first: glibc's mutex \
            skips its atomic `lock` prefix while a process has a single thread, so a loop run before any thread \
            exists would time a cheaper mutex than any benchmark sees.

            pthread-once: a pthread-once hit through the harness against a bare pthread_once on a done control \
            (\(SelfCheckResult.bandDescription(pthreadOnceBand)): a hit costs what pthread_once costs, at most 30% \
            more; as low as half, because where the linker and the allocator put two loops of a nanosecond and a \
            half moves them by a third, while a call the optimizer removed would cost a fifth). Each is measured \
            in turns on new threads (made as the harness makes its workers) until the 95% interval of their ratio \
            decides (at most \(pthreadOnceTurnsAtEachLook.last!) turns each).

            sample-length: the harness cases, every once hit at tokens=1 and the lock-based isolation stores at \
            read_pct 0 and 100, at 1, 2 and 8 threads, each measured on one thread team in turns of 50 ms: one \
            50 ms sample, then 25 samples of 2 ms, and again. Graded: the ratio of the 2 ms turns' pooled cost \
            (their wall time over their operations) to the 50 ms turns', with its 95% interval (Hodges-Lehmann, \
            distribution-free). A case passes when the whole interval is within ±\(Int(sampleLengthTolerance * 100))%, \
            fails when it is wholly beyond; otherwise more turns follow (looks after \
            \(pairsAtEachLook.map(String.init).joined(separator: ", ")) pairs), and a case still undecided after \
            the last look is not passed: its turns moved too much to tell. The cases that needed more than one look \
            are listed. Pooled, not median: a contended lock runs in millisecond phases, so the median of 2 ms \
            windows is that of the fast phase, while 50 ms windows each average over phases.

            fairness: the least median fairness of the read-only hit paths (lazy-static, atomic-flag, \
            pthread-once) at 8 threads with 2 ms samples, each measured for 150 ms on one launch of its threads \
            (at least \(minimumFairness)).

            Then the harness floor (empty loop, opaque call, static let read), and a last line with the verdict. \
            Exits 1 when a check failed. Use a release build on a quiet machine. More: docs/running.md.

            Progress goes to stderr: first the plan, with the least and most time the sweep spends in samples (its \
            cases decided at the first look, or at the last), then a line as each check starts and as each case \
            of the sweep is decided, with a rough estimate of the time left.
            """
        )

        static let handWrittenPairs = 10_000_000
        static let repetitions = 7
        /// How far the harness's mutex pair may be from the hand-written loop's, either way: a harness that added
        /// a clock read (a few tens of ns) or a call to each operation of a pair that costs about ten would be
        /// far outside it, while a harness that adds nothing falls well within it.
        static let mutexPairTolerance = 0.10

        /// The checks, run in this order, each measuring what it compares and grading itself, under the name its
        /// progress line gives. Add a check by appending a function that returns its `SelfCheckResult`.
        static let checks: [(name: String, run: @Sendable (SelfCheck) throws -> [SelfCheckResult])] = [
            ("mutex-pair", { [try $0.mutexPair()] }),
            ("pthread-once", { [try $0.pthreadOnce()] }),
            ("sample-length and fairness", { try $0.sampleLength() }),
        ]

        /// The line on stderr before anything is measured: what runs, and how long the sample-length sweep, which
        /// takes nearly all the time, spends in timed samples at least and at most (`sweepSeconds`).
        static func plan(_ cases: [BenchmarkCase]) -> String {
            let sweep = sweepSeconds(cases)
            return "\(ProgramName.current) self-check: \(plural(checks.count, "check")), nearly all the time in "
                + "the sample-length sweep: \(plural(cases.count, "case")), each \(pairsAtEachLook.first!) to "
                + "\(pairsAtEachLook.last!) pairs of turns until decided, \(Progress.duration(sweep.lowerBound)) "
                + "to \(Progress.duration(sweep.upperBound)) of samples plus calibration (docs/running.md: a "
                + "measured time)"
        }

        /// What a pthread-once hit through the harness may cost over a bare `pthread_once` on a done control: up
        /// to 30% more (the variant adds a bounds check and one thread-local store to the call, the harness its
        /// loop), down to half (where two loops of a nanosecond and a half are placed moves them by a third).
        static let pthreadOnceBand = 0.5...1.3

        @Option(name: .long, help: "Repetitions of each measurement; the median is reported.")
        var repetitions = SelfCheck.repetitions

        func validate() throws {
            guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1, not \(repetitions)") }
        }

        func run() throws {
            if RunEnvironment.buildIsDebug {
                warn("WARNING: debug build; use swift run -c release \(ProgramName.current) self-check")
            }
            warn(Self.plan(Self.sampleLengthCases().map(\.benchmarkCase)))
            var results: [SelfCheckResult] = []
            for (index, check) in Self.checks.enumerated() {
                warn("[\(index + 1)/\(Self.checks.count)] \(check.name)")
                for result in try check.run(self) {
                    print(result.line)
                    fflush(nil)  // each check's line as it is graded, when stdout is a pipe too
                    results.append(result)
                }
            }
            print("harness floor (for reference, not graded):")
            for path in ["harness/empty/", "harness/opaque-call/", "harness/lazy-static/"] {
                let name = path.padding(toLength: 24, withPad: " ", startingAt: 0)
                print("  \(name)\(String(format: "%.3f", try harnessMedian(path))) ns/op")
            }
            let verdict = SelfCheckVerdict(results)
            print(verdict.line)
            if !verdict.passed { throw ExitCode(ExitStatus.checkFailed) }
        }

        /// An uncontended pthread mutex lock/unlock pair, through the harness and in a hand-written loop.
        ///
        /// The harness runs on worker threads, and glibc's mutex drops its `lock` prefix while a process has
        /// only one thread: the harness is measured first, so that the hand-written loop runs in a process that
        /// has threads, as every benchmark does.
        func mutexPair() throws -> SelfCheckResult {
            let harness = try harnessMedian("harness/mutex-pair/")
            let handWritten = Statistics((0..<repetitions).map { _ in Self.handWrittenMutexPair() })!
            return .agreement(
                "mutex-pair",
                reference: .init(label: "hand-written loop", nanoseconds: handWritten.median),
                measured: .init(label: "harness", nanoseconds: harness),
                tolerance: Self.mutexPairTolerance)
        }

        /// A `pthread-once` hit through the harness against a bare `pthread_once` on a done control: a hit costs
        /// what `pthread_once` costs, at most 30% more (the variant adds a bounds check and one thread-local store).
        ///
        /// Each is measured in turns, each turn on a new thread (the harness on a new team), until the `CostRatio`
        /// decides or the last look is reached. The band is one-sided in spirit: plumbing (a library call, a
        /// `pthread_setspecific`) can only add cost. Below 1 is where the two loops were placed: the same code
        /// has read 0.67–1.00 from one build to the next, with tight intervals. The lower bound, half the bare
        /// call, catches what a plumbing check would miss: a call the optimizer removed (a hit without it costs
        /// a fifth of the call).
        ///
        func pthreadOnce() throws -> SelfCheckResult {
            var harness: [Double] = [], bare: [Double] = []
            for turns in 1...Self.pthreadOnceTurnsAtEachLook.last! {
                harness.append(try harnessMedian("once/hit/pthread-once"))
                bare.append(Self.onThreadOfItsOwn(Self.handWrittenPthreadOnce))
                guard Self.pthreadOnceTurnsAtEachLook.contains(turns) else { continue }
                let ratio = CostRatio(measured: harness, reference: bare)
                if ratio.verdict(band: Self.pthreadOnceBand) != .undecided { break }
            }
            return .ratio("pthread-once", measured: ("harness", harness), reference: ("bare pthread_once", bare),
                          band: Self.pthreadOnceBand)
        }

        /// After how many turns of each (the harness, then the bare loop) the pthread-once check looks.
        static let pthreadOnceTurnsAtEachLook = [4, 8, 16]

        /// Runs `loop` on a new thread made as the harness makes its workers (a `ThreadTeam` of one) and returns
        /// what it measured. Where a thread's stack falls decides which level a one-thread hit path sits on, so a
        /// plain loop on a thread with Foundation's default stack would not measure what the harness's threads do.
        static func onThreadOfItsOwn(_ loop: @escaping @Sendable () -> Double) -> Double {
            final class Result: @unchecked Sendable { var value = 0.0 }
            let result = Result(), thread = ThreadTeam(count: 1, name: "bench-plain-loop")
            defer { thread.shutdown() }
            thread.run { _ in result.value = loop() }
            return result.value
        }

        /// ns per call of a plain loop of `pthread_once` on a control whose routine has run.
        static func handWrittenPthreadOnce() -> Double {
            let control = UnsafeMutablePointer<pthread_once_t>.allocate(capacity: 1)
            control.initialize(to: pthread_once_t())
            defer { control.deallocate() }
            pthread_once(control) {}
            let started = MonotonicClock.now()
            for _ in 0..<handWrittenPairs { pthread_once(control) {} }
            return Double(MonotonicClock.now() - started) / Double(handWrittenPairs)
        }

        /// ns per pair of a plain loop, one clock read before and one after.
        static func handWrittenMutexPair() -> Double {
            let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
            defer {
                pthread_mutex_destroy(mutex)
                mutex.deallocate()
            }
            let started = MonotonicClock.now()
            for _ in 0..<handWrittenPairs {
                pthread_mutex_lock(mutex)
                pthread_mutex_unlock(mutex)
            }
            return Double(MonotonicClock.now() - started) / Double(handWrittenPairs)
        }

        /// The median ns/op of the one-thread case whose path starts with `prefix`, with standard settings.
        func harnessMedian(_ prefix: String) throws -> Double {
            guard let (benchmarkCase, benchmark) = Registrations.registry()
                .cases(threads: [1], matching: { $0.hasPrefix(prefix) }).first
            else { throw BenchError("no harness case \(prefix)") }
            let settings = MeasurementSettings(sampleNanoseconds: 10_000_000, samples: repetitions * 2, warmupSamples: 2)
            let results = try CaseRunner(settings: settings).measure(benchmarkCase, workload: benchmark.setup(benchmarkCase))
            return results[0].nanosecondsPerOperation!.median
        }
    }
}
