/// A way of running blocks at most once per token, for as long as the instance lives: what every `once`
/// variant except `LazyStatic` (whose "token" is a declaration) offers, so that one benchmark and one stress
/// check serve them all.
///
/// Conforming types promise: `once(token:block:)` may be called from any thread at any time; for each token the
/// block runs at most once, on one of the calling threads; and no call returns before that block has returned,
/// so every caller sees its effects. Calling `once` for a token from inside that same token's block is not
/// supported (depending on the variant it returns early, deadlocks or traps).
public protocol OnceTracker: AnyObject, Sendable {
    /// What names one "once": a string for the trackers, a slot number for the predicate tables.
    associatedtype Token

    /// Runs `block` if no call for `token` has run it yet, and returns once it has run.
    func once(token: Token, block: () -> Void)
}
