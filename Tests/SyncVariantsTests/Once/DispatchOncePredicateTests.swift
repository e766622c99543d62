#if canImport(CDispatch)
import CDispatch
#else
import Dispatch
#endif
import CSyncSupport
import StressChecks
import SyncVariants
import Testing

/// Seed 002's probe of the predicate: 0 means "run the block", -1 (`~0`) means "done, skip it".
///
/// Skipped in a ThreadSanitizer build: TSan replaces `dispatch_once_f` with an interceptor of its own
/// (compiler-rt's tsan_interceptors_libdispatch.cpp) that marks a predicate done with 2, not libdispatch's ~0, and
/// waits for a predicate it did not claim until it reads 2. Under TSan the first test reads 2 where it expects -1,
/// and the second, which presets -1, spins forever. The once variants themselves still run under TSan (the race
/// tests): a predicate that starts at 0 behaves the same with either encoding.
@Suite(.disabled(if: sync_built_with_thread_sanitizer(), "TSan's dispatch_once interceptor writes 2 for done, not ~0"))
struct DispatchOncePredicateTests {
    @Test func zeroedPredicateRunsTheBlockOnceAndIsLeftDone() {
        let table = DispatchOnce(count: 2)
        #expect(table.predicate(of: 0) == 0)
        var runs = 0
        table.once(token: 0) { runs += 1 }
        #expect(runs == 1)
        #expect(table.predicate(of: 0) == -1)
        table.once(token: 0) { runs += 1 }
        table.once(token: 0) { runs += 1 }
        #expect(runs == 1)
        #expect(table.predicate(of: 0) == -1)
        #expect(table.predicate(of: 1) == 0, "another token's predicate is untouched")
    }

    @Test func rawDispatchOnceFollowsTheSeedsPredicateRules() {
        let predicate = UnsafeMutablePointer<dispatch_once_t>.allocate(capacity: 1)
        let runs = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer {
            predicate.deallocate()
            runs.deallocate()
        }
        let countRun: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
            context!.assumingMemoryBound(to: Int.self).pointee += 1
        }

        predicate.pointee = 0
        runs.pointee = 0
        dispatch_once_f(predicate, runs, countRun)
        dispatch_once_f(predicate, runs, countRun)
        #expect(runs.pointee == 1)
        #expect(predicate.pointee == -1)

        // A predicate that already reads "done" never runs its block.
        predicate.pointee = -1
        runs.pointee = 0
        dispatch_once_f(predicate, runs, countRun)
        #expect(runs.pointee == 0)
        #expect(predicate.pointee == -1)
    }
}
