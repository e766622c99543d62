import ArgumentParser

/// Parsing of `--threads 1,4,16`.
enum ThreadList {
    /// The largest thread count accepted: far past oversubscription, short of exhausting the process.
    static let maximum = 512

    /// The counts in `text`, duplicates dropped, order kept; throws a message naming the bad element.
    static func parse(_ text: String) throws -> [Int] {
        var counts: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let count = Int(trimmed), (1...maximum).contains(count) else {
                throw ValidationError(
                    "--threads: '\(trimmed)' is not a thread count from 1 to \(maximum) (expected a list like 1,2,4,8)")
            }
            if !counts.contains(count) { counts.append(count) }
        }
        return counts
    }
}
