import Dispatch

/// A handoff with two dispatch groups, one per direction (`handoff/group`): `leave` wakes the other side's
/// `wait`, and each side re-`enter`s the group it just waited on before answering, so the group is armed again
/// before the other side can leave it in the next round.
///
/// Both groups start entered once, and stay entered once between rounds; `deinit` leaves them so that they are
/// balanced when freed (a group freed while entered is a libdispatch crash). Like a semaphore, a group that
/// reached zero before the wait began lets the wait return at once, so no wake-up is lost.
/// Thread-safe for one initiator and one responder; free it only between round trips.
@usableFromInline
package final class GroupHandoff: Handoff {
    private let toResponder = DispatchGroup()
    private let toInitiator = DispatchGroup()

    @usableFromInline
    package init() {
        toResponder.enter()
        toInitiator.enter()
    }

    deinit {
        toResponder.leave()
        toInitiator.leave()
    }

    @usableFromInline
    package func ping() {
        toResponder.leave()
        toInitiator.wait()
        toInitiator.enter()
    }

    @usableFromInline
    package func pong() {
        toResponder.wait()
        toResponder.enter()
        toInitiator.leave()
    }
}
