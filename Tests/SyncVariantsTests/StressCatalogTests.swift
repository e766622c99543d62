import BenchCore
import Foundation
import StressChecks
import Testing
import VariantRegistration

/// The catalog `bench stress` runs, through the same outcome grading: every variant's check observes nothing
/// forbidden, every negative control is caught, and the grading itself is exact.
///
/// Each check runs on a plain thread (`onPlainThread`): a check blocks its thread, and a blocked thread of
/// Swift's cooperative pool (two threads here) starves the actor store and the task-group fan-out it checks.
@Suite(.serialized) struct StressCatalogTests {
    /// Every built-in variant's checks, as its registration made them, and the seed patterns' checks.
    static let variants = Registrations.stressVariants(adding: [])

    @Test(arguments: variants.map(\.name))
    func variantShowsNoForbiddenOutcome(_ name: String) async throws {
        let check = try #require(Self.variants.first { $0.name == name })
        let counts = await onPlainThread { check.iteration(4) }
        #expect(counts.forbidden == 0, "\(name): \(counts.sorted)")
        #expect(!counts.counts.isEmpty, "\(name) observed nothing")
    }

    /// Each deterministic control is caught in its first iteration, as `bench stress` runs it: each is broken so
    /// that its check sees the defect in every run (their doc comments say why), not only when the scheduler
    /// happens to help.
    @Test(arguments: StressCatalog.controls.filter { $0.control == .deterministic }.map(\.name))
    func controlIsCaught(_ name: String) async throws {
        let control = try #require(StressCatalog.controls.first { $0.name == name })
        let counts = await onPlainThread { control.iteration(control.controlThreads) }
        #expect(counts.forbidden > 0, "\(name) was not caught in its first iteration: \(counts.sorted)")
    }

    /// Each racy control is caught within ten times its check's minimum trials. Not a rate (the finding measures
    /// how often one is caught within the minimum itself, docs/stress.md): a bound far enough out that a check
    /// with the power it claims never misses it, and a check that lost its power does.
    @Test(arguments: StressCatalog.controls.filter { $0.control == .racy }.map(\.name))
    func racyControlIsCaughtWithinTenMinimums(_ name: String) async throws {
        let control = try #require(StressCatalog.controls.first { $0.name == name })
        let budget = 10 * control.power.minimumTrials
        let counts = await onPlainThread { () -> OutcomeCounts in
            var counts = OutcomeCounts()
            while counts.forbidden == 0 && counts.trials < budget {
                var observed = control.iteration(control.controlThreads)
                observed.trials = max(observed.trials, 1)
                counts.add(observed)
            }
            return counts
        }
        #expect(counts.forbidden > 0, "\(name) was not caught in \(counts.trials) trials: \(counts.sorted)")
    }

    /// Every check with a racy control names it, and it exists; every racy control's check names it back.
    @Test func eachRacyControlMeasuresTheMinimumOfItsCheck() {
        let racy = StressCatalog.controls.filter { $0.control == .racy }
        #expect(racy.count == 4, "one racy control beside each kind of deterministic one the issue names")
        for control in racy { #expect(control.power.racyControl == control.name) }
        for check in Self.variants { if let name = check.power.racyControl { #expect(racy.contains { $0.name == name }) } }
    }

    @Test func everyCaseNameIsUniqueAndControlsAreMarked() {
        let names = (Self.variants + StressCatalog.controls).map(\.name)
        #expect(Set(names).count == names.count)
        #expect(StressCatalog.controls.allSatisfy { $0.isControl && $0.name.hasPrefix("control/") })
        #expect(Self.variants.allSatisfy { !$0.isControl })
    }

    @Test func onceReportGradesEachToken() {
        var report = OnceRaceReport(rounds: 10)
        report.repeatedRuns = 2
        report.missedRuns = 1
        report.earlyReturns = 3
        let counts = report.outcomes
        #expect(counts.counts == [.ranOnce: 7, .ranMoreThanOnce: 2, .neverRan: 1, .returnedEarly: 3])
        #expect(counts.forbidden == 6)
    }

    @Test func anEarlyReturningWriteIsInterestingOnlyForAnAsyncStore() {
        #expect(Outcome.returnedBeforeApplied(asynchronous: true).grade == .interesting)
        #expect(Outcome.returnedBeforeApplied(asynchronous: false).grade == .forbidden)
        #expect(Outcome.readsOverlapped(concurrent: false).grade == .forbidden)
    }

    @Test func countsAddAndSortWorstFirst() {
        var counts = OutcomeCounts()
        counts.record(.ranOnce, times: 5)
        counts.record(.neverRan, times: 0)
        var other = OutcomeCounts()
        other.record(.ranOnce)
        other.record(.returnedEarly)
        counts.add(other)
        #expect(counts.sorted.map(\.outcome) == [.returnedEarly, .ranOnce])
        #expect(counts.sorted.map(\.count) == [1, 6])
    }
}
