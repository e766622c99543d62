import StressChecks
import SyncVariants
import VariantCatalog
import VariantRegistration

// What the tests ask of a built-in variant, each answered from what its registration made (`Variant.subject`),
// never from a second mapping of ids to types. Only these tests ask, so the questions live here, not in the
// library.

extension IsolationVariant {
    /// A fresh store of this variant holding `models`, as the stress checks make it.
    func makeStore(preloading models: [IdentityModel]) -> any IsolatedStore {
        switch variant.subject {
        case .store(let make), .lock(let make, _): make(models)
        case .queueStore(let make, _, _): make(models, nil)
        default: preconditionFailure("\(self) is registered as no store")
        }
    }

    /// The bare lock, for the variants whose lock can be taken on its own (`isolation/counter`).
    var lockFactory: (@Sendable () -> any ExclusiveLock)? {
        if case .lock(_, let make) = variant.subject { make } else { nil }
    }

    /// Whether the store's lock can be taken on its own, so that it joins `counter`.
    var isExclusiveLock: Bool { lockFactory != nil }

    /// A fresh store watched by a test probe, for the stores on a dispatch queue.
    var probedStoreFactory: (@Sendable (_ models: [IdentityModel], _ probe: any QueueBlockProbe)
        -> any IsolatedStore)? {
        if case .queueStore(let make, _, _) = variant.subject { { make($0, $1) } } else { nil }
    }

    /// The variants on a dispatch queue.
    static var queueBased: [IsolationVariant] { allCases.filter { $0.probedStoreFactory != nil } }

    /// Whether reads may run beside each other inside the store's queue.
    var readsConcurrently: Bool {
        if case .queueStore(_, let concurrent, _) = variant.subject { concurrent } else { false }
    }

    /// Whether `write` may return before the write is applied.
    var writesAsynchronously: Bool {
        if case .queueStore(_, _, let asynchronous) = variant.subject { asynchronous } else { false }
    }
}

extension OnceVariant {
    /// The stress check's race of this variant, nil for a baseline that makes no once call.
    var race: (@Sendable (_ threads: Int, _ rounds: Int) -> OnceRaceReport)? {
        if case .once(let race) = variant.subject { race } else { nil }
    }

    /// The variants the stress check races.
    static var raced: [OnceVariant] { allCases.filter { $0.race != nil } }

    /// The name of the type that implements the variant, nil for a baseline.
    var typeName: String? { variant.typeName }
}

extension FanOutVariant {
    /// A fresh waiter.
    func makeWaiter() -> any TaskWaiter {
        guard case .fanOut(let make) = variant.subject else {
            preconditionFailure("\(self) is registered as no waiter")
        }
        return make()
    }

    /// A fresh waiter whose wait can give up, nil when it cannot.
    func makeTimedWaiter() -> (any TimedTaskWaiter)? { makeWaiter() as? any TimedTaskWaiter }

    /// The waiters whose wait can give up.
    static var timed: [FanOutVariant] { allCases.filter { $0.makeTimedWaiter() != nil } }
}

extension ThrottleVariant {
    /// Whether the throttle takes `limit`.
    func supports(limit: Int) -> Bool {
        if case .throttle(_, let supports) = variant.subject { supports(limit) } else { false }
    }

    /// A fresh throttle at `limit`, nil at a limit it does not take.
    func makeThrottle(limit: Int) -> (any TaskWaiter)? {
        if case .throttle(let make, let supports) = variant.subject, supports(limit) { make(limit) } else { nil }
    }
}

extension HandoffVariant {
    /// A fresh handoff pair.
    func makeHandoff() -> any Handoff {
        guard case .handoff(let make) = variant.subject else {
            preconditionFailure("\(self) is registered as no handoff")
        }
        return make()
    }
}
