/// A way of running blocks at most once per token, for as long as the instance lives: what every `once`
/// variant except `LazyStatic` (whose "token" is a declaration) offers, so that one benchmark and one stress
/// check serve them all.
///
/// Conforming types promise: `once(token:block:)` may be called from any thread at any time; for each token the
/// block runs at most once, on one of the calling threads; and no call returns before that block has returned,
/// so every caller sees its effects. Calling `once` for a token from inside that same token's block is not
/// supported (depending on the variant it returns early, deadlocks or traps).
///
/// Conforming types in this library make `once` `@inlinable`, so that a caller in another module (the benchmarks)
/// gets the variant's code as a caller in the variant's own module would, the way the seeds' extensions are used:
/// a hit then costs what the pattern costs, not also a call into this library (about a nanosecond, as much as some
/// hits themselves).
public protocol OnceTracker<Token>: AnyObject, Sendable {
    /// What names one "once": a string for the trackers, a slot number for the predicate tables.
    associatedtype Token

    /// Runs `block` if no call for `token` has run it yet, and returns once it has run.
    ///
    /// The requirement takes an escaping block so that the variants that hand the block to C through a context
    /// pointer (`DispatchOnce`, `PthreadOnce`) can store it without `withoutActuallyEscaping`, which allocates
    /// on every call (more than `dispatch_once_f` itself costs). The other variants take a non-escaping block,
    /// which satisfies the requirement too; a closure literal that captures nothing costs nothing either way.
    func once(token: Token, block: @escaping () -> Void)
}
