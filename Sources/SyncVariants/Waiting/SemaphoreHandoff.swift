import Dispatch

/// A handoff with two semaphores (`handoff/semaphore`): signal the other side's semaphore, wait on yours.
///
/// A semaphore keeps a signal that arrives before the wait, so no wake-up can be lost whatever the
/// interleaving. Thread-safe for one initiator and one responder.
@usableFromInline
package final class SemaphoreHandoff: Handoff {
    private let toResponder = DispatchSemaphore(value: 0)
    private let toInitiator = DispatchSemaphore(value: 0)

    @usableFromInline
    package init() {}

    @usableFromInline
    package func ping() {
        toResponder.signal()
        toInitiator.wait()
    }

    @usableFromInline
    package func pong() {
        toResponder.wait()
        toInitiator.signal()
    }
}
