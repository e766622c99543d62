/// `auto-token`: the seed's convenience `DispatchQueue.once { ... }`, whose token is built from the call
/// site, `#file + ":" + #function + ":" + String(#line)`, on every call, over a `SetTrackerOnce`.
///
/// Building the string is part of every call, hits included: two concatenations and an integer formatting,
/// with a heap allocation once the result outgrows a small string (15 bytes), then a hash of the whole string.
/// In Swift 6 mode `#file` is the short `Module/File.swift` (the seed's Swift 3 had the full path, a longer
/// string). Two call sites on the same line of same-named functions in same-named files share a token, as
/// the seed warns. Thread-safety and nesting are as for `SetTrackerOnce`.
@usableFromInline
package final class AutoTokenOnce: OnceTable, Sendable {
    @usableFromInline let tracker = SetTrackerOnce()

    @usableFromInline
    package init() {}

    @usableFromInline
    package static func makeTable(tokens: Int) -> AutoTokenOnce {
        AutoTokenOnce()
    }

    /// Runs `block` once per call site (file, function and line).
    @inlinable
    package func once(file: String = #file, function: String = #function, line: Int = #line, block: () -> Void) {
        let token = file + ":" + function + ":" + String(line)
        tracker.once(token: token, block: block)
    }

    /// Runs `block` once per explicit token, sharing the table with the call-site tokens (as the seed does).
    @inlinable
    package func once(token: String, block: () -> Void) {
        tracker.once(token: token, block: block)
    }
}
