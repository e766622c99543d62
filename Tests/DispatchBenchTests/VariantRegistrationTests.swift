import BenchCore
@testable import DispatchBench
import Foundation
import StressChecks
import Testing

extension NSLock: ExclusiveLock {}

/// A variant brought from outside joins its suite as a built-in one does, and a clashing or malformed id is refused.
struct VariantRegistrationTests {
    /// The isolation cases of `variant`, as `benchmark threads params` with the variant's id left out.
    static func isolationShapes(_ variant: String, in registry: BenchmarkRegistry) -> [String] {
        registry.cases(threads: [1, 2, 4, 8]) { $0.hasPrefix("isolation/") && $0.hasSuffix("/\(variant)") }
            .map { "\($0.benchmarkCase.benchmark) \($0.benchmarkCase.threads) \($0.benchmarkCase.parameterString())" }
    }

    @Test func aBroughtLockStoreHasTheBuiltInMutexCases() throws {
        let brought = try Registrations.checked([.lockStore("mutex-outside", MutexStore.self)])
        let registry = Registrations.registry(adding: brought)
        let shapes = Self.isolationShapes("mutex-outside", in: registry)
        #expect(!shapes.isEmpty)
        #expect(shapes == Self.isolationShapes("mutex", in: registry))
    }

    @Test func aPlainLockJoinsWithoutAStore() throws {
        let brought = try Registrations.checked([.lock("ns-lock") { NSLock() }])
        #expect(brought[0].module == "DispatchBenchTests")
        let registry = Registrations.registry(adding: brought)
        #expect(Self.isolationShapes("ns-lock", in: registry) == Self.isolationShapes("mutex", in: registry))
    }

    @Test func registeringNothingLeavesTheBuiltInCases() {
        let builtIn = BenchmarkRegistry.all().cases(threads: [1, 2, 4, 8]).map(\.benchmarkCase)
        #expect(Registrations.registry(adding: []).cases(threads: [1, 2, 4, 8]).map(\.benchmarkCase) == builtIn)
    }

    @Test(arguments: [
        ("mutex", "is already a built-in isolation variant"),
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

    @Test func anIdGivenTwiceIsRefused() {
        #expect(throws: BenchError.self) {
            try Registrations.checked([.lock("twice") { NSLock() }, .lockStore("twice", MutexStore.self)])
        }
    }

    /// The brought-in store goes through its family's checks: a sound one passes them all.
    @Test func aSoundBroughtStorePassesItsStressChecks() async throws {
        let cases = try Registrations.checked([.lock("ns-lock") { NSLock() }]).flatMap(\.stressCases)
        #expect(cases.map(\.name) == ["lost-writes", "torn-reads", "read-your-writes"].map { "isolation/ns-lock/\($0)" })
        for check in cases {
            let counts = await onPlainThread { check.iteration(4) }
            #expect(counts.forbidden == 0 && !counts.counts.isEmpty, "\(check.name): \(counts.sorted)")
        }
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
