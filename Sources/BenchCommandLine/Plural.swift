/// A count and its noun, plural unless the count is 1: `1 case`, `2 cases`, `0 samples`. Every noun bench
/// counts takes a plain `s` in the plural.
func plural<Count: BinaryInteger>(_ count: Count, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
