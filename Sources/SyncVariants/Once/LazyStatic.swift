/// Swift's own run-once: a `static let`, initialized on first access, thread-safe by the language's guarantee.
///
/// On Linux every access to a global or static `let` outside its defining file goes through an accessor that
/// calls `swift_once` (on Darwin, `dispatch_once`), which checks a predicate and returns when it is done. The
/// optimizer hoists that accessor out of a loop when it can see the loop, which is why a benchmark that reads
/// `Holder.value` in a loop reports 0 ns; `LazyStatic.value()` is a non-inlinable function, as the read is for a
/// caller in another module, so every call pays the accessor.
public enum LazyStatic {
    private static let storage: Int = Int.random(in: 1...1_000)

    /// Reads the static, initializing it on the first call. Thread-safe.
    @inline(never)
    public static func value() -> Int {
        storage
    }
}
