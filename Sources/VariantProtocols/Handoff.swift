/// Two threads handing control back and forth: the initiator calls `ping()` and the responder `pong()`, the
/// same number of times. One `ping` and its `pong` are one round trip: the initiator wakes the responder and
/// sleeps until the responder wakes it back.
///
/// Exactly one thread may play each role at a time; calls of the two roles pair up in order.
public protocol Handoff: Sendable {
    /// Initiator: wakes the responder and returns once the responder has answered.
    func ping()
    /// Responder: waits for the next `ping`, then answers it.
    func pong()
}
