/// A once variant that can make fresh tables of tokens at run time: what `once/first`, `once/race` and the stress
/// checks need, since a block that has run never runs again and every race needs tokens no call has seen.
///
/// Two kinds of token: a string is looked up among the tokens registered so far (the trackers, whose `once/hit`
/// cost grows or not with how many there are), a number is the index of a predicate in a table made for that
/// many (one predicate per token, reached directly whatever the table's size).
public protocol OnceTable: OnceTracker where Token: Sendable {
    /// A table for `tokens` tokens, none of whose blocks has run. The string trackers grow as needed and ignore
    /// the count; the predicate tables allocate that many predicates.
    static func makeTable(tokens: Int) -> Self
    /// `count` distinct tokens for a table made for `count`: built once, outside any timed loop.
    static func makeTokens(_ count: Int) -> [Token]
}

extension OnceTable where Token == String {
    /// Reverse-DNS names, as the seed recommends: about 30 bytes, so each is a heap string, not a small inline
    /// one. A caller that passes back one of these very strings passes what a string literal at a call site would.
    public static func makeTokens(_ count: Int) -> [String] {
        (0..<count).map { "com.dispatchbench.once.token-\($0)" }
    }
}

extension OnceTable where Token == Int {
    /// The predicate indices `0..<count`.
    public static func makeTokens(_ count: Int) -> [Int] {
        Array(0..<count)
    }
}
