import BenchCore
@testable import BenchCommandLine
import Foundation
import StressChecks
import SyncVariants
import Testing
import VariantRegistration

extension NSLock: ExclusiveLock {}

/// A store behind a lock that cannot be taken without it: a `LockStore` and no more.
final class NSLockDictionary: LockStore, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: IdentityModel]

    init(preloading models: [IdentityModel]) {
        entries = Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    func read(_ id: String) -> IdentityModel? { lock.withLock { entries[id] } }
    func write(_ model: IdentityModel) { lock.withLock { entries[model.id] = model } }
}

/// A variant brought from outside joins its suite as a built-in one does, and a clashing or malformed id is refused.
struct VariantRegistrationTests {
    /// The cases of `variant` whose path starts with `prefix`, as `benchmark threads params` without the id.
    static func shapes(_ variant: String, under prefix: String = "isolation/", in registry: BenchmarkRegistry)
        -> [String] {
        registry.cases(threads: [1, 2, 4, 8]) { $0.hasPrefix(prefix) && $0.hasSuffix("/\(variant)") }
            .map { "\($0.benchmarkCase.benchmark) \($0.benchmarkCase.threads) \($0.benchmarkCase.parameterString())" }
    }

    static func isolationShapes(_ variant: String, in registry: BenchmarkRegistry) -> [String] {
        shapes(variant, in: registry)
    }

    /// Each family's factory joins the same cases as a built-in variant of the same shape.
    @Test func everyFamilyJoinsAsItsBuiltInVariantsDo() throws {
        let brought = try Registrations.checked([
            .once("my-string-once", SetTrackerOnce.self),
            .once("my-index-once", AtomicFlagOnce.self),
            .fanOut("my-fan-out") { GroupWaitFanOut() },
            .throttle("my-throttle") { SemaphoreLimitThrottle(limit: $0) },
            .handoff("my-handoff") { SemaphoreHandoff() },
            .actorStore("my-actor", ActorStore.self),
            .throttle("my-serial", limits: [1]) { _ in SerialWorkerThrottle() },
            .lockStore("my-mutex", MutexStore.self),
        ])
        let registry = Registrations.registry(adding: brought)
        for (mine, builtIn, prefix) in [
            ("my-string-once", "set-tracker", "once/"), ("my-index-once", "atomic-flag", "once/"),
            ("my-fan-out", "group-wait", "wait/fan-out/"), ("my-throttle", "semaphore-limit", "wait/throttle/"),
            ("my-handoff", "semaphore", "wait/handoff/"), ("my-actor", "actor", "isolation/"),
            ("my-serial", "serial-worker", "wait/throttle/"), ("my-mutex", "mutex", "isolation/"),
        ] {
            let shapes = Self.shapes(mine, under: prefix, in: registry)
            #expect(!shapes.isEmpty, "\(mine)")
            #expect(shapes == Self.shapes(builtIn, under: prefix, in: registry), "\(mine) against \(builtIn)")
        }
    }

    /// The stress checks run on what is brought: sound types pass them, and each family's broken control, brought
    /// the same way, is caught in its first iteration.
    @Test func broughtWaitersAndOncesAreStressChecked() async throws {
        let sound = try Registrations.checked([
            .once("my-once", SetTrackerOnce.self),
            .fanOut("my-fan-out") { GroupWaitFanOut() },
            .throttle("my-throttle") { SemaphoreLimitThrottle(limit: $0) },
        ]).flatMap(\.stressCases)
        #expect(sound.map(\.name) == ["once/my-once/race", "wait/fan-out/my-fan-out/exactly-once",
                                      "wait/fan-out/my-fan-out/timeout", "wait/throttle/my-throttle/limit"])
        for check in sound {
            let counts = await onPlainThread { check.iteration(2) }
            #expect(counts.forbidden == 0 && !counts.counts.isEmpty, "\(check.name): \(counts.sorted)")
        }
        let broken = try Registrations.checked([
            .once("broken-once", UnsyncedTrackerOnce.self),
            .fanOut("broken-fan-out") { EarlyReturnFanOut() },
            .throttle("broken-throttle") { SignalEarlyThrottle(limit: $0) },
        ]).flatMap(\.stressCases)
        for check in broken {
            let counts = await onPlainThread { check.iteration(2) }
            #expect(counts.forbidden > 0, "\(check.name) missed a broken variant: \(counts.sorted)")
        }
    }

    @Test func aBroughtLockStoreWithoutABareLockSkipsTheCounter() throws {
        let brought = try Registrations.checked([.lockStore("ns-lock-dictionary", NSLockDictionary.self)])
        let registry = Registrations.registry(adding: brought)
        let shapes = Self.isolationShapes("ns-lock-dictionary", in: registry)
        #expect(!shapes.isEmpty)
        // A store brings no lock that can be taken without it, so it does not join `counter`, which `mutex` does.
        #expect(shapes == Self.isolationShapes("mutex", in: registry).filter { !$0.hasPrefix("counter ") })
    }

    @Test func aPlainLockJoinsWithoutAStore() throws {
        let brought = try Registrations.checked([.lock("ns-lock") { NSLock() }])
        #expect(brought[0].module == "VariantRegistrationTests")
        let registry = Registrations.registry(adding: brought)
        #expect(Self.isolationShapes("ns-lock", in: registry) == Self.isolationShapes("mutex", in: registry))
        // The contended lock, swift-nio's lock benchmark, at the thread counts of the built-in locks.
        #expect(Self.isolationShapes("ns-lock", in: registry).filter { $0.hasPrefix("counter ") }.count == 4)
    }

    /// `--list` marks a brought-in case with its module, which scripts/bench-commits reads to learn which cases
    /// are a package's own; a built-in case carries no mark.
    @Test func theListMarksBroughtInCasesWithTheirModule() throws {
        let brought = try Registrations.checked([.lock("ns-lock") { NSLock() }])
        let cases = Registrations.registry(adding: brought).cases(threads: [1]) { $0.hasPrefix("isolation/mixed/") }
            .map(\.benchmarkCase)
        let lines = cases.map(Bench.listLine)
        let mine = lines.filter { $0.hasPrefix("isolation/mixed/ns-lock ") }
        #expect(!mine.isEmpty && mine.allSatisfy { $0.hasSuffix(" from:VariantRegistrationTests") })
        let builtIn = lines.filter { $0.hasPrefix("isolation/mixed/mutex ") }
        #expect(!builtIn.isEmpty && builtIn.allSatisfy { !$0.contains("from:") })
    }

    /// One door: every benchmark a built-in variant joins can be joined from outside, through the public
    /// factories a package calls, and each built-in variant is registered by one of them. A family or benchmark
    /// open only to built-in variants fails here.
    @Test func everyBenchmarkOfTheBuiltInVariantsHasAPublicFactory() throws {
        let public_ = try Registrations.checked([
            .lockStore("door-store", NSLockDictionary.self), .lockStore("door-exclusive", MutexStore.self),
            .lock("door-lock") { NSLock() }, .actorStore("door-actor", ActorStore.self),
            .once("door-once", SetTrackerOnce.self), .fanOut("door-fan-out") { GroupWaitFanOut() },
            .throttle("door-throttle") { SemaphoreLimitThrottle(limit: $0) },
            .handoff("door-handoff") { SemaphoreHandoff() },
        ])
        func benchmarks(_ variants: [Variant]) -> Set<String> {
            Set(variants.flatMap(\.benchmarkPaths).map { $0.split(separator: "/").prefix(2).joined(separator: "/") })
        }
        let builtIn = benchmarks(Variant.builtIn)
        #expect(!builtIn.isEmpty)
        #expect(builtIn.subtracting(benchmarks(public_)).isEmpty, "only built-in variants can join these")
        let suites = Set(Registrations.registry(adding: []).benchmarks.map(\.suite)).subtracting(["harness"])
        #expect(suites == Set(Variant.builtIn.map(\.suite)), "a suite whose variants do not come through Variant")
        #expect(Variant.builtIn.allSatisfy { $0.module == BenchmarkCase.builtInOrigin })
    }

    @Test(arguments: [
        ("mutex", "isolation/counter/mutex is a built-in case"),
        ("pthread-mutex", "harness/mutex-pair/pthread-mutex is a built-in case"),
        ("My Lock", "must be lower-case letters"),
        ("", "must be lower-case letters"),
        ("a/b", "must be lower-case letters"),
    ])
    func aBadIdIsRefusedWithWhatToDo(id: String, message: String) {
        #expect {
            try Registrations.checked([.lock(id) { NSLock() }])
        } throws: { error in
            "\(error)".contains(message) && "\(error)".contains("'\(id)'")
        }
    }

    /// Issue 60: the pages a package's author reads give the exit status that a refused id really ends with
    /// (`DispatchBench.main` hands the error to `BenchMain.fail`, which exits with `exitStatus(for:)`).
    @Test func theDocsGiveTheStatusARefusedIdExitsWith() throws {
        var refusal: Error?
        do { _ = try Registrations.checked([.lock("mutex") { NSLock() }]) } catch { refusal = error }
        let status = BenchMain.exitStatus(for: try #require(refusal))
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for page in ["docs/bring-your-own.md", "Sources/DispatchBench/DispatchBench.docc/BringingALock.md",
                     "Sources/DispatchBench/DispatchBench.swift"] {
            let text = try String(contentsOf: checkout.appendingPathComponent(page), encoding: .utf8)
                .replacingOccurrences(of: #"\s*\n\s*(///)?\s*"#, with: " ", options: .regularExpression)
            let stated = text.matches(of: /one-line error and (?:exit )?status (\d+)/).map { Int32($0.1)! }
            #expect(!stated.isEmpty, "\(page) no longer says the status of a refused id")
            #expect(stated.allSatisfy { $0 == status }, "\(page) says status \(stated); a refused id exits \(status)")
        }
    }

    @Test func anIdGivenTwiceIsRefused() {
        #expect {
            try Registrations.checked([.lock("twice") { NSLock() }, .lockStore("twice", MutexStore.self)])
        } throws: { error in
            "\(error)".contains("registered twice")
        }
    }

    /// Issue 60: `stress --list-checks` marks a brought-in variant's checks with the module that brought it, as
    /// `--list` marks its cases; a built-in variant's checks are not marked.
    @Test func listChecksMarksTheChecksOfABroughtVariantWithItsModule() throws {
        let brought = try Registrations.checked([.lock("ns-lock") { NSLock() }])
        let lines = Registrations.stressVariants(adding: brought).map(Bench.Stress.listLine)
        #expect(lines.filter { $0.contains("/ns-lock/") } == ["lost-writes", "torn-reads", "read-your-writes",
                                                               "mutual-exclusion"]
            .map { "isolation/ns-lock/\($0) from:VariantRegistrationTests" })
        #expect(lines.contains("isolation/mutex/lost-writes"))
        #expect(lines.filter { $0.contains(" from:") }.count == 4)
        #expect(StressCatalog.controls.map(Bench.Stress.listLine) == StressCatalog.controls.map(\.name))
    }

    /// The brought-in store goes through its family's checks: a sound one passes them all.
    @Test func aSoundBroughtStorePassesItsStressChecks() async throws {
        let cases = try Registrations.checked([.lock("ns-lock") { NSLock() }]).flatMap(\.stressCases)
        #expect(cases.map(\.name) == ["lost-writes", "torn-reads", "read-your-writes", "mutual-exclusion"]
            .map { "isolation/ns-lock/\($0)" })
        for check in cases {
            let counts = await onPlainThread { check.iteration(4) }
            #expect(counts.forbidden == 0 && !counts.counts.isEmpty, "\(check.name): \(counts.sorted)")
        }
    }

    /// Negative control: a broken lock brought the same way is caught by the mutual-exclusion check. Only that
    /// check is run: the store checks would race a real dictionary behind it, which crashes rather than fails.
    @Test func aBrokenBroughtLockIsCaughtByMutualExclusion() async throws {
        let cases = try Registrations.checked([.lock("check-then-set") { CheckThenSetLock() }]).flatMap(\.stressCases)
        let check = try #require(cases.first { $0.name == "isolation/check-then-set/mutual-exclusion" })
        let counts = await onPlainThread { check.iteration(4) }
        #expect(counts.forbidden > 0, "mutual exclusion missed a lock that lets two threads in: \(counts.sorted)")
    }

    /// Negative control: a broken store brought the same way is caught by every one of those checks.
    @Test func aBrokenBroughtStoreIsCaughtByEachCheck() async throws {
        let cases = try Registrations.checked([.lockStore("racy", RacyStore.self)]).flatMap(\.stressCases)
        #expect(cases.count == 3)
        for check in cases {
            let counts = await onPlainThread { check.iteration(4) }
            #expect(counts.forbidden > 0, "\(check.name) missed a store that tears its writes: \(counts.sorted)")
        }
    }
}
