import SyncVariants

/// `AutoTokenOnce` through its call-site API: token n is the call site at line n, so the token string is built
/// on every call, as in the seed.
package final class AutoTokenCallSites: OnceTracker, Sendable {
    private let tracker = AutoTokenOnce()

    package init() {}

    package func once(token line: Int, block: () -> Void) {
        tracker.once(line: line, block: block)
    }

    /// The stress check's race of the seed's call-site `once`, on fresh call sites.
    package static func race(threads: Int, rounds: Int) -> OnceRaceReport {
        OnceRaceCheck.run(AutoTokenCallSites(), tokens: Array(0..<rounds), threads: threads)
    }
}
