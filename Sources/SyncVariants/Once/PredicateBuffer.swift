/// The predicates of a once table: `count` of them at stable heap addresses, each set to the API's "not yet run"
/// value. A predicate must never move while a call may be using it, so it is never a Swift property; the
/// predicates are freed with the table that owns the buffer.
///
/// Not copyable, so that exactly one table owns (and frees) the memory. Not synchronized: the once API the table
/// calls synchronizes each predicate.
@usableFromInline
struct PredicateBuffer<Predicate>: ~Copyable {
    /// The number of predicates, one per token `0..<count`.
    @usableFromInline let count: Int
    @usableFromInline let base: UnsafeMutablePointer<Predicate>

    init(count: Int, initialValue: Predicate) {
        precondition(count >= 1, "a table holds at least one predicate")
        self.count = count
        base = .allocate(capacity: count)
        base.initialize(repeating: initialValue, count: count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// The predicate of `token`. Traps for a token outside `0..<count`.
    @inlinable @inline(__always)
    func address(of token: Int) -> UnsafeMutablePointer<Predicate> {
        precondition(token >= 0 && token < count, "token \(token) outside 0..<\(count)")
        return base + token
    }
}
